import { formatDuration } from '@/lib/format';
import type { TTimeLag } from '@/lib/schemas/groups';

// How the dashboard words time lags, timestamps and staleness; numbers and durations are lib/format.ts's.

/** A time lag as a reader should take it: "≥ 10 min" for a lower bound, "—" when unknown. */
export function formatTimeLag(lag: Pick<TTimeLag, 'ms' | 'kind'> | null | undefined): string {
  if (!lag || lag.ms === null || lag.kind === 'unknown') return '—';
  return lag.kind === 'lower-bound' ? `≥ ${formatDuration(lag.ms / 1000)}` : formatDuration(lag.ms / 1000);
}

const KIND_TEXT: Record<TTimeLag['kind'], string> = {
  exact: 'exact',
  'caught-up': 'caught up',
  interpolated: 'interpolated',
  'lower-bound': 'at least',
  unknown: 'unknown',
};

const BASIS_TEXT: Record<TTimeLag['basis'], string> = {
  'record-timestamp': 'from the timestamp of the record at the committed offset',
  sampler: "from the sampler's log-end history",
  'lag-samples': "from the stored samples' log-end offsets over time",
  none: 'no commit or no history to estimate from',
};

/** Short label of how a time lag was obtained, and the sentence behind it (for a tooltip or screen reader). */
export function describeTimeLag(lag: TTimeLag): { label: string; explanation: string } {
  const label = KIND_TEXT[lag.kind];
  const how =
    lag.kind === 'lower-bound'
      ? 'The waiting record is older than every observation kept, so this is a minimum'
      : lag.kind === 'interpolated'
        ? 'Time the log end passed the committed offset, interpolated between two observations'
        : lag.kind === 'exact'
          ? 'Now minus the timestamp of the record the group waits for'
          : lag.kind === 'caught-up'
            ? 'Nothing is waiting'
            : 'Not known';
  return { label, explanation: `${how}; ${BASIS_TEXT[lag.basis]}.` };
}

/** "2026-11-29 14:03:07" in the viewer's time zone (24 h, sortable). */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * A sample is stale when three sampler rounds (plus slack for a slow round) passed without a newer one: the
 * sampler is down or no longer sees the group, and the numbers are history, not the present.
 */
export function isStale(sampledAtIso: string, nowMs: number, sampleIntervalMs: number): boolean {
  return nowMs - Date.parse(sampledAtIso) > 3 * sampleIntervalMs + 10_000;
}

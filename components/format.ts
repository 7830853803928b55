import { formatWallClock, formatWallDateTime, type DisplayZone } from '@/lib/charts/axis';
import { formatCount, formatDuration } from '@/lib/format';
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

/**
 * "2026-11-29 14:03:07" in the zone the viewer chose (useTimeZone: local or UTC; 24 h, sortable). The zone, here and
 * in every time below, has no default: "local" while the server renders is the server's zone, the hydrating browser
 * writes its own, and on that text difference React throws the page's HTML away and renders it again.
 */
export function formatDateTime(iso: string | null | undefined, zone: DisplayZone): string {
  if (!iso) return '—';
  return formatWallDateTime(Date.parse(iso), zone);
}

/**
 * How old a sample may be before it is stale: three sampler rounds (plus slack for a slow round) without a
 * newer one, on top of the SAMPLE_IDLE_STORE_MS an unchanged group may go unstored.
 */
export function staleAfterMs(sampleIntervalMs: number, idleStoreMs = 0): number {
  return 3 * sampleIntervalMs + idleStoreMs + 10_000;
}

/** Older than staleAfterMs: the sampler is down or no longer sees the group, and the numbers are history. */
export function isStale(sampledAtIso: string, nowMs: number, sampleIntervalMs: number, idleStoreMs = 0): boolean {
  return nowMs - Date.parse(sampledAtIso) > staleAfterMs(sampleIntervalMs, idleStoreMs);
}

/** "06:21:01": a time of day in the zone the viewer chose (24 h). */
export function formatClock(iso: string, zone: DisplayZone): string {
  return formatWallClock(Date.parse(iso), zone);
}

/**
 * "held since 06:21:01 (4 min 10 s)": when a record was first held and for how long, from the viewer's clock
 * (without the duration while that clock is not known).
 */
export function formatHeldSince(sinceIso: string, nowMs: number | null, zone: DisplayZone): string {
  const since = `held since ${formatClock(sinceIso, zone)}`;
  return nowMs === null ? since : `${since} (${formatDuration(Math.max(0, nowMs - Date.parse(sinceIso)) / 1000)})`;
}

/** "failed 3 times" / "failed once": how often a consumer stopped at the record. */
export function formatFailures(failures: number): string {
  return failures === 1 ? 'failed once' : `failed ${formatCount(failures)} times`;
}

/** "blocking 5,022 records, 4 min 10 s of time lag": what a hold costs, saying so when a figure is not known. */
export function formatBlocking(blocking: { records: number | null; timeLag: Pick<TTimeLag, 'ms' | 'kind'> }): string {
  const records =
    blocking.records === null
      ? 'blocking an unknown number of records'
      : `blocking ${formatCount(blocking.records)} record${blocking.records === 1 ? '' : 's'}`;
  const { ms, kind } = blocking.timeLag;
  if (ms === null || kind === 'unknown') return `${records}; time lag unknown`;
  const lag = formatDuration(ms / 1000);
  return `${records}, ${kind === 'lower-bound' ? `at least ${lag}` : lag} of time lag`;
}

const ACTION_PAST: Record<string, string> = { resume: 'resumed', skip: 'skipped', seek: 'sought', reset: 'reset' };
const STATUS_TEXT: Record<string, string> = {
  pending: 'not applied yet',
  done: 'applied',
  failed: 'failed',
  failed_again: 'failed again',
  rejected: 'refused',
  expired: 'expired: no instance applied it in time',
};

/** "resumed by alice at 06:24:03 — failed again: <outcome>": one line of a record's action history. */
export function describeHistoryEntry(
  action: {
    action: string;
    requestedBy: string;
    requestedAt: string;
    status: string;
    outcome: string | null;
  },
  zone: DisplayZone,
): string {
  const what = `${ACTION_PAST[action.action] ?? action.action} by ${action.requestedBy} at ${formatClock(action.requestedAt, zone)}`;
  const status = STATUS_TEXT[action.status] ?? action.status;
  return action.outcome ? `${what} — ${status}: ${action.outcome}` : `${what} — ${status}`;
}

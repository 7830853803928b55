import { formatWallDateTime, zoneLabel, type DisplayZone } from '@/lib/charts/axis';
import { explainEmptyRange } from '@/lib/charts/series-view';
import type { TLagRange, TLagSeries } from '@/lib/schemas/groups';

/** A range with nothing to draw, and why: no samples yet, a rollup not yet written, or a sampler gap. */
export function EmptyRange({
  series,
  range,
  zone,
  lastSampledAt,
}: {
  series: TLagSeries;
  range: TLagRange;
  zone: DisplayZone;
  lastSampledAt: string | null;
}) {
  const reason = explainEmptyRange({
    toMs: Date.parse(series.to),
    source: series.source,
    firstSampledAtMs: Date.parse(series.firstSampledAt),
    lastSampledAtMs: lastSampledAt ? Date.parse(lastSampledAt) : null,
  });
  const at = (ms: number) => `${formatWallDateTime(ms, zone)} ${zoneLabel(zone, ms)}`;
  const text =
    reason.kind === 'no-samples-yet'
      ? `No samples in the last ${range}: the sampler has not stored any for this group yet.`
      : reason.kind === 'rollup-not-written'
        ? `No samples in the last ${range} yet: this range reads the rollups, written once a minute for complete minutes, and the group was first sampled at ${at(reason.firstSampledAtMs)}. Pick 15m or 1h for the raw samples.`
        : `No samples in the last ${range}: a sampler gap${reason.lastSampledAtMs !== null ? `; the newest sample of this group is from ${at(reason.lastSampledAtMs)}` : ''}. The sampler is down or no longer sees the group.`;
  return (
    <p className="muted" data-testid="chart-empty" data-reason={reason.kind}>
      {text}
    </p>
  );
}

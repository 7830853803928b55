import { formatWallDateTime, type DisplayZone } from '@/lib/charts/axis';
import { storedFromReason, type Gap } from '@/lib/charts/series-view';
import type { TLagSeries } from '@/lib/schemas/groups';

/**
 * What the charts cannot show, said above them: nothing stored before some time in the range (the group was first
 * sampled then, or older samples are past retention), and the sampler's gaps, which the charts shade.
 */
export function RangeNotes({
  series,
  gaps,
  firstDataMs,
  zone,
  zoneName,
}: {
  series: TLagSeries;
  gaps: Gap[];
  /** The first bucket with a sample; null: none. */
  firstDataMs: number | null;
  zone: DisplayZone;
  /** The zone's name as the charts' times give it. */
  zoneName: string;
}) {
  const fromMs = Date.parse(series.from);
  const toMs = Date.parse(series.to);
  const firstSampledMs = Date.parse(series.firstSampledAt);
  const startsLate = firstDataMs !== null && firstDataMs - fromMs > 2 * series.stepMs;
  return (
    <>
      {startsLate && firstSampledMs > fromMs ? (
        <p className="muted small" data-testid="chart-coverage">
          Nothing stored before {formatWallDateTime(firstSampledMs, zone)} {zoneName}:{' '}
          {storedFromReason(firstSampledMs, toMs, series.rawRetentionDays) === 'past-retention'
            ? `older samples are past the ${series.rawRetentionDays}-day retention (SAMPLER_RETENTION_DAYS).`
            : 'the group was first sampled then.'}
        </p>
      ) : null}
      {gaps.length > 0 ? (
        <p className="muted small" data-testid="chart-gaps">
          Sampler gap{gaps.length === 1 ? '' : 's'} (shaded, no samples):{' '}
          {gaps
            .slice(0, 3)
            .map((g) => `${formatWallDateTime(g.fromMs, zone)} – ${formatWallDateTime(g.toMs, zone).slice(11)}`)
            .join(', ')}
          {gaps.length > 3 ? ` and ${gaps.length - 3} more` : ''}
        </p>
      ) : null}
    </>
  );
}

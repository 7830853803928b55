'use client';

import dynamic from 'next/dynamic';
import { memo, useId, useRef } from 'react';
import { LAG_RANGES, type TLagRange, type TLagSeries } from '@/lib/schemas/groups';
import { formatDuration } from '@/lib/format';
import { ErrorState, LoadingState } from './states';
import { useNearViewport } from './use-near-viewport';

/**
 * The charts (recharts, the group page's largest script and most of its rendering work) load and render only
 * once their card comes within this distance of the viewport. The card itself (heading, range choice, what
 * the series is) is in the first HTML; on a phone the charts sit below the partitions, so opening the page
 * costs no chart work until someone scrolls towards them, and the series query runs meanwhile, so its data
 * is there when they mount.
 */
const CHARTS_MOUNT_MARGIN_PX = 400;

const Charts = dynamic(() => import('./lag-charts').then((m) => m.Charts), {
  ssr: false,
  loading: () => <LoadingState label="Loading the charts…" />,
});

/** Time lag and offset lag per partition, and the group's arrival and consumption rates, over a range. */
export const LagChartsCard = memo(function LagChartsCard({
  series,
  range,
  onRange,
  error,
  isPending,
  isFetching,
  lastSampledAt,
}: {
  series: TLagSeries | undefined;
  range: TLagRange;
  onRange: (range: TLagRange) => void;
  error: Error | null;
  isPending: boolean;
  isFetching: boolean;
  /** The group's newest sample (its detail's sampledAt), to word an empty range. */
  lastSampledAt: string | null;
}) {
  const id = useId();
  const card = useRef<HTMLElement>(null);
  const near = useNearViewport(card, CHARTS_MOUNT_MARGIN_PX);
  return (
    <section className="card" aria-labelledby={`${id}-heading`} data-testid="lag-charts" ref={card}>
      <div className="card-head">
        <h2 id={`${id}-heading`}>Lag over time</h2>
        <fieldset className="segmented" aria-busy={isFetching}>
          <legend className="visually-hidden">Chart range</legend>
          {(Object.keys(LAG_RANGES) as TLagRange[]).map((r) => (
            <label key={r} className={r === range ? 'selected' : undefined}>
              <input type="radio" name={`${id}-range`} value={r} checked={r === range} onChange={() => onRange(r)} />
              {r}
            </label>
          ))}
        </fieldset>
        {series ? (
          <span className="muted small">
            {series.source === 'rollup' ? 'one-minute rollups' : 'raw samples'}, {formatDuration(series.stepMs / 1000)}{' '}
            buckets (maximum per bucket)
          </span>
        ) : null}
      </div>
      {error ? <ErrorState error={error} what="the lag series" hasStaleData={series !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading the lag series…" />
      ) : !near ? (
        <div className="charts-placeholder" aria-hidden="true" />
      ) : series ? (
        // Keyed by range: zoom and the gap list belong to one range.
        <Charts key={range} series={series} range={range} lastSampledAt={lastSampledAt} />
      ) : null}
    </section>
  );
});

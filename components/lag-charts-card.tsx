'use client';

import dynamic from 'next/dynamic';
import { memo, useId, useRef } from 'react';
import type { TLagRange } from '@/lib/schemas/groups';
import { LAG_RANGES } from '@/lib/schemas/values';
import { formatDuration } from '@/lib/format';
import { useLagSeries } from './hooks/use-group';
import { ErrorState, LoadingState } from './states';
import { NEAR_VIEWPORT_MARGIN_PX, useNearViewport } from './use-near-viewport';
import './lag-charts-card.css';

/**
 * The charts (recharts, the group page's largest script and most of its rendering work) load and render only
 * once their card comes within NEAR_VIEWPORT_MARGIN_PX of the viewport, and the card asks for their series
 * only then. The card itself (heading, range choice) is in the first HTML; on a phone the charts sit below the
 * partitions, so opening the page costs no chart script, no series request and no parse of it until someone
 * scrolls towards them.
 */
const Charts = dynamic(() => import('./lag-charts').then((m) => m.Charts), {
  ssr: false,
  loading: () => <LoadingState label="Loading the charts…" />,
});

/** Time lag and offset lag per partition, and the group's arrival and consumption rates, over a range. */
export const LagChartsCard = memo(function LagChartsCard({
  cluster,
  groupId,
  refreshMs,
  range,
  onRange,
  lastSampledAt,
}: {
  cluster: string;
  groupId: string;
  refreshMs: number;
  range: TLagRange;
  onRange: (range: TLagRange) => void;
  /** The group's newest sample (its detail's sampledAt), to word an empty range. */
  lastSampledAt: string | null;
}) {
  const id = useId();
  const card = useRef<HTMLElement>(null);
  const near = useNearViewport(card, NEAR_VIEWPORT_MARGIN_PX);
  const { data: series, error, isPending, isFetching } = useLagSeries(cluster, groupId, range, refreshMs, near);
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
      {!near ? (
        <div className="charts-placeholder" aria-hidden="true" />
      ) : isPending ? (
        <LoadingState label="Loading the lag series…" />
      ) : series ? (
        // Keyed by range: zoom and the gap list belong to one range.
        <Charts key={range} series={series} range={range} lastSampledAt={lastSampledAt} />
      ) : null}
    </section>
  );
});

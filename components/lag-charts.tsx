'use client';

import { memo, useId } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { LAG_RANGES, type TLagRange, type TLagSeries } from '@/lib/schemas/groups';
import { ErrorState, LoadingState } from './states';
import { formatCount, formatDuration, formatDurationCompact, formatRateRounded } from '@/lib/format';

/** More lines than this turn a chart into noise; the partitions with the highest lag are shown. */
const MAX_LINES = 12;
const PALETTE = [
  '#5fb3f9',
  '#f0883e',
  '#56d364',
  '#d2a8ff',
  '#ffa198',
  '#e3b341',
  '#79c0ff',
  '#ff7b72',
  '#a5d6ff',
  '#7ee787',
  '#f778ba',
  '#bc8cff',
];

const axisTick = { fill: '#8b98a8', fontSize: 11 };

function timeTick(ms: number, range: TLagRange): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (range === '7d') return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
  return range === '15m' ? `${hm}:${pad(d.getSeconds())}` : hm;
}

function durationTick(ms: number): string {
  return ms === 0 ? '0' : formatDurationCompact(ms);
}

/** Time lag and offset lag per partition, and the group's arrival and consumption rates, over a range. */
export const LagCharts = memo(function LagCharts({
  series,
  range,
  onRange,
  error,
  isPending,
  isFetching,
}: {
  series: TLagSeries | undefined;
  range: TLagRange;
  onRange: (range: TLagRange) => void;
  error: Error | null;
  isPending: boolean;
  isFetching: boolean;
}) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
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
      ) : series ? (
        <Charts series={series} range={range} />
      ) : null}
    </section>
  );
});

function Charts({ series, range }: { series: TLagSeries; range: TLagRange }) {
  const ranked = series.partitions
    .map((p) => ({ p, peak: Math.max(-1, ...p.lag.filter((v): v is number => v !== null)) }))
    .sort((a, b) => b.peak - a.peak || a.p.partition - b.p.partition)
    .slice(0, MAX_LINES)
    .map(({ p }) => p)
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
  const keyOf = (p: { topic: string; partition: number }) => `${p.topic}-${p.partition}`;
  const rows = series.times.map((t, i) => {
    const row: Record<string, number | null> = { t: Date.parse(t) };
    for (const p of ranked) {
      row[`lag:${keyOf(p)}`] = p.lag[i] ?? null;
      row[`time:${keyOf(p)}`] = p.timeLagMs[i] ?? null;
    }
    row.arrival = series.totals.arrivalRatePerSec[i] ?? null;
    row.consumption = series.totals.consumptionRatePerSec[i] ?? null;
    return row;
  });
  const hasData = series.partitions.some((p) => p.lag.some((v) => v !== null));
  if (!hasData) return <p className="muted">No samples in the last {range}.</p>;
  const hidden = series.partitions.length - ranked.length;
  const lowerBound = series.partitions.some((p) => p.timeLagKind.includes('lower-bound'));
  const lastTime = (p: (typeof ranked)[number]) => [...p.timeLagMs].reverse().find((v) => v !== null) ?? null;
  const worstNow = ranked.reduce<{ name: string; ms: number } | null>((w, p) => {
    const ms = lastTime(p);
    return ms !== null && (w === null || ms > w.ms) ? { name: keyOf(p), ms } : w;
  }, null);
  const common = {
    data: rows,
    margin: { top: 8, right: 16, bottom: 0, left: 8 },
  };
  const xAxis = (
    <XAxis
      dataKey="t"
      type="number"
      scale="time"
      domain={['dataMin', 'dataMax']}
      tickFormatter={(v: number) => timeTick(v, range)}
      tick={axisTick}
      stroke="#263040"
      minTickGap={40}
    />
  );
  const grid = <CartesianGrid stroke="#1e2733" vertical={false} />;
  const tooltipStyle = {
    contentStyle: { background: '#0f1419', border: '1px solid #263040', fontSize: 12 },
    labelFormatter: (v: unknown) => new Date(Number(v)).toLocaleString(),
  };

  return (
    <div className="charts">
      {hidden > 0 ? (
        <p className="muted small">
          Showing the {ranked.length} partitions with the highest lag; {hidden} more are in the table.
        </p>
      ) : null}
      <figure className="chart">
        <figcaption>
          Time lag per partition
          {lowerBound ? (
            <span className="muted small"> · includes lower bounds (record older than the history)</span>
          ) : null}
        </figcaption>
        <div
          role="img"
          aria-label={`Time lag per partition over the last ${range}${worstNow ? `; worst now ${formatDuration(worstNow.ms / 1000)} on ${worstNow.name}` : ''}`}
        >
          <ResponsiveContainer width="100%" height={220}>
            <LineChart {...common}>
              {grid}
              {xAxis}
              <YAxis tickFormatter={durationTick} tick={axisTick} stroke="#263040" width={56} />
              <Tooltip
                {...tooltipStyle}
                formatter={(v: unknown) => (typeof v === 'number' ? formatDuration(v / 1000) : '—')}
              />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {ranked.map((p, i) => (
                <Line
                  key={keyOf(p)}
                  type="monotone"
                  dataKey={`time:${keyOf(p)}`}
                  name={keyOf(p)}
                  stroke={PALETTE[i % PALETTE.length]}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                  connectNulls={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="chart">
        <figcaption>Offset lag per partition</figcaption>
        <div role="img" aria-label={`Offset lag per partition over the last ${range}`}>
          <ResponsiveContainer width="100%" height={220}>
            <LineChart {...common}>
              {grid}
              {xAxis}
              <YAxis tickFormatter={(v: number) => formatCount(v)} tick={axisTick} stroke="#263040" width={56} />
              <Tooltip {...tooltipStyle} formatter={(v: unknown) => (typeof v === 'number' ? formatCount(v) : '—')} />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {ranked.map((p, i) => (
                <Line
                  key={keyOf(p)}
                  type="monotone"
                  dataKey={`lag:${keyOf(p)}`}
                  name={keyOf(p)}
                  stroke={PALETTE[i % PALETTE.length]}
                  dot={false}
                  strokeWidth={1.5}
                  isAnimationActive={false}
                  connectNulls={false}
                />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <figure className="chart">
        <figcaption>Arrival and consumption rate (all partitions)</figcaption>
        <div role="img" aria-label={`Records appended and committed per second over the last ${range}`}>
          <ResponsiveContainer width="100%" height={180}>
            <LineChart {...common}>
              {grid}
              {xAxis}
              <YAxis tickFormatter={(v: number) => formatRateRounded(v)} tick={axisTick} stroke="#263040" width={56} />
              <Tooltip
                {...tooltipStyle}
                formatter={(v: unknown) => (typeof v === 'number' ? formatRateRounded(v) : '—')}
              />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              <Line
                type="monotone"
                dataKey="arrival"
                name="arrival (in)"
                stroke="#f0883e"
                dot={false}
                strokeWidth={1.5}
                isAnimationActive={false}
              />
              <Line
                type="monotone"
                dataKey="consumption"
                name="consumption (out)"
                stroke="#56d364"
                dot={false}
                strokeWidth={1.5}
                isAnimationActive={false}
              />
            </LineChart>
          </ResponsiveContainer>
        </div>
      </figure>
    </div>
  );
}

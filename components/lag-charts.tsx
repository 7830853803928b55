'use client';

import { memo, useCallback, useMemo, useState } from 'react';
import { niceDurationTicks, niceTimeTicks, niceValueTicks, timeStepFor, zoneLabel } from '@/lib/charts/axis';
import { partitionKey } from '@/lib/charts/series-view';
import type { TLagRange, TLagSeries } from '@/lib/schemas/groups';
import { formatCount, formatDuration, formatDurationCompact, formatRateRounded } from '@/lib/format';
import { useTimeZone } from './display-preferences';
import { EmptyRange } from './lag-chart-empty-range';
import { ChartFrame, lineOf, type FrameProps } from './lag-chart-frame';
import { ChartLegend } from './lag-chart-legend';
import { buildModel } from './lag-chart-model';
import { RangeNotes } from './lag-chart-notes';
import { PartitionPicker } from './lag-chart-partition-picker';
import { ZoomControls } from './lag-chart-zoom';
import './lag-charts.css';

// The group page's charts, loaded with recharts by lag-charts-card.tsx once the card nears the viewport; their
// parts are the lag-chart-*.tsx modules beside this one, and lag-charts.css styles them all.

const DEFAULT_TOP = 8;
const X_TICKS = 6;

/**
 * memo: the card around it renders on every fetch start and end (`isFetching`); the three recharts charts
 * render only when the series, the range or the newest sample changed.
 */
export const Charts = memo(function Charts({
  series,
  range,
  lastSampledAt,
}: {
  series: TLagSeries;
  range: TLagRange;
  lastSampledAt: string | null;
}) {
  const zone = useTimeZone();
  const model = useMemo(() => buildModel(series), [series]);
  const [top, setTop] = useState<number>(DEFAULT_TOP);
  const [picked, setPicked] = useState<ReadonlySet<string> | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const fromMs = Date.parse(series.from);
  const toMs = Date.parse(series.to);
  const domain: [number, number] = zoom ?? [fromMs, toMs];

  const drawn = useMemo(
    () => (picked ? model.ranked.filter((p) => picked.has(partitionKey(p))) : model.ranked.slice(0, top)),
    [model, picked, top],
  );
  const rows = useMemo(
    () => (zoom ? model.rows.filter((r) => r.t! >= zoom[0] && r.t! <= zoom[1]) : model.rows),
    [model, zoom],
  );
  const toggle = useCallback(
    (key: string) =>
      setHidden((h) => {
        const next = new Set(h);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
    [],
  );

  if (!model.hasData) {
    return <EmptyRange series={series} range={range} zone={zone} lastSampledAt={lastSampledAt} />;
  }
  const visible = drawn.filter((p) => !hidden.has(partitionKey(p)));
  const maxOf = (prefix: 'time' | 'lag') => {
    let max = 0;
    for (const r of rows) for (const p of visible) max = Math.max(max, r[`${prefix}:${partitionKey(p)}`] ?? 0);
    return max;
  };
  const timeTicks = niceDurationTicks(maxOf('time'));
  const lagTicks = niceValueTicks(maxOf('lag'));
  const rateMax = Math.max(
    0,
    ...rows.map((r) =>
      Math.max(hidden.has('arrival') ? 0 : (r.arrival ?? 0), hidden.has('consumption') ? 0 : (r.consumption ?? 0)),
    ),
  );
  const rateTicks = niceValueTicks(rateMax);
  const xStep = timeStepFor(domain[0], domain[1], X_TICKS);
  const xTicks = niceTimeTicks(domain[0], domain[1], X_TICKS, zone);
  const zoneName = zoneLabel(zone, domain[1]);
  const lowerBound = series.partitions.some((p) => p.timeLagKind.includes('lower-bound'));
  const worst = drawn[0];
  const worstMs = worst ? [...worst.timeLagMs].reverse().find((v) => v !== null) : null;

  const frame: FrameProps = {
    rows,
    domain,
    xTicks,
    xStep,
    zone,
    gaps: model.gaps,
    onZoom: setZoom,
  };
  return (
    <div className="charts">
      <div className="chart-controls">
        <PartitionPicker
          ranked={model.ranked}
          top={top}
          onTop={(n) => {
            setTop(n);
            setPicked(null);
          }}
          picked={picked}
          onPicked={setPicked}
          drawnCount={drawn.length}
        />
        <span className="muted small" data-testid="chart-zone">
          Times in {zoneName} (24 h){zoom ? '' : '; drag across a chart to zoom'}
        </span>
        <ZoomControls
          zoom={zoom}
          domain={domain}
          whole={[fromMs, toMs]}
          stepMs={series.stepMs}
          zone={zone}
          onZoom={setZoom}
        />
      </div>
      <ChartLegend
        items={drawn.map((p) => ({
          key: partitionKey(p),
          label: partitionKey(p),
          colour: model.colourOf.get(partitionKey(p))!,
        }))}
        hidden={hidden}
        onToggle={toggle}
        label="Partitions drawn (click to hide or show)"
      />
      <RangeNotes series={series} gaps={model.gaps} firstDataMs={model.firstDataMs} zone={zone} zoneName={zoneName} />
      <figure className="chart">
        <figcaption>
          Time lag per partition
          {lowerBound ? (
            <span className="muted small"> · includes lower bounds (record older than the history)</span>
          ) : null}
        </figcaption>
        <ChartFrame
          {...frame}
          height={220}
          label={`Time lag per partition over the last ${range}${worst && worstMs != null ? `; worst now ${formatDuration(worstMs / 1000)} on ${partitionKey(worst)}` : ''}`}
          yTicks={timeTicks}
          yFormat={(v) => (v === 0 ? '0' : formatDurationCompact(v))}
          valueFormat={(v) => formatDuration(v / 1000)}
        >
          {drawn.map((p) =>
            lineOf(
              `time:${partitionKey(p)}`,
              partitionKey(p),
              model.colourOf.get(partitionKey(p))!,
              hidden.has(partitionKey(p)),
            ),
          )}
        </ChartFrame>
      </figure>
      <figure className="chart">
        <figcaption>Offset lag per partition</figcaption>
        <ChartFrame
          {...frame}
          height={220}
          label={`Offset lag per partition over the last ${range}`}
          yTicks={lagTicks}
          yFormat={(v) => formatCount(v)}
          valueFormat={(v) => formatCount(v)}
        >
          {drawn.map((p) =>
            lineOf(
              `lag:${partitionKey(p)}`,
              partitionKey(p),
              model.colourOf.get(partitionKey(p))!,
              hidden.has(partitionKey(p)),
            ),
          )}
        </ChartFrame>
      </figure>
      <figure className="chart">
        <figcaption>Arrival and consumption rate (all partitions)</figcaption>
        <ChartLegend
          items={[
            { key: 'arrival', label: 'arrival (in)', colour: '#f0883e' },
            { key: 'consumption', label: 'consumption (out)', colour: '#56d364' },
          ]}
          hidden={hidden}
          onToggle={toggle}
          label="Rates drawn (click to hide or show)"
        />
        <ChartFrame
          {...frame}
          height={180}
          label={`Records appended and committed per second over the last ${range}`}
          yTicks={rateTicks}
          yFormat={(v) => formatRateRounded(v)}
          valueFormat={(v) => formatRateRounded(v)}
        >
          {lineOf('arrival', 'arrival (in)', '#f0883e', hidden.has('arrival'))}
          {lineOf('consumption', 'consumption (out)', '#56d364', hidden.has('consumption'))}
        </ChartFrame>
      </figure>
    </div>
  );
});

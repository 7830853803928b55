'use client';

import { memo, useCallback, useId, useMemo, useState, type ReactNode } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  formatTimeTick,
  formatWallDateTime,
  niceDurationTicks,
  niceTimeTicks,
  niceValueTicks,
  timeStepFor,
  zoneLabel,
  type DisplayZone,
} from '@/lib/charts/axis';
import {
  explainEmptyRange,
  partitionKey,
  rankPartitions,
  samplerGaps,
  storedFromReason,
  type Gap,
} from '@/lib/charts/series-view';
import { panWindow, zoomInWindow, zoomOutWindow } from '@/lib/charts/zoom-steps';
import type { TLagRange, TLagSeries } from '@/lib/schemas/groups';
import { formatCount, formatDuration, formatDurationCompact, formatRateRounded } from '@/lib/format';
import { useTimeZone } from './display-preferences';

/** Colours by the partition's place in the series (its number order), so a partition keeps its colour. */
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
const TOP_CHOICES = [5, 8, 12, 20] as const;
const DEFAULT_TOP = 8;
const X_TICKS = 6;
const axisTick = { fill: 'var(--muted)', fontSize: 11 };

type Series = TLagSeries['partitions'][number];

interface Model {
  timesMs: number[];
  rows: Array<Record<string, number | null>>;
  ranked: Series[];
  colourOf: Map<string, string>;
  gaps: Gap[];
  hasData: boolean;
  firstDataMs: number | null;
}

function buildModel(series: TLagSeries): Model {
  const timesMs = series.times.map((t) => Date.parse(t));
  const rows = timesMs.map((t, i) => {
    const row: Record<string, number | null> = { t };
    for (const p of series.partitions) {
      const key = partitionKey(p);
      row[`lag:${key}`] = p.lag[i] ?? null;
      row[`time:${key}`] = p.timeLagMs[i] ?? null;
    }
    row.arrival = series.totals.arrivalRatePerSec[i] ?? null;
    row.consumption = series.totals.consumptionRatePerSec[i] ?? null;
    return row;
  });
  const hasSample = timesMs.map((_, i) => series.partitions.some((p) => p.lag[i] !== null && p.lag[i] !== undefined));
  const first = hasSample.indexOf(true);
  return {
    timesMs,
    rows,
    ranked: rankPartitions(series.partitions),
    colourOf: new Map(series.partitions.map((p, i) => [partitionKey(p), PALETTE[i % PALETTE.length]!])),
    gaps: samplerGaps(timesMs, hasSample),
    hasData: first >= 0,
    firstDataMs: first >= 0 ? timesMs[first]! : null,
  };
}

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
  const firstSampledMs = Date.parse(series.firstSampledAt);
  const startsLate = model.firstDataMs !== null && model.firstDataMs - fromMs > 2 * series.stepMs;
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
        <span className="zoom-steps" role="group" aria-label="Zoom the charts">
          <button
            type="button"
            className="button button-small"
            data-testid="zoom-in"
            onClick={() => setZoom([...zoomInWindow(domain, [fromMs, toMs], series.stepMs)])}
          >
            Zoom in
          </button>
          {zoom ? (
            <>
              <button
                type="button"
                className="button button-small"
                data-testid="zoom-out"
                onClick={() => {
                  const out = zoomOutWindow(zoom, [fromMs, toMs]);
                  setZoom(out ? [...out] : null);
                }}
              >
                Zoom out
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="zoom-earlier"
                aria-label="Show earlier"
                onClick={() => setZoom([...panWindow(zoom, [fromMs, toMs], -1)])}
              >
                ← Earlier
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="zoom-later"
                aria-label="Show later"
                onClick={() => setZoom([...panWindow(zoom, [fromMs, toMs], 1)])}
              >
                Later →
              </button>
            </>
          ) : null}
        </span>
        {zoom ? (
          <button type="button" className="button button-small" onClick={() => setZoom(null)} data-testid="zoom-reset">
            Reset zoom ({formatWallDateTime(zoom[0], zone)} – {formatWallDateTime(zoom[1], zone).slice(11)})
          </button>
        ) : null}
      </div>
      <Legend
        items={drawn.map((p) => ({
          key: partitionKey(p),
          label: partitionKey(p),
          colour: model.colourOf.get(partitionKey(p))!,
        }))}
        hidden={hidden}
        onToggle={toggle}
        label="Partitions drawn (click to hide or show)"
      />
      {startsLate && firstSampledMs > fromMs ? (
        <p className="muted small" data-testid="chart-coverage">
          Nothing stored before {formatWallDateTime(firstSampledMs, zone)} {zoneName}:{' '}
          {storedFromReason(firstSampledMs, toMs, series.rawRetentionDays) === 'past-retention'
            ? `older samples are past the ${series.rawRetentionDays}-day retention (SAMPLER_RETENTION_DAYS).`
            : 'the group was first sampled then.'}
        </p>
      ) : null}
      {model.gaps.length > 0 ? (
        <p className="muted small" data-testid="chart-gaps">
          Sampler gap{model.gaps.length === 1 ? '' : 's'} (shaded, no samples):{' '}
          {model.gaps
            .slice(0, 3)
            .map((g) => `${formatWallDateTime(g.fromMs, zone)} – ${formatWallDateTime(g.toMs, zone).slice(11)}`)
            .join(', ')}
          {model.gaps.length > 3 ? ` and ${model.gaps.length - 3} more` : ''}
        </p>
      ) : null}
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
        <Legend
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

/** Linear segments (what was sampled, nothing smoothed), no dots, no animation, gaps left open. */
function lineOf(dataKey: string, name: string, colour: string, hide: boolean) {
  return (
    <Line
      key={dataKey}
      type="linear"
      dataKey={dataKey}
      name={name}
      stroke={colour}
      dot={false}
      activeDot={false}
      strokeWidth={1.5}
      isAnimationActive={false}
      connectNulls={false}
      hide={hide}
    />
  );
}

interface FrameProps {
  rows: Array<Record<string, number | null>>;
  domain: [number, number];
  xTicks: number[];
  xStep: number;
  zone: DisplayZone;
  gaps: Gap[];
  onZoom: (domain: [number, number]) => void;
}

/**
 * One chart: round ticks given (recharts never measures labels to thin them), the sampler's gaps shaded,
 * and drag-to-zoom: a press, a drag and a release select a time span that every chart then shows.
 */
function ChartFrame({
  rows,
  domain,
  xTicks,
  xStep,
  zone,
  gaps,
  onZoom,
  height,
  label,
  yTicks,
  yFormat,
  valueFormat,
  children,
}: FrameProps & {
  height: number;
  label: string;
  yTicks: number[];
  yFormat: (v: number) => string;
  valueFormat: (v: number) => string;
  children: ReactNode;
}) {
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const at = (state: unknown): number | null => {
    const value = (state as { activeLabel?: unknown } | null)?.activeLabel;
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    return Number.isFinite(n) ? n : null;
  };
  return (
    <div role="img" aria-label={label} className="chart-frame">
      <ResponsiveContainer width="100%" height={height}>
        <LineChart
          data={rows}
          margin={{ top: 8, right: 16, bottom: 0, left: 8 }}
          onMouseDown={(state) => {
            const t = at(state);
            if (t !== null) setDrag({ from: t, to: t });
          }}
          onMouseMove={(state) => {
            const t = at(state);
            if (drag && t !== null) setDrag({ from: drag.from, to: t });
          }}
          onMouseUp={() => {
            if (drag && drag.from !== drag.to) onZoom([Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)]);
            setDrag(null);
          }}
          onMouseLeave={() => setDrag(null)}
        >
          <CartesianGrid stroke="var(--line-soft)" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={domain}
            allowDataOverflow
            ticks={xTicks}
            interval={0}
            tickFormatter={(v: number) => formatTimeTick(v, xStep, zone)}
            tick={axisTick}
            stroke="var(--line)"
          />
          <YAxis
            ticks={yTicks}
            domain={[0, yTicks[yTicks.length - 1]!]}
            interval={0}
            tickFormatter={yFormat}
            tick={axisTick}
            stroke="var(--line)"
            width={56}
          />
          <Tooltip
            isAnimationActive={false}
            contentStyle={{ background: 'var(--panel)', border: '1px solid var(--line)', fontSize: 12 }}
            labelFormatter={(v: unknown) => `${formatWallDateTime(Number(v), zone)} ${zoneLabel(zone, Number(v))}`}
            formatter={(v: unknown) => (typeof v === 'number' ? valueFormat(v) : '—')}
          />
          {gaps.map((g) => (
            <ReferenceArea
              key={g.fromMs}
              x1={g.fromMs}
              x2={g.toMs}
              fill="var(--muted)"
              fillOpacity={0.12}
              ifOverflow="hidden"
            />
          ))}
          {drag && drag.from !== drag.to ? (
            <ReferenceArea x1={drag.from} x2={drag.to} fill="var(--accent)" fillOpacity={0.2} />
          ) : null}
          {children}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Series as toggle buttons: the state is in aria-pressed, and a hidden one is struck through. */
function Legend({
  items,
  hidden,
  onToggle,
  label,
}: {
  items: Array<{ key: string; label: string; colour: string }>;
  hidden: ReadonlySet<string>;
  onToggle: (key: string) => void;
  label: string;
}) {
  return (
    <div className="chart-legend" role="group" aria-label={label}>
      {items.map((item) => (
        <button
          key={item.key}
          type="button"
          className="legend-item"
          aria-pressed={!hidden.has(item.key)}
          onClick={() => onToggle(item.key)}
          data-testid="legend-item"
        >
          <span className="legend-swatch" style={{ background: item.colour }} aria-hidden="true" />
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** Top N by time lag now (the default), or partitions chosen one by one. */
function PartitionPicker({
  ranked,
  top,
  onTop,
  picked,
  onPicked,
  drawnCount,
}: {
  ranked: Series[];
  top: number;
  onTop: (n: number) => void;
  picked: ReadonlySet<string> | null;
  onPicked: (picked: ReadonlySet<string> | null) => void;
  drawnCount: number;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const chosen = picked ?? new Set(ranked.slice(0, top).map(partitionKey));
  return (
    <div className="partition-picker">
      <label htmlFor={`${id}-top`} className="small">
        Draw
      </label>
      <select
        id={`${id}-top`}
        className="button button-small"
        value={picked ? 'picked' : String(top)}
        onChange={(e) => (e.target.value === 'picked' ? onPicked(chosen) : onTop(Number(e.target.value)))}
        data-testid="partition-top"
      >
        {TOP_CHOICES.map((n) => (
          <option key={n} value={n}>
            top {n} by time lag
          </option>
        ))}
        <option value="picked">chosen partitions</option>
      </select>
      <span className="muted small">
        {drawnCount} of {ranked.length} partitions
      </span>
      <details className="picker-list" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
        <summary className="small">Choose…</summary>
        {open ? (
          <fieldset>
            <legend className="visually-hidden">Partitions to draw</legend>
            {ranked.map((p) => {
              const key = partitionKey(p);
              return (
                <label key={key} className="small mono">
                  <input
                    type="checkbox"
                    checked={chosen.has(key)}
                    onChange={() => {
                      const next = new Set(chosen);
                      if (!next.delete(key)) next.add(key);
                      onPicked(next);
                    }}
                  />
                  {key}
                </label>
              );
            })}
          </fieldset>
        ) : null}
      </details>
    </div>
  );
}

/** A range with nothing to draw, and why: no samples yet, a rollup not yet written, or a sampler gap. */
function EmptyRange({
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

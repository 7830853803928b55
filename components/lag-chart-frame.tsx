import { useState, type ReactNode } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatTimeTick, formatWallDateTime, zoneLabel, type DisplayZone } from '@/lib/charts/axis';
import type { Gap } from '@/lib/charts/series-view';

const axisTick = { fill: 'var(--muted)', fontSize: 11 };

/** Linear segments (what was sampled, nothing smoothed), no dots, no animation, gaps left open. */
export function lineOf(dataKey: string, name: string, colour: string, hide: boolean) {
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
export interface FrameProps {
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
export function ChartFrame({
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

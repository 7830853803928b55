import { formatCount } from '@/lib/format';
import './sparkline.css';
/**
 * A tiny trend line (SVG, no chart library: one per overview row). Gaps (null) break the line rather than
 * being drawn as zero; the accessible name states the first, last and peak values.
 */
export function Sparkline({
  values,
  width = 120,
  height = 28,
  label,
}: {
  values: Array<number | null>;
  width?: number;
  height?: number;
  label: string;
}) {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) {
    return (
      <span className="muted sparkline-empty" role="img" aria-label={`${label}: no data`}>
        no data
      </span>
    );
  }
  const max = Math.max(...known, 1);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const y = (v: number) => height - 2 - (v / max) * (height - 4);
  const segments: string[] = [];
  let current: string[] = [];
  values.forEach((v, i) => {
    if (v === null) {
      if (current.length) segments.push(current.join(' '));
      current = [];
    } else current.push(`${(i * step).toFixed(1)},${y(v).toFixed(1)}`);
  });
  if (current.length) segments.push(current.join(' '));
  const first = known[0]!;
  const last = known[known.length - 1]!;
  const rising = last > first;
  return (
    <span className="sparkline-scaled">
      <svg
        className={`sparkline ${rising ? 'sparkline-up' : ''}`}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${label}: from ${formatCount(first)} to ${formatCount(last)}, peak ${formatCount(Math.max(...known))}`}
      >
        {segments.map((points, i) =>
          points.includes(' ') ? (
            <polyline key={i} points={points} fill="none" strokeWidth="1.5" />
          ) : (
            <circle key={i} cx={points.split(',')[0]} cy={points.split(',')[1]} r="1.5" />
          ),
        )}
      </svg>
      {/* The scale: the line's top is this value, its bottom zero (the accessible name says the same). */}
      <span className="spark-scale" aria-hidden="true" data-testid="sparkline-scale">
        <span>{formatCount(max)}</span>
        <span>0</span>
      </span>
    </span>
  );
}

// Least-squares slopes of series sampled over time (memory, table sizes), per minute. Pure.

export interface TimedValue {
  atMs: number;
  value: number;
}

/**
 * The least-squares slope of `points` in value units per minute; null below two points or when every point
 * has the same time (no line fits).
 */
export function slopePerMinute(points: readonly TimedValue[]): number | null {
  if (points.length < 2) return null;
  const xs = points.map((p) => p.atMs / 60_000);
  const ys = points.map((p) => p.value);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxx = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  if (sxx === 0) return null;
  const sxy = xs.reduce((sum, x, i) => sum + (x - meanX) * (ys[i]! - meanY), 0);
  return sxy / sxx;
}

/** Bytes per minute as MiB per minute, rounded to 0.01; null stays null. */
export function bytesSlopeMiBPerMinute(points: readonly TimedValue[]): number | null {
  const slope = slopePerMinute(points);
  return slope === null ? null : Math.round((slope / 1_048_576) * 100) / 100;
}

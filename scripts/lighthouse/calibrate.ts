// The CPU slowdown of a Lighthouse run, fixed or calibrated for the host (npm run lighthouse -- --calibrate).

/** The mobile profile's CPU slowdown, for a host of Lighthouse's reference speed. */
export const MOBILE_CPU_SLOWDOWN = 4;

/**
 * The CPU slowdown that makes a host of `benchmarkIndex` stand for Lighthouse's reference phone: from 1,300 up,
 * the line of Lighthouse's own CPU throttling calculator (1,300 is 3x, 1,533 is 4x, 2,000 is 6x, one more per
 * 233; docs/decisions/0037-measuring-page-speed.md); below it, in proportion to the index from that 4x at 1,533, and never under 1x.
 */
export function calibratedSlowdown(benchmarkIndex: number): number {
  const slowdown =
    benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233 : (MOBILE_CPU_SLOWDOWN * benchmarkIndex) / 1533;
  return Math.round(Math.max(1, slowdown) * 10) / 10;
}

import type { RoundResult } from '../../../worker/sampler/lag-sampler';
import { percentileOfSorted } from '../stats';

/** A percentile of sorted values, to 0.1 ms; NaN for none. */
export function percentileMs(sorted: Float64Array, q: number): number {
  return Math.round((percentileOfSorted(sorted, q) ?? Number.NaN) * 10) / 10;
}

/** Sorted values of `pick` over the rounds. */
export function sortedBy(rounds: readonly RoundResult[], pick: (r: RoundResult) => number): Float64Array {
  return Float64Array.from(rounds.map(pick)).sort();
}

/** The round and phase percentiles (10) and (10s) report; `roundMs` is what counts as the round's time. */
export function roundTimings(rounds: readonly RoundResult[], roundMs: (r: RoundResult) => number) {
  const durations = sortedBy(rounds, roundMs);
  return {
    durations,
    details: {
      measuredRounds: rounds.length,
      roundP50Ms: percentileMs(durations, 50),
      roundP95Ms: percentileMs(durations, 95),
      roundMaxMs: percentileMs(durations, 100),
      clusterReadP50Ms: percentileMs(
        sortedBy(rounds, (r) => r.clusterReadMs),
        50,
      ),
      clusterReadP95Ms: percentileMs(
        sortedBy(rounds, (r) => r.clusterReadMs),
        95,
      ),
      computeP50Ms: percentileMs(
        sortedBy(rounds, (r) => r.computeMs),
        50,
      ),
      writeP50Ms: percentileMs(
        sortedBy(rounds, (r) => r.writeMs),
        50,
      ),
      writeP95Ms: percentileMs(
        sortedBy(rounds, (r) => r.writeMs),
        95,
      ),
    },
  };
}

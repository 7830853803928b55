// The capacity card's track record: each plan shown ("scale to N, catch up in T") against what the samples
// showed afterwards. Pure: the caller loads the prediction and the group's rounds since it was made.

export interface RecordedPrediction {
  predictedAtMs: number;
  consumersThen: number;
  predictedConsumers: number;
  /** null: the plan said it never catches up. */
  predictedCatchUpSec: number | null;
  backlog: number;
  thresholdLag: number;
}

export interface RoundLag {
  atMs: number;
  consumers: number;
  /** Total lag of the group's partitions; null when unknown (a partition never committed). */
  totalLag: number | null;
}

export type PredictionOutcome =
  | { status: 'caught-up'; actualCatchUpSec: number; planFollowed: boolean; caughtUpAtMs: number }
  /** The lag is still over the threshold and the plan was followed, or its time is not up yet. */
  | { status: 'not-yet'; elapsedSec: number; planFollowed: boolean }
  /** Its time is up, the lag is over the threshold and the group never ran the predicted count. */
  | { status: 'plan-not-followed'; elapsedSec: number };

/**
 * Lag at or under which a plan counts as fulfilled: the group is caught up when what waits is no more than
 * one record per partition, 2% of the backlog the plan started from, or ten seconds of arrivals, whichever is
 * largest. The lag of a busy group never reaches 0 between samples, and a plan measured to the last record
 * would be judged on sampling jitter. It is never more than half that backlog: a plan made while little more
 * than ten seconds of arrivals waited would otherwise count as fulfilled at the first dip of that jitter, a
 * second later, whatever the group did.
 */
export function caughtUpThreshold(input: { partitions: number; backlog: number; arrivalRatePerSec: number }): number {
  const jitter = Math.max(input.partitions, 0.02 * input.backlog, 10 * input.arrivalRatePerSec);
  return Math.ceil(Math.min(jitter, input.backlog / 2));
}

/**
 * The outcome of `prediction` from `rounds` (oldest first; rounds at or before the prediction are ignored).
 * Caught up: the first round whose total lag is at or under the threshold; the plan counts as followed when
 * some round up to then ran at least the predicted count (always when it asked for no more than ran then).
 */
export function resolvePrediction(
  prediction: RecordedPrediction,
  rounds: readonly RoundLag[],
  nowMs: number,
): PredictionOutcome {
  let followed = prediction.predictedConsumers <= prediction.consumersThen;
  for (const round of rounds) {
    if (round.atMs <= prediction.predictedAtMs) continue;
    if (round.consumers >= prediction.predictedConsumers) followed = true;
    if (round.totalLag !== null && round.totalLag <= prediction.thresholdLag) {
      return {
        status: 'caught-up',
        actualCatchUpSec: (round.atMs - prediction.predictedAtMs) / 1000,
        planFollowed: followed,
        caughtUpAtMs: round.atMs,
      };
    }
  }
  const elapsedSec = Math.max(0, (nowMs - prediction.predictedAtMs) / 1000);
  const timeUp = prediction.predictedCatchUpSec === null || elapsedSec > prediction.predictedCatchUpSec;
  if (!followed && timeUp) return { status: 'plan-not-followed', elapsedSec };
  return { status: 'not-yet', elapsedSec, planFollowed: followed };
}

/** Relative error of a fulfilled prediction, (actual - predicted) / predicted; null when either is unknown or 0. */
export function predictionError(predictedSec: number | null, actualSec: number | null): number | null {
  if (predictedSec === null || actualSec === null || predictedSec === 0) return null;
  return (actualSec - predictedSec) / predictedSec;
}

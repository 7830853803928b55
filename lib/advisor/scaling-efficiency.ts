// Live scaling efficiency: what a change in a group's consumer count really did to its throughput.
//
// From the group's sampler rounds (consumer count = distinct members owning its partitions, throughput =
// committed-offset growth), each change of the consumer count is compared with linear scaling: "2 -> 4
// consumers gave 1.3x, not 2x". Throughput only measures capacity while records were waiting, so each side
// of a change uses only the samples next to it during which the group never ran out of records (the same
// test as estimateRates: fewer records committed in an interval than were waiting at its start).
// Pure: the caller loads the rounds and passes the clock's now.

import { formatDuration, plural } from '../format';

export interface GroupRoundTotals {
  atMs: number;
  /** Members owning at least one partition in this round. */
  consumers: number;
  /** Sum of committed offsets over the group's partitions; null when any partition never committed. */
  committedTotal: number | null;
  logEndTotal: number;
}

export interface ConsumerCountChange {
  /** Time of the first round with the new count. */
  atMs: number;
  fromConsumers: number;
  toConsumers: number;
  beforePerSec: number;
  afterPerSec: number;
  /** afterPerSec / beforePerSec. */
  speedup: number;
  /** toConsumers / fromConsumers: the speedup linear scaling would give. */
  linearSpeedup: number;
  /**
   * (speedup - 1) / (linearSpeedup - 1): the share of a linear consumer's throughput each added (or removed)
   * consumer brought. 1 is linear, 0 means the count made no difference. Not clamped here.
   */
  efficiency: number;
  /** Rounds used on each side. */
  samplesBefore: number;
  samplesAfter: number;
}

export interface ScalingEfficiency {
  basis: 'measured' | 'assumed-linear';
  /** Mean efficiency of the measured changes, clamped to [0, 1]; 1 when assumed. */
  efficiency: number;
  /** Consumer-count changes measured. */
  sampleSize: number;
  /** Age of the newest measured change; null when assumed. */
  ageMs: number | null;
  /** Newest measured change; null when assumed. */
  latest: ConsumerCountChange | null;
  /** One sentence for the plan and the card. */
  statement: string;
}

/** Rounds needed on each side of a change: two give one interval, three show the rate held. */
export const MIN_ROUNDS_PER_SIDE = 3;

/**
 * Every consumer-count change in `rounds` (oldest first) whose both sides had records waiting over at least
 * `minRounds` rounds. Rounds with no consumer or an unknown committed total split runs and are never used;
 * a committed or log-end total that moves backwards (offsets reset, topic recreated) splits too.
 * Throws RangeError on rounds out of time order or non-finite numbers.
 */
export function findConsumerCountChanges(
  rounds: readonly GroupRoundTotals[],
  minRounds = MIN_ROUNDS_PER_SIDE,
): ConsumerCountChange[] {
  rounds.forEach((round, i) => {
    if (![round.atMs, round.consumers, round.logEndTotal].every(Number.isFinite))
      throw new RangeError(`round ${i} has a non-finite number: ${JSON.stringify(round)}`);
    if (round.committedTotal !== null && !Number.isFinite(round.committedTotal))
      throw new RangeError(`round ${i} has a non-finite committed total`);
    const previous = rounds[i - 1];
    if (previous !== undefined && round.atMs <= previous.atMs)
      throw new RangeError(`rounds must be oldest first; round ${i} at ${round.atMs} follows ${previous.atMs}`);
  });

  // Runs of consecutive usable rounds with one consumer count. A round without consumers (mid-rebalance) or
  // without a committed total ends a run; a total that moves backwards (offsets reset) ends it and marks the
  // next run `afterReset`: no change is measured across it.
  type Run = { rounds: Array<GroupRoundTotals & { committedTotal: number }>; afterReset: boolean };
  const runs: Run[] = [];
  let previous: (GroupRoundTotals & { committedTotal: number }) | null = null;
  let gap = false;
  for (const round of rounds) {
    if (round.consumers <= 0 || round.committedTotal === null) {
      gap = true;
      continue;
    }
    const usable = round as GroupRoundTotals & { committedTotal: number };
    const movedBack =
      previous !== null &&
      (usable.committedTotal < previous.committedTotal || usable.logEndTotal < previous.logEndTotal);
    const run = runs[runs.length - 1];
    if (previous !== null && !movedBack && !gap && previous.consumers === usable.consumers && run)
      run.rounds.push(usable);
    else runs.push({ rounds: [usable], afterReset: movedBack });
    previous = usable;
    gap = false;
  }

  // A change goes from one settled count to the next: runs shorter than minRounds in between are the
  // transition (members joining one by one, several rebalances in a row) and are skipped.
  const changes: ConsumerCountChange[] = [];
  let settled: Run | null = null;
  for (const run of runs) {
    if (run.afterReset) settled = null;
    if (run.rounds.length < minRounds) continue;
    const before = settled?.rounds;
    settled = run;
    if (before === undefined) continue;
    const from = before[0]!.consumers;
    const to = run.rounds[0]!.consumers;
    if (from === to) continue;
    const after = run;
    const beforeSide = saturatedSuffix(before);
    const afterSide = saturatedPrefix(after.rounds);
    if (beforeSide.length < minRounds || afterSide.length < minRounds) continue;
    const beforePerSec = ratePerSec(beforeSide);
    const afterPerSec = ratePerSec(afterSide);
    if (beforePerSec <= 0) continue;
    const speedup = afterPerSec / beforePerSec;
    const linearSpeedup = to / from;
    changes.push({
      atMs: after.rounds[0]!.atMs,
      fromConsumers: from,
      toConsumers: to,
      beforePerSec,
      afterPerSec,
      speedup,
      linearSpeedup,
      efficiency: (speedup - 1) / (linearSpeedup - 1),
      samplesBefore: beforeSide.length,
      samplesAfter: afterSide.length,
    });
  }
  return changes;
}

type Saturable = { committedTotal: number; logEndTotal: number; atMs: number };

/** Records were waiting throughout the interval from a to b. */
const hadBacklog = (a: Saturable, b: Saturable) =>
  b.committedTotal - a.committedTotal < a.logEndTotal - a.committedTotal;

/** The longest tail of `run` with records waiting throughout. */
function saturatedSuffix<T extends Saturable>(run: readonly T[]): T[] {
  let start = run.length - 1;
  while (start > 0 && hadBacklog(run[start - 1]!, run[start]!)) start -= 1;
  return run.slice(start);
}

/** The longest head of `run` with records waiting throughout. */
function saturatedPrefix<T extends Saturable>(run: readonly T[]): T[] {
  let end = 0;
  while (end < run.length - 1 && hadBacklog(run[end]!, run[end + 1]!)) end += 1;
  return run.slice(0, end + 1);
}

function ratePerSec(run: readonly Saturable[]): number {
  const first = run[0]!;
  const last = run[run.length - 1]!;
  return ((last.committedTotal - first.committedTotal) * 1000) / (last.atMs - first.atMs);
}

/**
 * What one consumer can be counted on for at the count running now, from the group's own drain since its
 * newest measured change to that count: the throughput after it, shared by the consumers. Null when the
 * newest measured change went to another count (the group changed since, unmeasured) or none was measured.
 *
 * Why the plan caps its rate with it: the per-consumer rate is measured over the rate window on the
 * partitions each member owns now. Right after a scale-out most of that window is the old consumer's work
 * on those same partitions, so with a shared limit (one consumer alone got all of it) the new members look
 * as fast as the old one was (the backtest's +31% and +51% runs: 54/s per consumer measured, 29/s delivered).
 * The group's throughput after the change is what it really did at this count.
 */
export function observedPerConsumerRate(scaling: ScalingEfficiency, consumers: number): number | null {
  const latest = scaling.latest;
  if (latest === null || consumers <= 0 || latest.toConsumers !== consumers) return null;
  return latest.afterPerSec / consumers;
}

const times = (x: number) => `${Number(x.toFixed(x < 10 ? 2 : 1))}x`;

/**
 * The group's scaling efficiency from its measured changes: their mean efficiency clamped to [0, 1] (a plan
 * never promises better than linear, and measurement noise can make a speedup look super-linear), or linear
 * scaling, stated as an assumption, when none was measured.
 */
export function summarizeScaling(changes: readonly ConsumerCountChange[], nowMs: number): ScalingEfficiency {
  const latest = changes[changes.length - 1];
  if (latest === undefined) {
    return {
      basis: 'assumed-linear',
      efficiency: 1,
      sampleSize: 0,
      ageMs: null,
      latest: null,
      statement:
        'The plan assumes linear scaling: no change of the consumer count with records waiting has been measured for this group yet.',
    };
  }
  const mean = changes.reduce((sum, c) => sum + c.efficiency, 0) / changes.length;
  const efficiency = Math.min(1, Math.max(0, mean));
  const ageMs = Math.max(0, nowMs - latest.atMs);
  // "Not" only where it fell short: a near-linear change reads as a confirmation, not a correction.
  const gave =
    latest.speedup < 0.9 * latest.linearSpeedup
      ? `${latest.fromConsumers} → ${latest.toConsumers} consumers gave ${times(latest.speedup)}, not ${times(latest.linearSpeedup)}`
      : `${latest.fromConsumers} → ${latest.toConsumers} consumers gave ${times(latest.speedup)}, close to linear (${times(latest.linearSpeedup)})`;
  const limit = efficiency < 0.5 ? ': something shared (a downstream, a rate limit) is the limit' : '';
  return {
    basis: 'measured',
    efficiency,
    sampleSize: changes.length,
    ageMs,
    latest,
    statement:
      `Scaling measured: ${gave}${limit}. The plan counts each added consumer at ${Math.round(efficiency * 100)}% of a linear one ` +
      `(mean of ${plural(changes.length, 'measured change')}, the latest ${formatDuration(ageMs / 1000)} ago).`,
  };
}

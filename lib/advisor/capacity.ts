// "Scale consumers to N, catch up in T": a per-consumer capacity plan from measured rates.
//
// Model: a partition is consumed by exactly one consumer, so load is per consumer, not per group. A consumer
// carrying partitions with total arrival rate a and total backlog b, processing `rate` records/s while it
// has work, catches up in b / (rate - a) s when a < rate (0 when b = 0); when a = rate only if b = 0 (then 0);
// never when a > rate. The group catches up when its slowest consumer does. Comparing group totals is wrong:
// a consumer with two partitions carries twice the load.
// With a measured scaling efficiency e < 1, a consumer's rate at N consumers is scaledRate(...): the group
// gains e of one consumer's rate per consumer added to the current count (and loses as much per one removed).
// A count other than the current one costs a rebalance first (rebalancePauseSec): nothing is processed during
// it while records keep arriving, so T(N) = pause + the drain of the backlog grown by the pause's arrivals.
// Partitions whose unread records the topic's retention can delete get deadlines (retention-plan.ts): when the
// count recommended for the target would read some of them too late, the plan recommends the smallest count
// that reads them all in time instead, and says so.

import { formatDuration, formatPartitionList, formatRate, plural } from '../format';
import { planBeforeDeletion, type DrainByDeadline, type RetentionDeadline, type RetentionPlan } from './retention-plan';

export { estimateRates, type OffsetSample, type RateEstimate } from './rates';

export interface PartitionLoad {
  partition: number;
  arrivalRatePerSec: number;
  backlog: number;
}

export interface CapacityInput {
  partitions: readonly PartitionLoad[];
  /** Members currently consuming. */
  consumers: number;
  /** Measured processing rate of one consumer when it has work. */
  perConsumerRatePerSec: number;
  targetCatchUpSec: number;
  /**
   * True when the rate was measured while consumers had no backlog (see estimateRates): it is only a lower
   * bound, and the plan says so. Default false.
   */
  perConsumerRateIsLowerBound?: boolean;
  /**
   * Measured scaling (lib/advisor/scaling-efficiency.ts): each consumer added to (or removed from) the current
   * count changes the group's throughput by `efficiency` (0..1) of one consumer's rate, and `statement` says
   * so in the summary. Absent: linear scaling (efficiency 1), and the summary says nothing about it.
   */
  scaling?: { efficiency: number; statement: string };
  /**
   * The pause a change of the consumer count costs (lib/advisor/rebalance-pause.ts), added to T for every count
   * other than `consumers` while the group has a backlog; `statement` says where it came from. Absent: none.
   */
  rebalancePause?: { sec: number; statement: string };
  /**
   * At-risk partitions (by their number here) and the earliest their unread records can be deleted if nothing
   * more is read (retention-plan.ts). Absent or empty: no partition is at risk.
   */
  deadlines?: readonly RetentionDeadline[];
}

export interface CapacityPlan {
  /**
   * The smallest count within the target; when none is, the knee (noGainBeyond), else the partition count.
   * Never more than the partition count (0 only when there are no partitions).
   */
  recommendedConsumers: number;
  /** With recommendedConsumers; null means it never catches up. */
  catchUpSec: number | null;
  /** What-if curve for 1..partition count consumers. */
  catchUpSecByConsumers: Array<{ consumers: number; catchUpSec: number | null }>;
  /** Consumers beyond the partition count, at the current count. */
  idleConsumers: number;
  /** Even one consumer per partition misses the target. */
  limitedByPartitions: boolean;
  /** Partitions whose own arrival rate is at or above one consumer's rate, ascending. */
  hotPartitions: number[];
  /** Echo of perConsumerRateIsLowerBound. */
  rateIsLowerBound: boolean;
  /**
   * The knee of the curve: the smallest count N that catches up and that no larger count beats by 10% or more
   * (every M > N has T(M) > 0.9 x T(N), or never catches up), when that is below the partition count: a
   * partition holding most of the backlog, or a measured scaling limit. Null when every consumer up to the
   * partition count helps, or nothing catches up.
   */
  noGainBeyond: number | null;
  /**
   * The count against the retention deadlines (retention-plan.ts); null without deadlines. With state
   * 'finish-first', recommendedConsumers and catchUpSec are its count and catch-up, not the target's.
   */
  retention: RetentionPlan | null;
  /** The count the target alone recommends (differs from recommendedConsumers only with 'finish-first'). */
  targetConsumers: number;
  summary: string;
}

export interface ConsumerLoad {
  /** Assigned partitions in assignment order. */
  partitions: number[];
  arrivalRatePerSec: number;
  backlog: number;
}

/**
 * Relative tolerance for "a = rate": sums of measured float rates (0.1 + 0.2) must not turn "exactly keeps
 * up" into "falls behind".
 */
const RATE_EPSILON = 1e-9;

function compareRate(a: number, rate: number): -1 | 0 | 1 {
  if (Math.abs(a - rate) <= RATE_EPSILON * Math.max(1, Math.abs(rate))) return 0;
  return a < rate ? -1 : 1;
}

/**
 * Greedy assignment: partitions by arrival rate descending (ties: lower partition number), each onto the
 * consumer with the least arrival rate so far (ties: fewer partitions, then lower consumer index).
 * Decision: the "fewer partitions" tie-break is ours; without it partitions with no arrivals (producer
 * stopped, backlog only) would all pile onto consumer 0 and adding consumers would never help.
 */
export function assignPartitions(partitions: readonly PartitionLoad[], consumers: number): ConsumerLoad[] {
  const loads: ConsumerLoad[] = Array.from({ length: consumers }, () => ({
    partitions: [],
    arrivalRatePerSec: 0,
    backlog: 0,
  }));
  if (consumers === 0) return loads;
  const ordered = [...partitions].sort(
    (x, y) => y.arrivalRatePerSec - x.arrivalRatePerSec || x.partition - y.partition,
  );
  // Min-heap of consumer indexes under (arrival, partition count, index): the what-if curve runs this for
  // every N up to the partition count, so a linear scan per partition would be cubic in partitions.
  const before = (a: number, b: number): boolean => {
    const x = loads[a] as ConsumerLoad;
    const y = loads[b] as ConsumerLoad;
    if (x.arrivalRatePerSec !== y.arrivalRatePerSec) return x.arrivalRatePerSec < y.arrivalRatePerSec;
    if (x.partitions.length !== y.partitions.length) return x.partitions.length < y.partitions.length;
    return a < b;
  };
  const heap = loads.map((_, index) => index); // all-zero loads: index order is already a valid heap
  for (const partition of ordered) {
    const index = heap[0] as number;
    const load = loads[index] as ConsumerLoad;
    load.partitions.push(partition.partition);
    load.arrivalRatePerSec += partition.arrivalRatePerSec;
    load.backlog += partition.backlog;
    siftDown(heap, before);
  }
  return loads;
}

/** Restores the heap after its root grew. */
function siftDown(heap: number[], before: (a: number, b: number) => boolean): void {
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let smallest = i;
    if (left < heap.length && before(heap[left] as number, heap[smallest] as number)) smallest = left;
    if (right < heap.length && before(heap[right] as number, heap[smallest] as number)) smallest = right;
    if (smallest === i) return;
    [heap[i], heap[smallest]] = [heap[smallest] as number, heap[i] as number];
    i = smallest;
  }
}

/** A partition one consumer cannot get ahead of: its own arrival rate is at or above one consumer's rate. */
export function isHotPartition(arrivalRatePerSec: number, perConsumerRatePerSec: number): boolean {
  return compareRate(arrivalRatePerSec, perConsumerRatePerSec) >= 0;
}

/** Catch-up time of one consumer (see the model above); null means never. */
export function consumerCatchUpSec(arrivalRatePerSec: number, backlog: number, ratePerSec: number): number | null {
  const comparison = compareRate(arrivalRatePerSec, ratePerSec);
  if (comparison > 0) return null;
  if (backlog === 0) return 0;
  if (comparison === 0) return null;
  return backlog / (ratePerSec - arrivalRatePerSec);
}

/**
 * The group's catch-up time with `consumers` consumers: its slowest consumer's; null if any never does. With a
 * rebalance pause first, each consumer's backlog grows by its arrivals during the pause and the pause is added
 * (nothing to catch up stays 0).
 */
export function groupCatchUpSec(
  partitions: readonly PartitionLoad[],
  consumers: number,
  ratePerSec: number,
  pauseSec = 0,
): number | null {
  let worst = 0;
  for (const load of assignPartitions(partitions, consumers)) {
    const sec = consumerCatchUpSec(
      load.arrivalRatePerSec,
      load.backlog + load.arrivalRatePerSec * pauseSec,
      ratePerSec,
    );
    if (sec === null) return null;
    worst = Math.max(worst, sec);
  }
  return worst === 0 ? 0 : worst + pauseSec;
}

/**
 * Each at-risk partition's drain with `consumers` consumers (retention-plan.ts states the model): its
 * consumer's catch-up, the pause and its arrivals included, against the partition's deadline.
 */
export function drainsByDeadline(
  partitions: readonly PartitionLoad[],
  deadlines: readonly RetentionDeadline[],
  consumers: number,
  ratePerSec: number,
  pauseSec: number,
): DrainByDeadline[] {
  const deadlineOf = new Map(deadlines.map((d) => [d.partition, d.deadlineSec]));
  const drains: DrainByDeadline[] = [];
  for (const load of assignPartitions(partitions, consumers)) {
    const atRisk = load.partitions.filter((p) => deadlineOf.has(p));
    if (atRisk.length === 0) continue;
    const drain = consumerCatchUpSec(
      load.arrivalRatePerSec,
      load.backlog + load.arrivalRatePerSec * pauseSec,
      ratePerSec,
    );
    const catchUpSec = drain === null ? null : drain === 0 ? 0 : drain + pauseSec;
    for (const partition of atRisk)
      drains.push({ partition, catchUpSec, inTime: catchUpSec !== null && catchUpSec <= deadlineOf.get(partition)! });
  }
  return drains.sort((a, b) => a.partition - b.partition);
}

/**
 * Plans the consumer count. `recommendedConsumers` is the smallest N in 1..partitions whose catch-up time is
 * within the target (<=); when none is, it is the partition count and `limitedByPartitions` is true. With
 * deadlines, a count that would read an at-risk partition too late gives way to the smallest that does not
 * (retention-plan.ts planBeforeDeletion).
 * Throws RangeError on invalid input (duplicate or negative partition numbers, negative or non-finite rates,
 * backlogs or target, a non-integer consumer count, or a per-consumer rate <= 0: with no measured rate there
 * is nothing to plan, and the caller must say "rate unknown" instead).
 */
export function planCapacity(input: CapacityInput): CapacityPlan {
  validate(input);
  const { partitions, consumers, perConsumerRatePerSec: rate, targetCatchUpSec } = input;
  const rateIsLowerBound = input.perConsumerRateIsLowerBound ?? false;
  const partitionCount = partitions.length;

  const efficiency = input.scaling?.efficiency ?? 1;
  // A group with nothing waiting has nothing to catch up: a rebalance there is a blip, not part of a T.
  const pauseSec = partitions.some((p) => p.backlog > 0) ? (input.rebalancePause?.sec ?? 0) : 0;
  const catchUpSecByConsumers = Array.from({ length: partitionCount }, (_, i) => ({
    consumers: i + 1,
    catchUpSec: groupCatchUpSec(
      partitions,
      i + 1,
      scaledRate(rate, consumers, i + 1, efficiency),
      i + 1 === consumers ? 0 : pauseSec,
    ),
  }));
  const withinTarget = catchUpSecByConsumers.find(
    (point) => point.catchUpSec !== null && point.catchUpSec <= targetCatchUpSec,
  );
  const limitedByPartitions = partitionCount > 0 && withinTarget === undefined;
  const noGainBeyond = findNoGainBeyond(catchUpSecByConsumers);
  // No count meets the target: consumers past the knee would cost a rebalance and buy less than 10%.
  const recommended = withinTarget ??
    (noGainBeyond === null ? undefined : catchUpSecByConsumers[noGainBeyond - 1]) ??
    catchUpSecByConsumers[partitionCount - 1] ?? { consumers: 0, catchUpSec: 0 };
  const hotPartitions = partitions
    .filter((p) => isHotPartition(p.arrivalRatePerSec, rate))
    .map((p) => p.partition)
    .sort((a, b) => a - b);
  const idleConsumers = Math.max(0, consumers - partitionCount);
  const currentCatchUpSec =
    consumers === 0 ? null : catchUpSecByConsumers[Math.min(consumers, partitionCount) - 1]?.catchUpSec;
  const retention = planBeforeDeletion({
    deadlines: input.deadlines ?? [],
    recommended: recommended.consumers,
    targetCatchUpSec,
    curve: catchUpSecByConsumers,
    drainsAt: (n) =>
      drainsByDeadline(
        partitions,
        input.deadlines ?? [],
        n,
        scaledRate(rate, consumers, n, efficiency),
        n === consumers ? 0 : pauseSec,
      ),
  });
  const chosen =
    retention?.state === 'finish-first'
      ? { consumers: retention.consumers, catchUpSec: retention.catchUpSec }
      : recommended;

  const plan = {
    recommendedConsumers: chosen.consumers,
    catchUpSec: chosen.catchUpSec,
    catchUpSecByConsumers,
    idleConsumers,
    limitedByPartitions,
    hotPartitions,
    rateIsLowerBound,
    noGainBeyond,
    retention,
    targetConsumers: recommended.consumers,
  };
  return { ...plan, summary: summarize({ ...plan, input, currentCatchUpSec }) };
}

/**
 * One consumer's rate when the group runs `consumers` instead of `current`: the group's throughput is
 * rate x (current + (consumers - current) x efficiency), shared evenly. Linear (the measured rate) when
 * efficiency is 1 or nothing runs now.
 */
export function scaledRate(rate: number, current: number, consumers: number, efficiency: number): number {
  if (efficiency >= 1 || current === 0) return rate;
  return (rate * (current + (consumers - current) * efficiency)) / consumers;
}

/** Relative shortening of the catch-up below which more consumers count as no gain. */
const NO_GAIN_TOLERANCE = 0.1;

/**
 * The knee (see CapacityPlan.noGainBeyond). Compared with every larger count, not only the next one: many
 * small steps can add up to a real gain, and a measured scaling limit makes the curve non-monotone.
 */
export function findNoGainBeyond(
  curve: ReadonlyArray<{ consumers: number; catchUpSec: number | null }>,
): number | null {
  // Nothing to shorten when a count already keeps up with no backlog left (T = 0).
  if (curve.some((point) => point.catchUpSec === 0)) return null;
  // The shortest catch-up of any larger count, from the right (never = Infinity): linear in the partitions.
  const shortestAfter: number[] = new Array<number>(curve.length).fill(Infinity);
  for (let i = curve.length - 2; i >= 0; i -= 1)
    shortestAfter[i] = Math.min(shortestAfter[i + 1] as number, curve[i + 1]?.catchUpSec ?? Infinity);
  const knee = curve.findIndex(
    (point, i) =>
      point.catchUpSec !== null && (shortestAfter[i] as number) > (1 - NO_GAIN_TOLERANCE) * point.catchUpSec,
  );
  return knee === -1 || knee === curve.length - 1 ? null : knee + 1;
}

function summarize(
  plan: Omit<CapacityPlan, 'summary'> & { input: CapacityInput; currentCatchUpSec: number | null | undefined },
): string {
  const { input, recommendedConsumers: n, catchUpSec } = plan;
  const { consumers: current, perConsumerRatePerSec: rate, targetCatchUpSec } = input;
  const partitionCount = input.partitions.length;
  if (partitionCount === 0) return 'No partitions: nothing to plan.';

  // Partitions that never catch up even alone on a consumer; non-empty exactly when catchUpSec is null.
  const stuck = [...input.partitions]
    .filter((p) => consumerCatchUpSec(p.arrivalRatePerSec, p.backlog, rate) === null)
    .sort((a, b) => a.partition - b.partition);
  const sentences: string[] = [];
  const outcome =
    catchUpSec === 0 ? 'keep up (no backlog to catch up)' : `catch up in ${formatDuration(catchUpSec ?? 0)}`;
  if (plan.retention?.state === 'finish-first') {
    sentences.push(
      ...finishFirstSentences(
        plan.retention,
        plan.targetConsumers,
        plan.limitedByPartitions,
        input,
        plan.currentCatchUpSec,
      ),
    );
  } else if (!plan.limitedByPartitions) {
    if (n > current) sentences.push(`Scale consumers to ${n} to ${outcome}.`);
    else if (n === current)
      sentences.push(`Keep ${plural(n, 'consumer')}: ${n === 1 ? 'it is' : 'they are'} enough to ${outcome}.`);
    else sentences.push(`${plural(n, 'consumer')} would be enough to ${outcome}; ${current} are running.`);
    if (current > 0 && current < n)
      sentences.push(`At the current ${current} ${describe(plan.currentCatchUpSec ?? null)}.`);
  } else {
    if (catchUpSec === null) {
      sentences.push(
        `No consumer count catches up: ${formatPartitionList(stuck.map((p) => p.partition))} ` +
          `${stuck.length === 1 ? 'receives' : 'receive'} ${stuck.map((p) => formatRate(p.arrivalRatePerSec)).join(', ')} ` +
          `and one consumer processes ${formatRate(rate)}; a partition is consumed by one consumer only, so adding ` +
          'consumers cannot help. Re-key or move the hot key, or make processing faster.',
      );
    } else if (n < partitionCount) {
      // The knee: why it is enough follows in the no-gain sentence.
      const head = `No consumer count catches up within the ${formatDuration(targetCatchUpSec)} target`;
      if (n > current) sentences.push(`${head}: scale consumers to ${n} to catch up in ${formatDuration(catchUpSec)}.`);
      else if (n === current)
        sentences.push(
          `${head}: keep ${plural(n, 'consumer')}, ${n === 1 ? 'it catches' : 'they catch'} up in ${formatDuration(catchUpSec)}.`,
        );
      else
        sentences.push(
          `${head}: ${plural(n, 'consumer')} would catch up in ${formatDuration(catchUpSec)}; ${current} are running.`,
        );
      if (current > 0 && current < n)
        sentences.push(`At the current ${current} ${describe(plan.currentCatchUpSec ?? null)}.`);
    } else {
      sentences.push(
        `Even ${plural(partitionCount, 'consumer')} (one per partition) ${partitionCount === 1 ? 'needs' : 'need'} ${formatDuration(catchUpSec)} to catch up, ` +
          `over the ${formatDuration(targetCatchUpSec)} target: ` +
          (current < partitionCount ? `scale to ${partitionCount} and ` : '') +
          'make processing faster or add partitions.',
      );
    }
  }
  if (plan.retention?.state === 'in-time' && (catchUpSec ?? 0) > 0)
    sentences.push(
      `That reads ${plural(plan.retention.drains.length, 'partition')} at risk of retention before ${plan.retention.drains.length === 1 ? 'it' : 'they'} can delete unread records.`,
    );
  if (plan.retention?.state === 'none-can')
    sentences.push(
      `No consumer count reads ${formatPartitionList(plan.retention.late)} before retention can delete unread records there: ` +
        'a partition is read by one consumer at a time.',
    );
  const otherHot = plan.hotPartitions.filter((p) => !stuck.some((s) => s.partition === p));
  if (otherHot.length > 0) {
    sentences.push(
      `${formatPartitionList(otherHot)} already receive${otherHot.length === 1 ? 's' : ''} as much as one consumer ` +
        'processes: any backlog there would never drain.',
    );
  }
  if (plan.idleConsumers > 0) {
    sentences.push(
      `${plan.idleConsumers} of the ${current} current consumers ${plan.idleConsumers === 1 ? 'is' : 'are'} idle: there ${partitionCount === 1 ? 'is only 1 partition' : `are only ${partitionCount} partitions`}.`,
    );
  }
  if (plan.noGainBeyond !== null) sentences.push(noGainSentence(plan.noGainBeyond, input));
  if (input.scaling) sentences.push(input.scaling.statement);
  if (input.rebalancePause && input.rebalancePause.sec > 0 && n !== current && catchUpSec !== null && catchUpSec > 0)
    sentences.push(input.rebalancePause.statement);
  if (plan.rateIsLowerBound) {
    sentences.push(
      `The per-consumer rate (${formatRate(rate)}) was measured without a backlog, so it is only a lower bound: fewer consumers may do.`,
    );
  }
  return sentences.join(' ');
}

/** The plan's head when the target's count would read an at-risk partition too late. */
function finishFirstSentences(
  retention: RetentionPlan,
  targetConsumers: number,
  limitedByPartitions: boolean,
  input: CapacityInput,
  currentCatchUpSec: number | null | undefined,
): string[] {
  const { consumers: n, catchUpSec } = retention;
  const current = input.consumers;
  const drain = catchUpSec === null ? 'never catch up' : `catch up in ${formatDuration(catchUpSec)}`;
  const overTarget =
    catchUpSec !== null && catchUpSec > input.targetCatchUpSec
      ? `, over the ${formatDuration(input.targetCatchUpSec)} target`
      : '';
  const head = 'before retention can delete records they have not read';
  const sentences = [
    n > current
      ? `Scale consumers to ${n} to read every partition at risk ${head}: ${drain}${overTarget}.`
      : n === current
        ? `Keep ${plural(n, 'consumer')}: ${n === 1 ? 'it reads' : 'they read'} every partition at risk ${head} and ${drain}${overTarget}.`
        : `${plural(n, 'consumer')} would read every partition at risk ${head} and ${drain}${overTarget}; ${current} are running.`,
  ];
  if (targetConsumers !== n)
    sentences.push(
      `With ${plural(targetConsumers, 'consumer')}${limitedByPartitions ? '' : ` (enough for the ${formatDuration(input.targetCatchUpSec)} target)`} some would be read too late.`,
    );
  if (current > 0 && current < n) sentences.push(`At the current ${current} ${describe(currentCatchUpSec ?? null)}.`);
  return sentences;
}

/**
 * Why more consumers stop helping. The measured scaling when it is the cause: under linear scaling the knee
 * would come later (or not at all). Otherwise the partition whose backlog sets the pace.
 */
function noGainSentence(from: number, input: CapacityInput): string {
  const head = `More than ${plural(from, 'consumer')} would shorten the catch-up by less than 10%`;
  const { partitions, perConsumerRatePerSec: rate } = input;
  if (input.scaling !== undefined && input.scaling.efficiency < 1) {
    const linear = partitions.map((_, i) => ({
      consumers: i + 1,
      catchUpSec: groupCatchUpSec(partitions, i + 1, rate),
    }));
    const linearKnee = findNoGainBeyond(linear);
    if (linearKnee === null || linearKnee > from)
      return `${head}: the measured scaling says added consumers bring little throughput.`;
  }
  const totalBacklog = partitions.reduce((sum, p) => sum + p.backlog, 0);
  const largest = [...partitions].sort((a, b) => b.backlog - a.backlog || a.partition - b.partition)[0];
  if (largest === undefined || totalBacklog === 0) return `${head}.`;
  const share = Math.round((largest.backlog / totalBacklog) * 100);
  return (
    `${head}: partition ${largest.partition} holds ${share}% of the backlog and a partition is consumed by one ` +
    'consumer only. Spread its key or make processing faster.'
  );
}

function describe(catchUpSec: number | null): string {
  if (catchUpSec === null) return 'it never catches up';
  return catchUpSec === 0 ? 'it keeps up' : `it takes ${formatDuration(catchUpSec)}`;
}

function validate(input: CapacityInput): void {
  const { partitions, consumers, perConsumerRatePerSec, targetCatchUpSec } = input;
  if (!Number.isInteger(consumers) || consumers < 0)
    throw new RangeError(`consumers must be an integer >= 0, got ${consumers}`);
  if (!Number.isFinite(perConsumerRatePerSec) || perConsumerRatePerSec <= 0) {
    throw new RangeError(`perConsumerRatePerSec must be a measured rate > 0, got ${perConsumerRatePerSec}`);
  }
  if (!Number.isFinite(targetCatchUpSec) || targetCatchUpSec < 0)
    throw new RangeError(`targetCatchUpSec must be >= 0, got ${targetCatchUpSec}`);
  const pause = input.rebalancePause?.sec;
  if (pause !== undefined && !(Number.isFinite(pause) && pause >= 0))
    throw new RangeError(`rebalancePause.sec must be a finite number >= 0, got ${pause}`);
  const scaling = input.scaling?.efficiency;
  if (scaling !== undefined && !(Number.isFinite(scaling) && scaling >= 0 && scaling <= 1))
    throw new RangeError(`scaling.efficiency must be within 0..1, got ${scaling}`);
  const seen = new Set<number>();
  for (const p of partitions) {
    if (!Number.isInteger(p.partition) || p.partition < 0 || seen.has(p.partition)) {
      throw new RangeError(`partition numbers must be distinct integers >= 0, got ${p.partition}`);
    }
    seen.add(p.partition);
    if (!Number.isFinite(p.arrivalRatePerSec) || p.arrivalRatePerSec < 0) {
      throw new RangeError(`partition ${p.partition}: arrivalRatePerSec must be >= 0, got ${p.arrivalRatePerSec}`);
    }
    if (!Number.isFinite(p.backlog) || p.backlog < 0)
      throw new RangeError(`partition ${p.partition}: backlog must be >= 0, got ${p.backlog}`);
  }
  for (const d of input.deadlines ?? []) {
    if (!seen.has(d.partition)) throw new RangeError(`a deadline names partition ${d.partition}, which is not planned`);
  }
}

// "Scale to 5 to finish first": the consumer count whose drain reads every at-risk partition's unread records
// before the topic's retention can delete them. Pure; the capacity plan (capacity.ts) calls it when some
// partition of the plan is at risk.
//
// Model (the capacity plan's, capacity.ts): with N consumers the partitions are assigned greedily
// (assignPartitions), a partition is read by one consumer at a time, each consumer drains its own partitions at
// its rate (scaledRate, at the measured scaling), and every count other than the current one first costs the
// group's rebalance pause, during which nothing is read while records keep arriving.
//
// The deadline of an at-risk partition is the earliest its oldest unread record can be deleted if the group read
// nothing more from now on (lib/analysis/retention.ts deadlineIfUnread): ageing one second per second by time
// retention, the unread bytes growing at the arrival rate by size retention. A partition is in time at N when
// its consumer's catch-up (pause included) ends by its deadline. That is sufficient, and on the safe side:
// every record unread now is read by then, so none of them was ever older than the deadline allows, whatever
// order the consumer reads its partitions in; records that arrive later are younger still. It never names a
// count too small; it may name one more than a consumer reading the oldest records first would need.

export interface RetentionDeadline {
  /** The partition as the capacity plan numbers it. */
  partition: number;
  /** Seconds from now: the earliest its oldest unread record can be deleted if nothing more is read. */
  deadlineSec: number;
}

/** One at-risk partition's drain at some count (capacity.ts drainsByDeadline). */
export interface DrainByDeadline {
  partition: number;
  /** Its consumer's catch-up at this count, pause included; null: never. */
  catchUpSec: number | null;
  inTime: boolean;
}

export type RetentionPlanState = 'in-time' | 'finish-first' | 'none-can';

export interface RetentionPlan {
  /**
   * 'in-time': the count the plan recommends for its target already reads every at-risk partition in time;
   * 'finish-first': it does not, and `consumers` is the smallest count that does (within the target if one
   * is); 'none-can': no count up to the partition count does, and `consumers` is the one that leaves the fewest
   * partitions late (`late`), the recommended one among equals.
   */
  state: RetentionPlanState;
  consumers: number;
  /** The group's catch-up at `consumers` (as the plan's curve has it); null: never. */
  catchUpSec: number | null;
  /** At-risk partitions still late at `consumers`, ascending (empty unless 'none-can'). */
  late: number[];
  /** Every at-risk partition's drain at `consumers`. */
  drains: DrainByDeadline[];
}

/**
 * Plans the count against the deadlines. `recommended` is the count the target alone would recommend, `curve`
 * the plan's catch-up per count (1 to the partition count) and `drainsAt(n)` every at-risk partition's drain at
 * n consumers. Null without deadlines. Throws RangeError for a deadline that is negative or not finite.
 */
export function planBeforeDeletion(input: {
  deadlines: readonly RetentionDeadline[];
  recommended: number;
  targetCatchUpSec: number;
  curve: ReadonlyArray<{ consumers: number; catchUpSec: number | null }>;
  drainsAt: (consumers: number) => DrainByDeadline[];
}): RetentionPlan | null {
  const { deadlines, curve } = input;
  for (const d of deadlines) {
    if (!Number.isFinite(d.deadlineSec) || d.deadlineSec < 0)
      throw new RangeError(`partition ${d.partition}: deadlineSec must be a finite number >= 0, got ${d.deadlineSec}`);
  }
  if (deadlines.length === 0 || curve.length === 0) return null;
  const at = (n: number) => {
    const drains = input.drainsAt(n);
    return {
      consumers: n,
      catchUpSec: curve.find((point) => point.consumers === n)?.catchUpSec ?? null,
      late: drains.filter((d) => !d.inTime).map((d) => d.partition),
      drains,
    };
  };
  const counts = curve.map((point) => at(point.consumers));
  const recommended = counts.find((c) => c.consumers === input.recommended);
  if (recommended && recommended.late.length === 0) return { state: 'in-time', ...recommended };
  const inTime = counts.filter((c) => c.late.length === 0);
  if (inTime.length > 0) {
    // The smallest count in time that also meets the target, else the smallest in time.
    const withinTarget = inTime.find((c) => c.catchUpSec !== null && c.catchUpSec <= input.targetCatchUpSec);
    return { state: 'finish-first', ...(withinTarget ?? inTime[0]!) };
  }
  // None reads all in time: the count that leaves the fewest late, the recommended one among equals.
  const fewest = Math.min(...counts.map((c) => c.late.length));
  const best = recommended?.late.length === fewest ? recommended : counts.find((c) => c.late.length === fewest)!;
  return { state: 'none-can', ...best };
}

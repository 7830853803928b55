import { z } from 'zod';
import { ZIsoTime, ZOffset, ZTopicPartition } from './common';

// GET /api/groups/{groupId}/advice: the capacity plan (lib/advisor/capacity.ts) with its what-if curve and the
// advice list (lib/advisor/advice.ts), both computed from stored samples, plus the measured inputs so a
// reader can check every number.

export const ZAdviceSeverity = z.enum(['info', 'warning', 'critical']);

export const ZAdvice = z.object({
  id: z.string(),
  severity: ZAdviceSeverity,
  title: z.string(),
  detail: z.string(),
  evidence: z.record(z.string(), z.union([z.number(), z.string()])),
});

export const ZCapacityPlan = z.object({
  recommendedConsumers: z.number().int().min(0),
  /** With recommendedConsumers; null means it never catches up. */
  catchUpSec: z.number().nullable(),
  catchUpSecByConsumers: z.array(z.object({ consumers: z.number().int().min(1), catchUpSec: z.number().nullable() })),
  idleConsumers: z.number().int().min(0),
  limitedByPartitions: z.boolean(),
  hotPartitions: z.array(ZTopicPartition),
  rateIsLowerBound: z.boolean(),
  /** From this count on more consumers shorten the catch-up by less than 10% (below the partition count only). */
  noGainBeyond: z.number().int().min(1).nullable(),
  /** The count the target alone recommends; recommendedConsumers differs when retention needs more (finish first). */
  targetConsumers: z.number().int().min(0),
  summary: z.string(),
});

/**
 * What the topic's retention means for the plan (lib/advisor/retention-plan.ts): whether the recommended count
 * reads every at-risk partition's unread records before retention can delete them, the count that finishes
 * first, or which records will go.
 * - 'in-time': the plan's count reads them first; 'finish-first': the plan recommends more consumers than its
 *   target needs, to finish first; 'none-can': no count reads some of them in time (`willBeLost`);
 *   'not-planned': no plan could be made, only the windows are known.
 */
export const ZRetentionAdvice = z.object({
  state: z.enum(['in-time', 'finish-first', 'none-can', 'not-planned']),
  /** The count judged (the plan's recommendation); null when not planned. */
  consumers: z.number().int().min(0).nullable(),
  /** The group's catch-up at that count; null: never, or not planned. */
  catchUpSec: z.number().nullable(),
  /** Every at-risk partition, soonest first. */
  partitions: z.array(
    ZTopicPartition.extend({
      /** The oldest unread record (the committed offset). */
      fromOffset: ZOffset.nullable(),
      /** The window at the current pace, from the round and as times. */
      earliestMs: z.number().min(0).nullable(),
      latestMs: z.number().min(0).nullable(),
      earliestAt: ZIsoTime.nullable(),
      latestAt: ZIsoTime.nullable(),
      /** The earliest if nothing more were read: the deadline the drain is judged against; null: unknown. */
      deadlineMs: z.number().min(0).nullable(),
      /** Its consumer's catch-up at `consumers` (pause included); null: never or not planned. */
      drainSec: z.number().nullable(),
      /** Read before the deadline at `consumers`; null: not judged (held, not planned, deadline unknown). */
      inTime: z.boolean().nullable(),
      /** Why the plan leaves it out: quarantined, or held back by its own processing; null: planned. */
      held: z.enum(['quarantined', 'own-processing']).nullable(),
    }),
  ),
  /** Partitions whose unread records will go (not in time, or held), with when and how fast. */
  willBeLost: z.array(
    ZTopicPartition.extend({
      fromOffset: ZOffset.nullable(),
      startsAt: ZIsoTime.nullable(),
      /** Records deleted unread per minute once it starts, at the current pace; null: unknown. */
      perMinute: z.number().min(0).nullable(),
    }),
  ),
  /** The card's sentences. */
  statement: z.string(),
});

export const ZAdvisorPartition = ZTopicPartition.extend({
  arrivalRatePerSec: z.number().nullable(),
  consumptionRatePerSec: z.number().nullable(),
  /** Records the group will read: its lag, or for a partition never committed what its reset policy reads; null: unknown. */
  backlog: z.number().nullable(),
  /** 'committed': the lag; never committed: 'log-start' (earliest), 'log-end' (latest), 'unknown' (policy unknown). */
  backlogBasis: z.enum(['committed', 'log-start', 'log-end', 'unknown']),
  /** The consumer never ran out of records on it during the window: its consumption measures capacity. */
  hadBacklogThroughout: z.boolean(),
});

/** Measured scaling of the group (lib/advisor/scaling-efficiency.ts), or the linear assumption. */
export const ZScaling = z.object({
  basis: z.enum(['measured', 'assumed-linear']),
  /** 0..1: the share of one consumer's rate each added consumer brings; 1 when assumed. */
  efficiency: z.number().min(0).max(1),
  /** Consumer-count changes measured. */
  sampleSize: z.number().int().min(0),
  /** Age of the newest measured change; null when assumed. */
  ageMs: z.number().min(0).nullable(),
  latest: z
    .object({
      at: ZIsoTime,
      fromConsumers: z.number().int().min(1),
      toConsumers: z.number().int().min(1),
      speedup: z.number(),
      linearSpeedup: z.number(),
    })
    .nullable(),
  statement: z.string(),
});

/** Where the group starts partitions it never committed (lib/advisor/starting-backlog.ts). */
export const ZOffsetReset = z.object({
  /** null: unknown. */
  policy: z.enum(['earliest', 'latest']).nullable(),
  basis: z.string(),
  /** Planned partitions without a committed offset. */
  uncommittedPartitions: z.number().int().min(0),
  /** What those partitions hold from the log start to the log end. */
  recordsFromLogStart: z.number().min(0),
  /**
   * Policy unknown and a plan made: the recommended count's catch-up if the group reads them from the log
   * start (the plan itself counts them as empty); null otherwise, or never.
   */
  catchUpSecFromLogStart: z.number().nullable(),
  /** One sentence for the card; null when every planned partition committed. */
  statement: z.string().nullable(),
});

/** The pause a change of the consumer count costs, counted in T (lib/advisor/rebalance-pause.ts). */
export const ZRebalancePause = z.object({
  sec: z.number().min(0),
  basis: z.enum(['measured', 'sampled-bound', 'default']),
  sampleSize: z.number().int().min(0),
  statement: z.string(),
});

/** One plan as it was shown, and what happened after it (lib/advisor/track-record.ts). */
export const ZTrackRecordEntry = z.object({
  predictedAt: ZIsoTime,
  consumersThen: z.number().int().min(0),
  predictedConsumers: z.number().int().min(0),
  /** null: the plan said it never catches up. */
  predictedCatchUpSec: z.number().nullable(),
  backlog: z.number().min(0),
  /** Total lag at or under which the group counted as caught up. */
  thresholdLag: z.number().min(0),
  outcome: z.enum(['caught-up', 'not-yet', 'plan-not-followed']),
  actualCatchUpSec: z.number().nullable(),
  /** Time from the prediction to catching up, or to now when not caught up. */
  elapsedSec: z.number().min(0),
  planFollowed: z.boolean(),
  /** (actual - predicted) / predicted; null unless both are known and predicted > 0. */
  error: z.number().nullable(),
});

export const ZGroupAdvice = z.object({
  /** The watched cluster the group is in (lib/kafka/cluster-settings.ts); `default` for the single-cluster setup. */
  cluster: z.string(),
  groupId: z.string(),
  /** Time of the newest sample the advice is computed from. */
  sampledAt: ZIsoTime,
  windowMs: z.number().int().min(1),
  targetCatchUpSec: z.number().min(0),
  consumers: z.number().int().min(0),
  perConsumerRate: z.object({
    ratePerSec: z.number().nullable(),
    isLowerBound: z.boolean(),
    /** One sentence: which consumers it was measured on, and how. */
    basis: z.string(),
  }),
  partitions: z.array(ZAdvisorPartition),
  /**
   * 'planned': plan holds the recommendation; 'keeping-up': no consumer was saturated and the lag did not grow,
   * so no scaling is needed (and capacity is not measurable); 'unavailable': nothing to plan from yet.
   * planUnavailableReason explains the last two.
   */
  planState: z.enum(['planned', 'keeping-up', 'unavailable']),
  plan: ZCapacityPlan.nullable(),
  planUnavailableReason: z.string().nullable(),
  /** Caveats about the inputs (unknown backlogs, numbering), so a plan is never more certain than its data. */
  notes: z.array(z.string()),
  advice: z.array(ZAdvice),
  scaling: ZScaling,
  offsetReset: ZOffsetReset,
  rebalancePause: ZRebalancePause,
  /** What retention means for the plan; null when no partition's unread records are at risk. */
  retention: ZRetentionAdvice.nullable(),
  /** The last plans shown for the group, newest first, with their outcomes. */
  trackRecord: z.array(ZTrackRecordEntry),
});

export type TAdvice = z.infer<typeof ZAdvice>;
export type TGroupAdvice = z.infer<typeof ZGroupAdvice>;
export type TRetentionAdvice = z.infer<typeof ZRetentionAdvice>;
export type TScaling = z.infer<typeof ZScaling>;
export type TTrackRecordEntry = z.infer<typeof ZTrackRecordEntry>;

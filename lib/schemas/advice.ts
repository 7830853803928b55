import { z } from 'zod';
import { ZIsoTime, ZTopicPartition } from './common';

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
  summary: z.string(),
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
  /** The last plans shown for the group, newest first, with their outcomes. */
  trackRecord: z.array(ZTrackRecordEntry),
});

export type TAdvice = z.infer<typeof ZAdvice>;
export type TGroupAdvice = z.infer<typeof ZGroupAdvice>;
export type TScaling = z.infer<typeof ZScaling>;
export type TTrackRecordEntry = z.infer<typeof ZTrackRecordEntry>;

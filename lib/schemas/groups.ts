import { z } from 'zod';
import { ZIsoTime, ZOffset, ZTopicPartition } from './common';
import { ZRecordLoss } from './record-losses';
import {
  GROUP_FILTER_MAX_CHARS,
  GROUP_SORT_KEYS,
  GROUP_STATUSES,
  INSTANCE_PARTITIONS_LISTED,
  INSTANCE_STATES,
  LAG_RANGES,
  MAX_GROUPS_OFFSET,
  MAX_GROUPS_PAGE,
  SORT_ORDERS,
} from './values';

// Shared by the /api/groups route handlers (which parse their output with them) and the UI hooks (which
// parse the responses with them), so the two can never disagree silently.

/** Burrow's statuses, as its evaluator gives them (docs/operating/statuses.md). */
export const ZBurrowStatus = z.enum(['OK', 'WARN', 'STOP', 'STALL', 'REWIND']);
/** Burrow's, or LOST while the partition has a record loss nobody acknowledged (louder than every other). */
export const ZPartitionStatus = z.enum([...ZBurrowStatus.options, 'LOST']);
export const ZGroupStatus = z.enum(GROUP_STATUSES);

/**
 * How old the record a group waits for is, and how we know:
 * - kind: 'exact' (now minus the timestamp of the record at the committed offset), 'interpolated' between two
 *   log-end observations, 'lower-bound' (the record is older than every observation we have: "at least"),
 *   'caught-up' (nothing waiting: 0), 'unknown' (no commit or no observations: ms is null).
 * - basis: 'record-timestamp' (read from the record by the sampler), 'sampler' (the sampler's log-end table),
 *   'lag-samples' (computed here from the stored samples' log-end offsets over time), 'none'.
 */
export const ZTimeLagKind = z.enum(['exact', 'caught-up', 'interpolated', 'lower-bound', 'unknown']);
export const ZTimeLagBasis = z.enum(['record-timestamp', 'sampler', 'lag-samples', 'none']);
export const ZTimeLag = z.object({ ms: z.number().min(0).nullable(), kind: ZTimeLagKind, basis: ZTimeLagBasis });

export const ZCommitSource = z.enum(['offsets-topic', 'sampled']);
export const ZGroupCommitSource = z.enum(['offsets-topic', 'sampled', 'mixed']);

/** Burrow's window of one partition: how many commits it holds of its capacity, and where they came from. */
export const ZStatusWindow = z.object({
  commits: z.number().int().min(0),
  capacity: z.number().int().min(1),
  /** commits / capacity, at most 1: a partial window is evaluated all the same. */
  complete: z.number().min(0).max(1),
  source: ZCommitSource,
  lastCommitAt: ZIsoTime.nullable(),
});

// --- Retention risk and record losses ----------------------------------------------------------------------

/**
 * What a topic's retention will do to the records a group has not read in one partition
 * (lib/lag/retention-risk.ts, judged at the round's time). Every kind carries `summary`, one sentence for the
 * page. Windows are ms from the round (`sampledAt`), and `earliestAt` / `latestAt` the same as times.
 */
const riskSummary = { summary: z.string() };
export const ZRetentionRule = z.enum(['time', 'size']);
export const ZRetentionRisk = z.discriminatedUnion('kind', [
  /** Nothing unread. */
  z.object({ kind: z.literal('caught-up'), ...riskSummary }),
  /** Never committed: nothing read, nothing to lose (it starts where its reset policy says). */
  z.object({ kind: z.literal('not-committed'), ...riskSummary }),
  /** Delete policy without a time or size limit. */
  z.object({ kind: z.literal('unlimited'), ...riskSummary }),
  /** Compaction only: nothing is deleted by age or size. */
  z.object({ kind: z.literal('compacted'), ...riskSummary }),
  /** Cannot be judged (settings not read yet or unreadable, age or rates unknown); never read as safe. */
  z.object({ kind: z.literal('unknown'), reason: z.string(), ...riskSummary }),
  /** The committed offset is below the log start: these records were deleted unread. */
  z.object({ kind: z.literal('lost'), fromOffset: ZOffset, toOffset: ZOffset, count: ZOffset, ...riskSummary }),
  /** Reading at least as fast as records arrive, its oldest unread record younger than the limit. */
  z.object({
    kind: z.literal('keeping-pace'),
    oldestUnreadAgeMs: z.number().min(0).nullable(),
    retentionMs: z.number().nullable(),
    ...riskSummary,
  }),
  z.object({
    kind: z.literal('at-risk'),
    /** The earliest the oldest unread record can be deleted (0: at any moment); null: unknown. */
    earliestMs: z.number().min(0).nullable(),
    /** By when it will have been deleted if nothing changes; null: no bound. */
    latestMs: z.number().min(0).nullable(),
    earliestAt: ZIsoTime.nullable(),
    latestAt: ZIsoTime.nullable(),
    /** The rules that give the window (the sooner one wins where both apply). */
    rules: z.array(ZRetentionRule),
    /** How the window was obtained, in words. */
    basis: z.string(),
    /** 'compact,delete': compaction can also replace unread records. */
    alsoCompacted: z.boolean(),
    ...riskSummary,
  }),
]);

/** The partition of a group whose unread records retention can delete soonest (the overview's column). */
export const ZSoonestDeletion = ZTopicPartition.extend({
  earliestMs: z.number().min(0).nullable(),
  latestMs: z.number().min(0).nullable(),
  earliestAt: ZIsoTime.nullable(),
  latestAt: ZIsoTime.nullable(),
  summary: z.string(),
});

// --- GET /api/groups -------------------------------------------------------------------------------------

export const ZGroupSummary = z.object({
  /** The watched cluster the group is in (lib/kafka/cluster-settings.ts); `default` for the single-cluster setup. */
  cluster: z.string(),
  groupId: z.string(),
  state: z.string(),
  /** Assignor / protocol name from describeGroups; null until the sampler records it. */
  protocol: z.string().nullable(),
  sampledAt: ZIsoTime,
  status: ZGroupStatus,
  /**
   * Most severe first: why the status is what it is. In the overview's rows (GET /api/groups) only the first
   * few (lib/groups/groups-page.ts, OVERVIEW_STATUS_REASONS); the group's detail has them all.
   */
  statusReasons: z.array(z.string()),
  /** How many reasons the analysis gave, including those the overview's rows leave out. */
  statusReasonCount: z.number().int().min(0),
  /**
   * Which commits the statuses rest on: 'offsets-topic' (every commit, read from __consumer_offsets),
   * 'sampled' (the committed offset at each sampler round: repeated commits are invisible, so no STALL),
   * 'mixed' (some partitions each way); null when no partition was ever committed.
   */
  commitSource: ZGroupCommitSource.nullable(),
  /** Sum of the known partition lags. */
  totalLag: z.number(),
  /** Partitions the group never committed: their lag is unknown and not in totalLag. */
  partitionsWithoutCommit: z.number().int().min(0),
  partitionCount: z.number().int().min(0),
  /** Distinct owners (by member id; client id + host for samples stored without one) in the latest sample. */
  members: z.number().int().min(0),
  /** The partition whose waiting record is oldest; null when no partition's time lag is known. */
  worstTimeLag: ZTimeLag.extend(ZTopicPartition.shape).nullable(),
  quarantinedPartitions: z.number().int().min(0),
  /** The partition whose unread records retention can delete soonest; null when none is at risk. */
  soonestDeletion: ZSoonestDeletion.nullable(),
  /** Partitions whose unread records retention is set to delete (at-risk), and those it cannot judge (unknown). */
  retentionAtRiskPartitions: z.number().int().min(0),
  retentionUnknownPartitions: z.number().int().min(0),
  /** Record-loss episodes nobody acknowledged (each makes its partition LOST). */
  unacknowledgedLosses: z.number().int().min(0),
  lastRebalance: z
    .object({ startedAt: ZIsoTime, durationMs: z.number().nullable(), durationIsBound: z.boolean() })
    .nullable(),
  /** Total lag over the recent window, oldest first (max per bucket, so spikes are never smoothed away). */
  trend: z.array(z.object({ at: ZIsoTime, totalLag: z.number().nullable() })),
});

export const ZGroupSort = z.enum(GROUP_SORT_KEYS);
export const ZSortOrder = z.enum(SORT_ORDERS);

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

/**
 * GET /api/groups's query without `cluster` (request-cluster.ts reads that): a name filter (case-insensitive
 * substring of the group id), a status, an order and a page. Without `limit` every matching group is answered.
 */
export const ZGroupsQuery = z
  .object({
    q: z
      .string()
      .max(GROUP_FILTER_MAX_CHARS, `must be at most ${GROUP_FILTER_MAX_CHARS} characters (a group id is at most 249)`)
      .optional(),
    status: ZGroupStatus.optional(),
    sort: ZGroupSort.optional(),
    order: ZSortOrder.optional(),
    limit: wholeNumber(1, MAX_GROUPS_PAGE).optional(),
    offset: wholeNumber(0, MAX_GROUPS_OFFSET).optional(),
  })
  .strict();

export const ZGroupStatusCounts = z.object({
  LOST: z.number().int().min(0),
  ERR: z.number().int().min(0),
  QUARANTINED: z.number().int().min(0),
  WARN: z.number().int().min(0),
  OK: z.number().int().min(0),
});

export const ZGroupsResponse = z.object({
  generatedAt: ZIsoTime,
  /** The page asked for (`offset`, `limit`) of the matching groups, in the order asked for. */
  groups: z.array(ZGroupSummary),
  /** Groups matching every filter. */
  total: z.number().int().min(0),
  /** Groups per status matching every filter but the status: what choosing each status would show. */
  counts: ZGroupStatusCounts,
  /** The clusters with at least one listed group, whatever the filters. */
  clusters: z.array(z.string()),
  /**
   * 'summaries': the statuses the worker's evaluation stored after its newest round (at `summarizedAt`, at most
   * one round behind the samples); 'live': computed from the samples for this request (no worker evaluates).
   */
  source: z.enum(['summaries', 'live']),
  summarizedAt: ZIsoTime.nullable(),
});

// --- GET /api/groups/{groupId} -----------------------------------------------------------------------------

export const ZCommitPrefix = z.object({
  instanceId: z.string(),
  sampledAt: ZIsoTime,
  /** Last offset the broker acknowledged ("next to read"). */
  watermark: ZOffset.nullable(),
  highestCompleted: ZOffset.nullable(),
  inFlight: z.number().int(),
  completedUncommitted: z.number().int(),
  buffered: z.number().int(),
  bufferedBytes: z.number().int(),
  oldestUnfinishedOffset: ZOffset.nullable(),
  oldestUnfinishedAgeMs: z.number().nullable(),
  paused: z.boolean(),
});

export const ZPartitionQuarantine = z.object({
  offset: ZOffset,
  since: ZIsoTime,
  reason: z.string(),
  errorClass: z.string(),
  attempts: z.number().int(),
});

export const ZPartitionDetail = z.object({
  topic: z.string(),
  partition: z.number().int().min(0),
  committedOffset: ZOffset.nullable(),
  logStartOffset: ZOffset,
  logEndOffset: ZOffset,
  /** Offsets behind the log end; null when the group never committed this partition. */
  lag: z.number().nullable(),
  timeLag: ZTimeLag,
  /** Records per second appended / committed; null when not measurable yet. */
  arrivalRatePerSec: z.number().nullable(),
  consumptionRatePerSec: z.number().nullable(),
  ratesBasis: z.enum(['sampler', 'lag-samples', 'none']),
  /** Its owner; `name` is how Warden names a member everywhere (lib/members/member-name.ts). */
  owner: z
    .object({ memberId: z.string().nullable(), clientId: z.string(), host: z.string().nullable(), name: z.string() })
    .nullable(),
  /** Burrow's evaluation of the recent commits, or LOST while a loss of the partition is unacknowledged. */
  status: ZPartitionStatus,
  /**
   * Why the status is not OK ("no commit for 4 min 10 s; lag 3,012 and growing 8/s"; for LOST "1,204 records
   * (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC"); null when OK.
   */
  statusReason: z.string().nullable(),
  /** Burrow's status alone (equal to `status` unless that is LOST), and its reason. */
  burrowStatus: ZBurrowStatus,
  burrowReason: z.string().nullable(),
  /** What the topic's retention will do to the records the group has not read here. */
  retentionRisk: ZRetentionRisk,
  statusWindow: ZStatusWindow,
  quarantine: ZPartitionQuarantine.nullable(),
  /** Warden's own consumer only: why the lag exists. */
  commitPrefix: ZCommitPrefix.nullable(),
});

export const ZGroupMember = z.object({
  /** null for samples stored before member ids were. */
  memberId: z.string().nullable(),
  clientId: z.string(),
  host: z.string().nullable(),
  name: z.string(),
  partitions: z.array(ZTopicPartition),
});

/** values.ts INSTANCE_STATES: live (reporting), gone (silent past goneAfterMs), stopped (a clean stop). */
export const ZConsumerInstanceState = z.enum(INSTANCE_STATES);

/**
 * One process of the group that embeds @warden/consumer with its control option and reports its state over
 * Kafka (consumer_instance): who it is, whether it is live, ready and what it owns, as of its newest report.
 */
export const ZConsumerInstance = z.object({
  /** How it names itself: `client id@host/pid` unless the service names it. */
  instanceId: z.string(),
  clientId: z.string(),
  host: z.string(),
  pid: z.number().int().min(0),
  /** The @warden/consumer version it runs. */
  packageVersion: z.string(),
  startedAt: ZIsoTime,
  /** Its newest report (stamped by its own clock). */
  reportedAt: ZIsoTime,
  stateIntervalMs: z.number().int().min(1),
  state: ZConsumerInstanceState,
  /** A running instance silent for longer than this is gone: max(3 report intervals, 15 s). */
  goneAfterMs: z.number().int().min(0),
  /** Its readiness at its newest report, and why (a live instance's is current; another's is its last word). */
  ready: z.boolean(),
  readinessDetail: z.string(),
  /** Partitions it owned at its newest report, all counted. */
  partitionCount: z.number().int().min(0),
  /** The first INSTANCE_PARTITIONS_LISTED of them, by topic and partition. */
  partitions: z.array(ZTopicPartition).max(INSTANCE_PARTITIONS_LISTED),
  /** Commands it refused (signature, version, size, shape) since it started, and the newest reason. */
  refusedCommands: z.number().int().min(0),
  lastRefusal: z.string().nullable(),
});

export const ZGroupDetail = ZGroupSummary.omit({ trend: true }).extend({
  /**
   * True when the group is a Warden consumer (it reports instances, its commit prefix or quarantines): actions
   * apply, and its offsets are not reset from outside.
   */
  isWardenConsumer: z.boolean(),
  memberList: z.array(ZGroupMember),
  partitions: z.array(ZPartitionDetail),
  /**
   * Its instances that report to Warden: the live ones, newest started first, then the gone and stopped ones
   * for an hour after their last report, most recent first. Empty for a group whose consumers do not report.
   */
  instances: z.array(ZConsumerInstance),
  /**
   * The group's record-loss episodes: every unacknowledged one, and the others detected, extended or ended in
   * the last RECORD_LOSS_LISTED_DAYS days; newest first.
   */
  losses: z.array(ZRecordLoss),
});

// --- GET /api/groups/{groupId}/lag -------------------------------------------------------------------------

export const ZLagRange = z.enum(
  Object.keys(LAG_RANGES) as [keyof typeof LAG_RANGES, ...Array<keyof typeof LAG_RANGES>],
);
/** A chart never needs more points than this; a finer step is refused rather than silently coarsened. */
export const MAX_SERIES_POINTS = 2_000;
export const MAX_SERIES_SPAN_MS = 31 * 24 * 3_600_000;

export const ZLagSeriesQuery = z
  .object({
    range: ZLagRange.optional(),
    from: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 time, e.g. 2026-11-29T12:00:00Z' }).optional(),
    to: z.iso.datetime({ offset: true, error: 'must be an ISO-8601 time, e.g. 2026-11-29T13:00:00Z' }).optional(),
    /** Bucket width in seconds; chosen from the span when omitted. */
    step: z
      .string()
      .regex(/^\d{1,7}$/, 'must be a whole number of seconds')
      .transform(Number)
      .refine((s) => s >= 1, 'must be at least 1 second')
      .optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.range !== undefined && (q.from !== undefined || q.to !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['range'], message: 'give either range or from/to, not both' });
      return;
    }
    if (q.from !== undefined && q.to !== undefined && Date.parse(q.from) >= Date.parse(q.to)) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'must be before to' });
    }
  });
export type TLagSeriesQuery = z.infer<typeof ZLagSeriesQuery>;

const nullableSeries = z.array(z.number().nullable());

export const ZLagSeries = z.object({
  /** The watched cluster the group is in (lib/kafka/cluster-settings.ts); `default` for the single-cluster setup. */
  cluster: z.string(),
  groupId: z.string(),
  from: ZIsoTime,
  to: ZIsoTime,
  stepMs: z.number().int().min(1),
  /** 'samples': raw lag_sample rows; 'rollup': the one-minute lag_rollup or (steps of whole ten minutes) the ten-minute lag_rollup_10m table (long ranges). */
  source: z.enum(['samples', 'rollup']),
  /** The oldest raw sample stored for the group (older ones are past SAMPLER_RETENTION_DAYS): says why a range is empty. */
  firstSampledAt: ZIsoTime,
  /** SAMPLER_RETENTION_DAYS: raw samples older than this many days are deleted (whole days at a time). */
  rawRetentionDays: z.number().int().positive(),
  /** Bucket starts; every array below is aligned with it. Buckets with no sample hold null (a gap, not a zero). */
  times: z.array(ZIsoTime),
  totals: z.object({ lag: nullableSeries, arrivalRatePerSec: nullableSeries, consumptionRatePerSec: nullableSeries }),
  partitions: z.array(
    z.object({
      topic: z.string(),
      partition: z.number().int().min(0),
      /** Maximum lag seen in the bucket. */
      lag: nullableSeries,
      /** Maximum time lag in the bucket. */
      timeLagMs: nullableSeries,
      timeLagKind: z.array(ZTimeLagKind.nullable()),
      arrivalRatePerSec: nullableSeries,
      consumptionRatePerSec: nullableSeries,
    }),
  ),
});

export type TTimeLag = z.infer<typeof ZTimeLag>;
export type TTimeLagKind = z.infer<typeof ZTimeLagKind>;
export type TGroupStatus = z.infer<typeof ZGroupStatus>;
export type TPartitionStatus = z.infer<typeof ZPartitionStatus>;
export type TBurrowStatus = z.infer<typeof ZBurrowStatus>;
export type TRetentionRisk = z.infer<typeof ZRetentionRisk>;
export type TSoonestDeletion = z.infer<typeof ZSoonestDeletion>;
export type TGroupSummary = z.infer<typeof ZGroupSummary>;
export type TGroupsResponse = z.infer<typeof ZGroupsResponse>;
export type TGroupsQuery = z.infer<typeof ZGroupsQuery>;
export type TGroupSort = z.infer<typeof ZGroupSort>;
export type TGroupStatusCounts = z.infer<typeof ZGroupStatusCounts>;
export type TPartitionDetail = z.infer<typeof ZPartitionDetail>;
export type TGroupDetail = z.infer<typeof ZGroupDetail>;
export type TConsumerInstance = z.infer<typeof ZConsumerInstance>;
export type TConsumerInstanceState = z.infer<typeof ZConsumerInstanceState>;
export type TLagRange = z.infer<typeof ZLagRange>;
export type TLagSeries = z.infer<typeof ZLagSeries>;

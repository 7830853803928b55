import { z } from 'zod';
import { ZGroupIdParam, ZIsoTime } from './common';

// GET /api/rebalances?cluster=&groupId=&limit=: one cluster's rebalance history, newest first, one entry per
// rebalance (`cluster` is read by the route: absent means `default`, as for the group routes).

export const ZRebalancesQuery = z
  .object({
    groupId: ZGroupIdParam.optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, 'must be between 1 and 1000')
      .optional(),
  })
  .strict();

/** A member as the rebalance saw it, named by lib/members/member-name.ts. */
export const ZRebalanceMember = z.object({
  name: z.string(),
  memberId: z.string().nullable(),
  /** Compared with the other side: joined (after only), left (before only) or stayed. */
  change: z.enum(['joined', 'left', 'stayed']),
});

/** One Warden member's own stop for the rebalance, measured from its consumer's events. */
export const ZRebalanceStop = z.object({
  name: z.string(),
  memberId: z.string().nullable(),
  startedAt: ZIsoTime,
  endedAt: ZIsoTime,
  durationMs: z.number().int().min(0),
  /** It joined from scratch (start-up, crash, rebuilt client) rather than being rebalanced while running. */
  joining: z.boolean(),
});

/**
 * One rebalance, however many observations of it were stored (lib/rebalances/merge-rebalances.ts): the stops
 * Warden's members measured and the sampler's inference between two samples, merged.
 */
export const ZRebalance = z.object({
  id: z.string(),
  groupId: z.string(),
  /** Measured: the first member's stop to the last one's resume. Otherwise the samples around it. */
  startedAt: ZIsoTime,
  endedAt: ZIsoTime,
  durationMs: z.number().int().min(0),
  /** No Warden member measured it: the duration is an upper bound ("at most") between two samples. */
  durationIsBound: z.boolean(),
  /** One per Warden member that measured it, earliest first; empty when only the sampler saw it. */
  stops: z.array(ZRebalanceStop),
  /** When the sampler saw it: the group was settled at `from` and again, changed, at `to`. */
  sampledBetween: z.object({ from: ZIsoTime, to: ZIsoTime }).nullable(),
  /** 'join' | 'leave' | 'timeout' | 'assignment' | 'unknown' (lib/rebalances/rebalance-trigger.ts). */
  trigger: z.string(),
  /** 'group': every member, as describeGroups showed the group; 'measuring-members': only the Warden members that measured it. */
  membersSeenBy: z.enum(['group', 'measuring-members']),
  membersBefore: z.array(ZRebalanceMember),
  membersAfter: z.array(ZRebalanceMember),
  /** Partitions whose owner changed, counted once from the assignment before and after. */
  partitionsMoved: z.number().int().min(0),
  /** The rebalance_event rows merged into this one. */
  rowIds: z.array(z.string()).min(1),
});

export const ZRebalancesResponse = z.object({
  /** The cluster the history is of. */
  cluster: z.string(),
  rebalances: z.array(ZRebalance),
});

export type TRebalance = z.infer<typeof ZRebalance>;
export type TRebalancesResponse = z.infer<typeof ZRebalancesResponse>;

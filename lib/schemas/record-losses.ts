import { z } from 'zod';
import { ZAuditReason, ZGroupIdParam, ZIsoTime, ZOffset, ZTopicPartition } from './common';

// Record losses: GET /api/groups/{groupId} lists a group's episodes (ZGroupDetail.losses);
// POST /api/groups/{groupId}/losses/{lossId}/acknowledge takes ZLossAcknowledgeRequest and answers
// ZRecordLossOfGroup; GET /api/audit lists the acknowledgements (ZAuditResponse.lossAcknowledgements).

/**
 * One record-loss episode (record_loss): records of one partition Kafka's retention deleted before the group
 * read them, found by the sampler (its committed offset below the log start), with its acknowledgement.
 */
export const ZRecordLoss = ZTopicPartition.extend({
  id: z.string(),
  fromOffset: ZOffset,
  toOffset: ZOffset,
  count: ZOffset,
  /** How it was found: 'below-log-start' (certain). */
  basis: z.string(),
  /** The round that first saw it, the round that last extended it, the round that saw it end (null: open). */
  detectedAt: ZIsoTime,
  updatedAt: ZIsoTime,
  endedAt: ZIsoTime.nullable(),
  /** Still growing or not yet ended: the group's committed offset is still below the log start. */
  open: z.boolean(),
  /** Acknowledged, and not extended since: the partition is then no longer LOST. */
  acknowledged: z.boolean(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: ZIsoTime.nullable(),
  acknowledgeReason: z.string().nullable(),
  /** The episode's last offset when acknowledged; records lost past it made it unacknowledged again. */
  acknowledgedToOffset: ZOffset.nullable(),
  /** "1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC". */
  summary: z.string(),
});

/** An episode with the group it belongs to: the acknowledge route's answer and an audit row. */
export const ZRecordLossOfGroup = ZRecordLoss.extend({
  /** The watched cluster (`default` for the single-cluster setup). */
  cluster: z.string(),
  groupId: z.string(),
});

export const ZLossRouteParams = z.object({
  groupId: ZGroupIdParam,
  lossId: z.string().regex(/^\d{1,18}$/, 'must be a loss id (digits)'),
});

/** Acknowledging a loss says someone knows the records are gone, and why that is settled. */
export const ZLossAcknowledgeRequest = z.object({ reason: ZAuditReason }).strict();

export type TRecordLoss = z.infer<typeof ZRecordLoss>;
export type TRecordLossOfGroup = z.infer<typeof ZRecordLossOfGroup>;
export type TLossAcknowledgeRequest = z.infer<typeof ZLossAcknowledgeRequest>;

import { z } from 'zod';
import { ZAuditReason, ZOffset, ZRequestedOffset, ZRequestedTime } from './common';

// Offset reset of a consumer group that is not a Warden consumer, while it has no members (Empty or Dead).
// POST /api/groups/{groupId}/offsets/reset takes ZOffsetResetRequest and answers ZOffsetResetResult.

export const RESET_TARGETS = ['earliest', 'latest', 'timestamp', 'offset'] as const;
export const ZResetTarget = z.enum(RESET_TARGETS, { error: 'must be one of earliest, latest, timestamp, offset' });
export type TResetTarget = z.infer<typeof ZResetTarget>;

export const ZOffsetResetRequest = z
  .object({
    topic: z
      .string({ error: 'is required' })
      .regex(/^[a-zA-Z0-9._-]{1,249}$/, 'must be a Kafka topic name (letters, digits, . _ -)'),
    /** One partition; omitted: every partition of the topic. */
    partition: z
      .number({ error: 'must be a partition number (0 or more)' })
      .int('must be a partition number (0 or more)')
      .min(0, 'must be a partition number (0 or more)')
      .optional(),
    to: ZResetTarget,
    /** to=timestamp: the first offset whose record timestamp is at or after this time (the log end when none). */
    timestamp: ZRequestedTime.optional(),
    /** to=offset: the offset to continue at, within the partition's log (log start to log end). */
    offset: ZRequestedOffset.optional(),
    reason: ZAuditReason,
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.to === 'timestamp' && body.timestamp === undefined)
      ctx.addIssue({ code: 'custom', path: ['timestamp'], message: 'is required to reset to a time' });
    if (body.to !== 'timestamp' && body.timestamp !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['timestamp'],
        message: `only to=timestamp takes one; to=${body.to} does not`,
      });
    if (body.to === 'offset') {
      if (body.offset === undefined)
        ctx.addIssue({ code: 'custom', path: ['offset'], message: 'is required to reset to an offset' });
      else if (body.partition === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['partition'],
          message: 'is required to reset to an explicit offset (offsets differ per partition)',
        });
    }
    if (body.to !== 'offset' && body.offset !== undefined)
      ctx.addIssue({ code: 'custom', path: ['offset'], message: `only to=offset takes one; to=${body.to} does not` });
  });
export type TOffsetResetRequest = z.infer<typeof ZOffsetResetRequest>;

export const ZOffsetResetResult = z.object({
  groupId: z.string(),
  topic: z.string(),
  to: ZResetTarget,
  /** The group's state as the broker reported it right before the write. */
  state: z.string(),
  partitions: z.array(
    z.object({ partition: z.number().int().min(0), previousOffset: ZOffset.nullable(), offset: ZOffset }),
  ),
  /** The audit rows, one per partition. */
  auditIds: z.array(z.string()),
});
export type TOffsetResetResult = z.infer<typeof ZOffsetResetResult>;

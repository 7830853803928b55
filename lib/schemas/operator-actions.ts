import { z } from 'zod';
import { ZAccessEvent, ZAuditKindFilter } from './access-events';
import { ZRedriveJob } from './dead-letters';
import { ZRecordLossOfGroup } from './record-losses';
import { ZAuditReason, ZGroupIdParam, ZIsoTime, ZOffset, ZRequestedOffset, ZRequestedTime } from './common';
import { ACTION_STATUSES, COMMAND_STATES } from './values';

// Operator actions on a quarantined partition of a Warden consumer, and the audit log they form.
// POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions takes ZActionRequest and answers 202 with
// ZOperatorAction; GET /api/commands/{id} answers ZCommand; GET /api/audit answers ZAuditResponse
// (with the access log of lib/schemas/access-events.ts).

/** Postgres NOTIFY channel: the API notifies it (payload: the group id) when it records a pending action. */
export const OPERATOR_ACTION_CHANNEL = 'warden_operator_action';

export const ACTION_KINDS = ['resume', 'skip', 'seek'] as const;
export const ZActionKind = z.enum(ACTION_KINDS, { error: 'must be one of resume, skip, seek' });
/** What the audit log holds: the actions above, and offset resets of groups that are not Warden consumers. */
export const AUDIT_ACTION_KINDS = [...ACTION_KINDS, 'reset'] as const;
export const ZAuditActionKind = z.enum(AUDIT_ACTION_KINDS);

export const ZActionRequest = z
  .object({
    action: ZActionKind,
    /** seek only: the offset to continue at (validated against the partition's log start and end). */
    offset: ZRequestedOffset.optional(),
    /** seek only: continue at the first offset whose record timestamp is at or after this time. */
    timestamp: ZRequestedTime.optional(),
    reason: ZAuditReason,
  })
  .strict()
  .superRefine((body, ctx) => {
    const hasOffset = body.offset !== undefined;
    const hasTimestamp = body.timestamp !== undefined;
    if (body.action === 'seek') {
      if (hasOffset === hasTimestamp) {
        ctx.addIssue({ code: 'custom', path: ['offset'], message: 'seek needs exactly one of offset or timestamp' });
      }
    } else if (hasOffset || hasTimestamp) {
      ctx.addIssue({
        code: 'custom',
        path: [hasOffset ? 'offset' : 'timestamp'],
        message: `only seek takes one; ${body.action} does not`,
      });
    }
  });
export type TActionRequest = z.infer<typeof ZActionRequest>;

/** The stored lifecycle (values.ts says what each status means). */
export const ZActionStatus = z.enum(ACTION_STATUSES);

export const ZOperatorAction = z.object({
  id: z.string(),
  /** The command's id on the control topic (a UUID): the instance that applies it names it in its outcome. */
  commandId: z.string(),
  /** The cluster of the group (`default` for the single-cluster setup). */
  cluster: z.string(),
  groupId: z.string(),
  topic: z.string(),
  partition: z.number().int().min(0),
  action: ZAuditActionKind,
  seekOffset: ZOffset.nullable(),
  seekTimestamp: ZIsoTime.nullable(),
  quarantineOffset: ZOffset.nullable(),
  reason: z.string(),
  requestedBy: z.string(),
  requestedAt: ZIsoTime,
  status: ZActionStatus,
  outcome: z.string().nullable(),
  executedBy: z.string().nullable(),
  completedAt: ZIsoTime.nullable(),
  /** When a Warden worker put it on the cluster's command topic; null while it waits for one to (and for resets). */
  relayedAt: ZIsoTime.nullable(),
  /** No consumer applies it after this; a pending one is then recorded expired. Null until it is relayed. */
  expiresAt: ZIsoTime.nullable(),
});

/** `state` folds the stored status into the answers a caller waits for (commandStateOf, values.ts). */
export const ZCommandState = z.enum(COMMAND_STATES);
export const ZCommand = ZOperatorAction.extend({ state: ZCommandState, message: z.string() });

export const ZAuditQuery = z
  .object({
    groupId: ZGroupIdParam.optional(),
    /** Which lists to fill (lib/schemas/access-events.ts); absent, both. */
    kind: ZAuditKindFilter.optional(),
    limit: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a whole number')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, 'must be between 1 and 1000')
      .optional(),
  })
  .strict();

/** Operator actions and access events, each newest first; `access` is empty when filtered by group. */
export const ZAuditResponse = z.object({
  actions: z.array(ZOperatorAction),
  access: z.array(ZAccessEvent),
  /** Redrive jobs (who, why, the selection, outcome counts; refused ones too), with the actions. */
  redrives: z.array(ZRedriveJob),
  /**
   * Acknowledged record losses (who, when, why: acknowledgedBy, acknowledgedAt, acknowledgeReason), with the
   * actions, newest acknowledgement first. An episode acknowledged again after it grew shows its newest one.
   */
  lossAcknowledgements: z.array(ZRecordLossOfGroup),
});

export const ZCommandIdParam = z.string().regex(/^\d{1,18}$/, 'must be a command id (digits)');

export type TActionStatus = z.infer<typeof ZActionStatus>;
export type TOperatorAction = z.infer<typeof ZOperatorAction>;
export type TCommand = z.infer<typeof ZCommand>;
export type TCommandState = z.infer<typeof ZCommandState>;
export type TAuditResponse = z.infer<typeof ZAuditResponse>;

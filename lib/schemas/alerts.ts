import { z } from 'zod';
import { ALERT_CONDITIONS, ALERT_SEVERITIES } from '../alerts/alert-settings';
import { ZClusterName } from './clusters';
import { ZAuditReason, ZGroupIdParam, ZIsoTime } from './common';

// GET /api/alerts[?cluster=], POST /api/alerts/silences, POST /api/alerts/{id}/acknowledge.

export const ZAlertCondition = z.enum(ALERT_CONDITIONS);

export const ZSilence = z.object({
  id: z.string(),
  /** The cluster whose alerts it holds back (only those: a silence never reaches another cluster's alerts). */
  cluster: z.string(),
  /** null: every group. */
  groupId: z.string().nullable(),
  /** null: every condition. */
  condition: ZAlertCondition.nullable(),
  reason: z.string(),
  createdBy: z.string(),
  createdAt: ZIsoTime,
  endsAt: ZIsoTime,
});

export const ZDelivery = z.object({
  attempt: z.number().int().min(1),
  startedAt: ZIsoTime,
  durationMs: z.number().int().min(0),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
  outcome: z.enum(['delivered', 'retry', 'failed']),
  instanceId: z.string(),
});

export const ZNotification = z.object({
  id: z.string(),
  receiver: z.string(),
  kind: z.enum(['firing', 'reminder', 'resolved']),
  status: z.enum(['pending', 'delivered', 'failed', 'silenced', 'skipped']),
  attempts: z.number().int().min(0),
  createdAt: ZIsoTime,
  deliveredAt: ZIsoTime.nullable(),
  lastError: z.string().nullable(),
  deliveries: z.array(ZDelivery),
});

export const ZAlert = z.object({
  id: z.string(),
  /** The watched cluster the alert was evaluated for; `default` for the single-cluster setup. */
  cluster: z.string(),
  condition: ZAlertCondition,
  groupId: z.string().nullable(),
  phase: z.enum(['pending', 'firing', 'resolved', 'dropped']),
  severity: z.enum(ALERT_SEVERITIES),
  activeSince: ZIsoTime,
  firingSince: ZIsoTime.nullable(),
  resolvedAt: ZIsoTime.nullable(),
  summary: z.string(),
  reasons: z.array(z.string()),
  worstTimeLag: z
    .object({
      ms: z.number().nullable(),
      kind: z.string(),
      basis: z.string(),
      topic: z.string(),
      partition: z.number(),
    })
    .nullable(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: ZIsoTime.nullable(),
  /** The active silence that holds this alert's notifications back, if any. */
  silence: ZSilence.nullable(),
  /** The dashboard page that explains it (a path; `?cluster=` for a cluster other than the default). */
  link: z.string(),
  notifications: z.array(ZNotification),
});

/** GET /api/alerts: every cluster's alerts and silences, or one cluster's with ?cluster=. */
export const ZAlertsResponse = z.object({
  generatedAt: ZIsoTime,
  /** Pending and firing, newest first. */
  open: z.array(ZAlert),
  /** Resolved, newest first (the last 100). */
  history: z.array(ZAlert),
  /** Silences not yet ended, ending soonest first. */
  silences: z.array(ZSilence),
});

/** Longest silence an operator can set: a week; a longer one is a disabled condition (ALERT_SETTINGS). */
export const SILENCE_MAX_MINUTES = 7 * 24 * 60;

export const ZSilenceRequest = z
  .object({
    /** A configured cluster (absent: `default`); its alerts alone are held back. */
    cluster: ZClusterName.optional(),
    groupId: ZGroupIdParam.nullable(),
    condition: ZAlertCondition.nullable(),
    durationMinutes: z
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1 minute')
      .max(SILENCE_MAX_MINUTES, `must be at most ${SILENCE_MAX_MINUTES} minutes (a week)`),
    reason: ZAuditReason,
  })
  .refine((s) => s.groupId !== null || s.condition !== null, {
    message: 'name a group, a condition or both (silencing everything is disabling alerts)',
    path: ['groupId'],
  });

export const ZAcknowledgeRequest = z.object({
  comment: z.string().trim().max(500, 'must be at most 500 characters').optional(),
});

/** POST /api/alerts/{id}/acknowledge answers who took the alert, and when. */
export const ZAcknowledgement = z.object({ alertId: z.string(), acknowledgedBy: z.string(), acknowledgedAt: ZIsoTime });

export const ZAlertRouteParams = z.object({ id: z.string().min(1, 'is required').max(600) });

export type TAlert = z.infer<typeof ZAlert>;
export type TAlertsResponse = z.infer<typeof ZAlertsResponse>;
export type TSilence = z.infer<typeof ZSilence>;
export type TSilenceRequest = z.infer<typeof ZSilenceRequest>;
export type TAcknowledgement = z.infer<typeof ZAcknowledgement>;
export type TNotification = z.infer<typeof ZNotification>;

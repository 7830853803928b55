// What a receiver gets. The JSON webhook payload is versioned: fields are only ever added within a version;
// a change of meaning or a removal is a new version. Both bodies are built once, when the notification is
// written to the outbox, so every retry sends the same bytes (and the same signature).

import { createHmac } from 'node:crypto';
import { formatDuration } from '../format';
import { DEFAULT_CLUSTER } from '../schemas/values';
import type { AlertNotification, OpenAlert, WorstTimeLag } from './evaluate-alerts';

export const ALERT_PAYLOAD_VERSION = 1;

/** The header carrying `sha256=<hex HMAC-SHA256 of the raw body>` when ALERT_WEBHOOK_SECRET is set. */
export const SIGNATURE_HEADER = 'x-warden-signature';

export interface AlertPayloadV1 {
  version: 1;
  /** Stable for the alert's episode: deduplicate on alertId + status (+ sequence for reminders). */
  alertId: string;
  /** Stable for this notification across retries. */
  notificationId: string;
  /** 'firing' for the first notification and reminders, 'resolved' once the condition cleared. */
  status: 'firing' | 'resolved';
  kind: 'firing' | 'reminder' | 'resolved';
  condition: string;
  severity: string;
  /** null for cluster-wide conditions (the sampler). */
  group: string | null;
  cluster: string;
  summary: string;
  reasons: string[];
  worstTimeLag: WorstTimeLag | null;
  /** When the condition began (before the `for` duration). */
  activeSince: string;
  firingSince: string | null;
  resolvedAt: string | null;
  acknowledged: boolean;
  /** The dashboard page that explains it. */
  dashboardUrl: string;
}

/**
 * The page that explains an alert of `cluster`: its group's page, the quarantine page (which lists every
 * cluster), or the overview for cluster-wide conditions. Links of the default cluster carry no `?cluster=`.
 */
export function alertLink(
  dashboardUrl: string,
  alert: Pick<OpenAlert, 'groupId' | 'condition'>,
  cluster: string = DEFAULT_CLUSTER,
): string {
  const base = dashboardUrl.replace(/\/+$/, '');
  const query = cluster === DEFAULT_CLUSTER ? '' : `?cluster=${encodeURIComponent(cluster)}`;
  if (alert.groupId === null) return `${base}/${query}`;
  if (alert.condition === 'partition-quarantined') return `${base}/quarantine`;
  return `${base}/groups/${encodeURIComponent(alert.groupId)}${query}`;
}

export function alertPayload(
  notification: AlertNotification,
  context: {
    /** The alert's configured cluster (its links). */
    cluster: string;
    /** What receivers see as `cluster`: ALERT_CLUSTER_NAME for the default cluster, else its name. */
    clusterLabel: string;
    dashboardUrl: string;
    nowMs: number;
  },
): AlertPayloadV1 {
  const { alert, kind } = notification;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    version: ALERT_PAYLOAD_VERSION,
    alertId: alert.id,
    notificationId: notification.dedupeKey,
    status: kind === 'resolved' ? 'resolved' : 'firing',
    kind,
    condition: alert.condition,
    severity: alert.severity,
    group: alert.groupId,
    cluster: context.clusterLabel,
    summary: alert.summary,
    reasons: alert.reasons,
    worstTimeLag: alert.worstTimeLag,
    activeSince: new Date(alert.activeSinceMs).toISOString(),
    firingSince: iso(alert.firingSinceMs),
    resolvedAt: kind === 'resolved' ? iso(context.nowMs) : null,
    acknowledged: alert.acknowledgedAtMs !== null,
    dashboardUrl: alertLink(context.dashboardUrl, alert, context.cluster),
  };
}

const SEVERITY_MARK: Record<string, string> = {
  critical: ':red_circle:',
  warning: ':large_orange_circle:',
  info: ':large_blue_circle:',
};

/** A Slack incoming-webhook message (text plus blocks; mrkdwn escaped) carrying the same facts. */
export function slackMessage(payload: AlertPayloadV1): { text: string; blocks: unknown[] } {
  const mark = payload.status === 'resolved' ? ':white_check_mark:' : (SEVERITY_MARK[payload.severity] ?? '');
  const title = `${mark} [${payload.status.toUpperCase()}${payload.kind === 'reminder' ? ', reminder' : ''}] ${payload.summary}`;
  const facts = [
    `*Condition:* ${payload.condition} (${payload.severity})`,
    `*Cluster:* ${payload.cluster}${payload.group === null ? '' : `  *Group:* ${payload.group}`}`,
    payload.worstTimeLag?.ms != null
      ? `*Worst time lag:* ${formatDuration(payload.worstTimeLag.ms / 1000)} on ${payload.worstTimeLag.topic}-${payload.worstTimeLag.partition} (${payload.worstTimeLag.kind})`
      : null,
    payload.firingSince ? `*Firing since:* ${payload.firingSince}` : null,
  ].filter((line): line is string => line !== null);
  const reasons = payload.reasons.slice(0, 10).map((r) => `• ${escapeSlack(r)}`);
  if (payload.reasons.length > 10) reasons.push(`• … and ${payload.reasons.length - 10} more`);
  return {
    text: escapeSlack(title),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeSlack(title)}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: [...facts.map(escapeSlack), ...reasons].join('\n') } },
      { type: 'section', text: { type: 'mrkdwn', text: `<${payload.dashboardUrl}|Open in Warden>` } },
    ],
  };
}

/** `sha256=<hex>` of the body under the shared secret. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

import { alertLink } from '../alerts/alert-payload';
import type { Database } from '../db';
import { ZAlertsResponse, type TAlert, type TAlertsResponse, type TSilence } from '../schemas/alerts';

const HISTORY_LIMIT = 100;
const NOTIFICATIONS_PER_ALERT = 20;

type AlertRow = Awaited<ReturnType<typeof loadAlerts>>[number];
type SilenceRow = Awaited<ReturnType<Database['alertSilence']['findMany']>>[number];

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

function loadAlerts(db: Database, where: { cluster?: string; phase: { in: string[] } }, take?: number) {
  return db.alert.findMany({
    where,
    orderBy: [{ activeSince: 'desc' }, { id: 'asc' }],
    take,
    include: {
      notifications: {
        orderBy: { id: 'desc' },
        take: NOTIFICATIONS_PER_ALERT,
        include: { deliveries: { orderBy: { attempt: 'asc' } } },
      },
    },
  });
}

export function silenceJson(row: SilenceRow): TSilence {
  return {
    id: row.id.toString(),
    cluster: row.cluster,
    groupId: row.groupId,
    condition: row.condition as TSilence['condition'],
    reason: row.reason,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
  };
}

function alertJson(row: AlertRow, silences: TSilence[]): TAlert {
  // A silence holds back its own cluster's alerts only, as the evaluator applies it.
  const silence =
    silences.find(
      (s) =>
        s.cluster === row.cluster &&
        (s.groupId === null || s.groupId === row.groupId) &&
        (s.condition === null || s.condition === row.condition),
    ) ?? null;
  return ZAlertsResponse.shape.open.element.parse({
    id: row.id,
    cluster: row.cluster,
    condition: row.condition,
    groupId: row.groupId,
    phase: row.phase,
    severity: row.severity,
    activeSince: row.activeSince.toISOString(),
    firingSince: iso(row.firingSince),
    resolvedAt: iso(row.resolvedAt),
    summary: row.summary,
    reasons: row.reasons,
    worstTimeLag: row.worstTimeLag ?? null,
    acknowledgedBy: row.acknowledgedBy,
    acknowledgedAt: iso(row.acknowledgedAt),
    silence: row.phase === 'pending' || row.phase === 'firing' ? silence : null,
    link: alertLink('', { groupId: row.groupId, condition: row.condition as TAlert['condition'] }, row.cluster),
    notifications: row.notifications.map((n) => ({
      id: n.id.toString(),
      receiver: n.receiver,
      kind: n.kind,
      status: n.status,
      attempts: n.attempts,
      createdAt: n.createdAt.toISOString(),
      deliveredAt: iso(n.deliveredAt),
      lastError: n.lastError,
      deliveries: n.deliveries.map((d) => ({
        attempt: d.attempt,
        startedAt: d.startedAt.toISOString(),
        durationMs: d.durationMs,
        statusCode: d.statusCode,
        error: d.error,
        outcome: d.outcome,
        instanceId: d.instanceId,
      })),
    })),
  });
}

/**
 * GET /api/alerts: open alerts, the recent history, active silences; each alert with its notifications'
 * deliveries. Of every cluster, or of `cluster` alone (a name the route has checked is configured).
 */
export async function listAlerts(
  db: Database,
  options: { cluster?: string | null } = {},
  now = new Date(),
): Promise<TAlertsResponse> {
  const scope = options.cluster ? { cluster: options.cluster } : {};
  const [open, history, silenceRows] = await Promise.all([
    loadAlerts(db, { ...scope, phase: { in: ['pending', 'firing'] } }),
    loadAlerts(db, { ...scope, phase: { in: ['resolved'] } }, HISTORY_LIMIT),
    db.alertSilence.findMany({
      where: { ...scope, endsAt: { gt: now } },
      orderBy: [{ endsAt: 'asc' }, { id: 'asc' }],
    }),
  ]);
  const silences = silenceRows.map(silenceJson);
  return ZAlertsResponse.parse({
    generatedAt: now.toISOString(),
    open: open.map((row) => alertJson(row, silences)),
    history: history.map((row) => alertJson(row, silences)),
    silences,
  });
}

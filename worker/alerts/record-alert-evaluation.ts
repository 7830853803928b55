import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { Prisma } from '../../lib/generated/prisma/client';
import type { AlertCondition, AlertSettingsTable, AlertSeverity } from '../../lib/alerts/alert-settings';
import { alertPayload, slackMessage } from '../../lib/alerts/alert-payload';
import {
  alertKey,
  evaluateAlerts,
  type AlertEvaluation,
  type AlertObservation,
  type OpenAlert,
  type WorstTimeLag,
} from '../../lib/alerts/evaluate-alerts';
import { analyzeGroups, type GroupFindings } from '../../lib/groups/summarize-groups';

/** Where notifications go; each configured receiver gets its own outbox row (delivered and retried alone). */
export interface AlertReceivers {
  webhook: boolean;
  slack: boolean;
}

export interface AlertEvaluationContext {
  settings: AlertSettingsTable;
  receivers: AlertReceivers;
  /** The configured cluster this evaluation covers: its groups, quarantines, silences and alert rows. */
  cluster: string;
  /** What receivers see as the alert's cluster: ALERT_CLUSTER_NAME for the default cluster, else its name. */
  clusterLabel: string;
  dashboardUrl: string;
  timeLagObjectiveMs: number | null;
  rateWindowMs: number;
  workerStaleAfterMs: number;
}

export interface SamplerHealth {
  failingSinceMs: number | null;
  failedRounds: number;
  lastError: string | null;
}

/**
 * The cluster's groups as the overview lists them (analyzeGroups, the overview's own analysis, so an alert
 * says exactly what the dashboard shows), each with what the alerts read of its partitions, or null while its
 * sampler is failing (its newest rounds are stale).
 */
export function summarizeForAlerts(
  db: Database,
  context: AlertEvaluationContext,
  health: SamplerHealth,
  nowMs: number,
): Promise<GroupFindings[] | null> {
  if (health.failingSinceMs !== null) return Promise.resolve(null);
  return analyzeGroups(db, [context.cluster], {
    timeLagObjectiveMs: context.timeLagObjectiveMs,
    rateWindowMs: context.rateWindowMs,
    now: new Date(nowMs),
  });
}

/**
 * What `context.cluster`'s sampler just wrote, as the evaluator sees it: `groups` from summarizeForAlerts.
 * Worker heartbeats and quarantine releases belong to Warden's own consumers, which run on the default
 * cluster: only its evaluation sees them.
 */
export async function observeForAlerts(
  db: Database,
  context: AlertEvaluationContext,
  health: SamplerHealth,
  groups: readonly GroupFindings[] | null,
  nowMs: number,
): Promise<AlertObservation> {
  const { cluster } = context;
  const ownConsumers = cluster === DEFAULT_CLUSTER;
  const [quarantines, heartbeats, releases] = await Promise.all([
    db.partitionQuarantine.findMany({
      where: { cluster },
      select: { groupId: true, topic: true, partition: true, offset: true, reason: true, since: true },
    }),
    ownConsumers ? db.workerHeartbeat.findMany() : [],
    db.operatorAction.findMany({
      where: { cluster, status: 'done', completedAt: { gte: new Date(nowMs - 15 * 60_000) } },
      orderBy: { completedAt: 'desc' },
      select: { groupId: true, topic: true, partition: true, action: true, requestedBy: true },
    }),
  ]);
  // A stale heartbeat followed by a newer instance of the same group is a restart that replaced it.
  const workers = heartbeats.filter(
    (h) =>
      nowMs - h.reportedAt.getTime() <= context.workerStaleAfterMs ||
      !heartbeats.some((other) => other.groupId === h.groupId && other.startedAt > h.reportedAt),
  );
  return {
    nowMs,
    groups:
      groups?.map(({ summary: g, problems, retention, losses }) => ({
        groupId: g.groupId,
        status: g.status,
        reasons: g.statusReasons,
        worstTimeLag: g.worstTimeLag,
        timeLagObjectiveMs: context.timeLagObjectiveMs,
        problems,
        retention,
        losses,
        quarantined: quarantines
          .filter((q) => q.groupId === g.groupId)
          .map((q) => ({
            topic: q.topic,
            partition: q.partition,
            offset: q.offset.toString(),
            reason: q.reason,
            sinceMs: q.since.getTime(),
          })),
      })) ?? null,
    sampler: health,
    workers: workers.map((w) => ({
      groupId: w.groupId,
      instanceId: w.instanceId,
      ready: w.ready,
      detail: w.detail,
      reportedAtMs: w.reportedAt.getTime(),
    })),
    workerStaleAfterMs: context.workerStaleAfterMs,
    releases,
  };
}

const EVALUATION_LOCK = 'warden_alert_evaluation';

/** One cluster's evaluation lock: clusters are evaluated independently (each by its own sampler's leader). */
function evaluationLockName(cluster: string): string {
  return cluster === DEFAULT_CLUSTER ? EVALUATION_LOCK : `${EVALUATION_LOCK}:${cluster}`;
}

/** Alert ids of the default cluster are unscoped (as before clusters); every other cluster's begin `<name>/`. */
export function alertIdScope(cluster: string): string {
  return cluster === DEFAULT_CLUSTER ? '' : `${cluster}/`;
}

/**
 * Evaluates one round and records it: the alerts' new state and their notifications (one outbox row per
 * receiver) in one transaction, under a transaction-scoped advisory lock so two instances that both believe
 * they lead (a failover) evaluate one after the other, never interleaved. A crash before the commit writes
 * nothing; the next round evaluates again. The dedupe keys make a repeated evaluation write no notification
 * twice. Acknowledgements are written by the dashboard and never overwritten here.
 */
export async function recordAlertEvaluation(
  db: Database,
  context: AlertEvaluationContext,
  observation: AlertObservation,
): Promise<AlertEvaluation> {
  const now = new Date(observation.nowMs);
  const { cluster } = context;
  return db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${evaluationLockName(cluster)}))`;
      const [openRows, silences] = await Promise.all([
        tx.alert.findMany({ where: { cluster, phase: { in: ['pending', 'firing'] } } }),
        tx.alertSilence.findMany({ where: { cluster, endsAt: { gt: now } } }),
      ]);
      const evaluate = (closedIds: ReadonlySet<string>) =>
        evaluateAlerts({
          observation,
          previous: openRows.map(openAlertFromRow),
          silences: silences.map((s) => ({
            id: s.id.toString(),
            groupId: s.groupId,
            condition: s.condition as AlertCondition | null,
            endsAtMs: s.endsAt.getTime(),
          })),
          settings: context.settings,
          closedIds,
          idScope: alertIdScope(cluster),
        });
      const known = new Set(openRows.map((r) => r.id));
      let evaluation = evaluate(new Set());
      // A new alert whose id a closed alert of the same key already holds is evaluated again with those ids
      // taken, so it opens under a free one instead of failing the whole round's transaction on the key.
      const newKeys = evaluation.open.filter((a) => !known.has(a.id)).map((a) => alertKey(a.condition, a.groupId));
      if (newKeys.length > 0) {
        const closed = await tx.alert.findMany({
          where: { cluster, key: { in: newKeys }, phase: { notIn: ['pending', 'firing'] } },
          select: { id: true },
        });
        if (closed.length > 0) evaluation = evaluate(new Set(closed.map((r) => r.id)));
      }
      for (const alert of evaluation.open) {
        const fields = alertFields(alert, now);
        if (known.has(alert.id)) await tx.alert.update({ where: { id: alert.id }, data: fields });
        else
          await tx.alert.create({
            data: { id: alert.id, cluster, key: alertKey(alert.condition, alert.groupId), ...fields },
          });
      }
      for (const alert of evaluation.resolved) {
        await tx.alert.update({
          where: { id: alert.id },
          data: { ...alertFields(alert, now), phase: 'resolved', resolvedAt: now },
        });
      }
      for (const alert of evaluation.dropped) {
        await tx.alert.update({ where: { id: alert.id }, data: { phase: 'dropped', resolvedAt: now, updatedAt: now } });
      }
      const rows: Prisma.AlertNotificationCreateManyInput[] = [];
      for (const notification of evaluation.notifications) {
        const payload = alertPayload(notification, {
          cluster,
          clusterLabel: context.clusterLabel,
          dashboardUrl: context.dashboardUrl,
          nowMs: observation.nowMs,
        });
        const base = {
          alertId: notification.alert.id,
          dedupeKey: notification.dedupeKey,
          kind: notification.kind,
          status: notification.silencedBy === null ? 'pending' : 'silenced',
          silenceId: notification.silencedBy === null ? null : BigInt(notification.silencedBy),
          nextAttemptAt: now,
          createdAt: now,
        };
        if (context.receivers.webhook) rows.push({ ...base, receiver: 'webhook', body: JSON.stringify(payload) });
        if (context.receivers.slack)
          rows.push({ ...base, receiver: 'slack', body: JSON.stringify(slackMessage(payload)) });
        if (!context.receivers.webhook && !context.receivers.slack) {
          rows.push({
            ...base,
            receiver: 'none',
            body: JSON.stringify(payload),
            status: base.status === 'pending' ? 'skipped' : base.status,
            lastError: 'no receiver configured (ALERT_WEBHOOK_URL, ALERT_SLACK_WEBHOOK_URL)',
          });
        }
      }
      if (rows.length > 0) await tx.alertNotification.createMany({ data: rows, skipDuplicates: true });
      return evaluation;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
}

function alertFields(alert: OpenAlert, now: Date) {
  const date = (ms: number | null) => (ms === null ? null : new Date(ms));
  return {
    condition: alert.condition,
    groupId: alert.groupId,
    phase: alert.phase,
    severity: alert.severity,
    activeSince: new Date(alert.activeSinceMs),
    firingSince: date(alert.firingSinceMs),
    lastNotifiedAt: date(alert.lastNotifiedMs),
    notificationCount: alert.notificationCount,
    summary: alert.summary,
    reasons: alert.reasons,
    worstTimeLag:
      alert.worstTimeLag === null ? Prisma.DbNull : (alert.worstTimeLag as unknown as Prisma.InputJsonValue),
    updatedAt: now,
  };
}

type AlertRow = Awaited<ReturnType<Database['alert']['findMany']>>[number];

function openAlertFromRow(row: AlertRow): OpenAlert {
  return {
    id: row.id,
    condition: row.condition as AlertCondition,
    groupId: row.groupId,
    phase: row.phase as OpenAlert['phase'],
    severity: row.severity as AlertSeverity,
    activeSinceMs: row.activeSince.getTime(),
    firingSinceMs: row.firingSince?.getTime() ?? null,
    lastNotifiedMs: row.lastNotifiedAt?.getTime() ?? null,
    notificationCount: row.notificationCount,
    acknowledgedAtMs: row.acknowledgedAt?.getTime() ?? null,
    summary: row.summary,
    reasons: row.reasons as string[],
    worstTimeLag: (row.worstTimeLag as WorstTimeLag | null) ?? null,
  };
}

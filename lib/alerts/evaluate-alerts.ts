// The alert evaluator: pure. Given what the sampler just wrote (group statuses, time lag, quarantines, its
// own round health, worker heartbeats), the open alerts of the previous evaluation, the active silences and
// the clock, it says which alerts are pending, which fire, which send a reminder and which resolve.
//
// Invariants:
// - One alert per condition and group (the cluster for cluster-wide conditions): a group with ten lagging
//   partitions has one alert whose reasons name them, never ten.
// - An alert fires only after its condition held `forMs` without a gap; a round that no longer sees it ends a
//   pending alert silently and resolves a firing one.
// - Every notification has a stable dedupe key (alert id, kind, sequence): evaluating the same rounds twice
//   writes nothing twice, and receivers can deduplicate at-least-once delivery by alert id and status.
// - A silenced alert still changes state and is notified as `silenced` (audited), never delivered. An
//   acknowledged alert sends no reminders; its resolution is still sent.
// - Groups unknown this round (the cluster could not be read) keep their alerts as they are.
// - One incident, one notification (one-incident.ts): group-status speaks only for causes no other alert of the
//   group holds for. While every cause of a group's status is explained, it raises nothing: no new alert, a
//   pending one is dropped, a firing one keeps firing without reminders until the group is OK again.

import type { GroupStatus } from '../lag/partition-status';
import { formatDuration, plural } from '../format';
import { formatOffset } from '../analysis/retention';
import {
  CLUSTER_CONDITIONS,
  resolveConditionSettings,
  retentionRiskThresholdMs,
  type AlertCondition,
  type AlertSettingsTable,
  type AlertSeverity,
} from './alert-settings';
import { groupStatusCauses, type StatusPartition } from './one-incident';

export interface WorstTimeLag {
  ms: number | null;
  kind: string;
  basis: string;
  topic: string;
  partition: number;
}

export interface GroupObservation {
  groupId: string;
  status: GroupStatus;
  /** The status's reasons, most severe first (lib/lag/partition-status.ts). */
  reasons: readonly string[];
  worstTimeLag: WorstTimeLag | null;
  timeLagObjectiveMs: number | null;
  quarantined: ReadonlyArray<{ topic: string; partition: number; offset: string; reason: string; sinceMs: number }>;
  /** Partitions whose status is not OK (LOST or Burrow's), with Burrow's own. */
  problems: readonly StatusPartition[];
  /** Partitions whose unread records retention is set to delete: the window (ms from the round), retention.ms. */
  retention?: ReadonlyArray<{
    topic: string;
    partition: number;
    earliestMs: number | null;
    latestMs: number | null;
    retentionMs: number | null;
    basis: string;
  }>;
  /** Record-loss episodes nobody acknowledged, with their sentence. */
  losses?: ReadonlyArray<{ topic: string; partition: number; count: bigint; summary: string; detectedAtMs: number }>;
}

export interface WorkerObservation {
  groupId: string;
  instanceId: string;
  ready: boolean;
  detail: string;
  reportedAtMs: number;
}

/** How a quarantined partition was let go: the operator action that released it, when one did. */
export interface QuarantineRelease {
  groupId: string;
  topic: string;
  partition: number;
  action: string;
  requestedBy: string;
}

export interface AlertObservation {
  nowMs: number;
  /** null: the round could not read the cluster; group conditions keep their alerts unchanged. */
  groups: readonly GroupObservation[] | null;
  sampler: { failingSinceMs: number | null; failedRounds: number; lastError: string | null };
  workers: readonly WorkerObservation[];
  /** A worker whose last heartbeat is older than this has disappeared. */
  workerStaleAfterMs: number;
  releases?: readonly QuarantineRelease[];
}

export interface Silence {
  id: string;
  /** null: every group. */
  groupId: string | null;
  /** null: every condition. */
  condition: AlertCondition | null;
  endsAtMs: number;
}

export interface OpenAlert {
  /** Stable for one episode (from pending to resolved): condition, group and when the condition began. */
  id: string;
  condition: AlertCondition;
  /** null for cluster-wide conditions. */
  groupId: string | null;
  phase: 'pending' | 'firing';
  severity: AlertSeverity;
  /** When the condition was first seen holding in this episode. */
  activeSinceMs: number;
  firingSinceMs: number | null;
  lastNotifiedMs: number | null;
  /** Notifications written so far (firing, reminders): the sequence of the next one. */
  notificationCount: number;
  acknowledgedAtMs: number | null;
  summary: string;
  reasons: string[];
  worstTimeLag: WorstTimeLag | null;
}

export type NotificationKind = 'firing' | 'reminder' | 'resolved';

export interface AlertNotification {
  dedupeKey: string;
  kind: NotificationKind;
  alert: OpenAlert;
  /** The silence that holds it back (it is recorded, not delivered); null: deliver. */
  silencedBy: string | null;
}

export interface AlertEvaluation {
  /** Alerts pending or firing after this round. */
  open: OpenAlert[];
  /** Firing alerts whose condition cleared this round. */
  resolved: OpenAlert[];
  /** Pending alerts whose condition cleared before they fired (never notified). */
  dropped: OpenAlert[];
  notifications: AlertNotification[];
}

interface ConditionFinding {
  condition: AlertCondition;
  groupId: string | null;
  /** The condition's own start when it knows one (a quarantine's time, the sampler's first failed round). */
  sinceMs: number | null;
  summary: string;
  reasons: string[];
  worstTimeLag: WorstTimeLag | null;
  /** group-status only: every cause of the status is told by another alert (one-incident.ts). */
  explained?: boolean;
}

export const alertKey = (condition: AlertCondition, groupId: string | null): string => `${condition}:${groupId ?? '*'}`;

/**
 * One evaluation round. `previous` are the open alerts the last round returned (loaded from the alert table);
 * throws RangeError when the clock is not finite.
 */
export function evaluateAlerts(input: {
  observation: AlertObservation;
  previous: readonly OpenAlert[];
  silences: readonly Silence[];
  settings: AlertSettingsTable;
  /**
   * Ids already taken by closed (resolved or dropped) alerts. A new alert's id is `<key>:<active since>`; an
   * episode that closes and opens again with the same start (a quarantine alert dropped while pending, then
   * found again with the quarantine's unchanged `since`) gets the next free `:<n>` suffix instead.
   */
  closedIds?: ReadonlySet<string>;
  /**
   * Prefixes every new alert's id: one evaluation covers one cluster, and two clusters may watch groups of
   * the same name, so every cluster but the default one scopes its ids (`<cluster>/<key>:<active since>`).
   */
  idScope?: string;
}): AlertEvaluation {
  const { observation, settings } = input;
  const nowMs = observation.nowMs;
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite, got ${nowMs}`);
  const findings = new Map(findConditions(observation, settings).map((f) => [alertKey(f.condition, f.groupId), f]));
  const previous = new Map(input.previous.map((a) => [alertKey(a.condition, a.groupId), a]));
  const knownGroups = observation.groups === null ? null : new Set(observation.groups.map((g) => g.groupId));
  const result: AlertEvaluation = { open: [], resolved: [], dropped: [], notifications: [] };
  const notify = (kind: NotificationKind, alert: OpenAlert, sequence: number) => {
    const silence = input.silences.find(
      (s) =>
        s.endsAtMs > nowMs &&
        (s.groupId === null || s.groupId === alert.groupId) &&
        (s.condition === null || s.condition === alert.condition),
    );
    result.notifications.push({
      dedupeKey: `${alert.id}:${kind}:${sequence}`,
      kind,
      alert,
      silencedBy: silence?.id ?? null,
    });
  };

  const keys = new Set([...findings.keys(), ...previous.keys()]);
  for (const key of [...keys].sort()) {
    const finding = findings.get(key);
    const before = previous.get(key);
    const condition = (finding ?? before)!.condition;
    const groupId = (finding ?? before)!.groupId;
    const conditionSettings = resolveConditionSettings(settings, condition, groupId);
    const unknown = groupId !== null && condition !== 'worker-not-ready' && knownGroups === null;
    if (unknown && before) {
      result.open.push(before);
      continue;
    }
    // A group-status whose every cause another alert tells opens nothing, and a pending one never fires.
    const quiet = finding?.explained === true;
    const holds = finding !== undefined && conditionSettings.enabled && !(quiet && before?.phase !== 'firing');
    if (!holds) {
      if (!before) continue;
      if (before.phase === 'pending') {
        result.dropped.push(before);
        continue;
      }
      const releases = condition === 'partition-quarantined' ? releaseReasons(observation, before) : [];
      const resolved: OpenAlert = {
        ...before,
        summary: `resolved: ${before.summary}`,
        reasons: releases.length > 0 ? releases : before.reasons,
        lastNotifiedMs: nowMs,
      };
      result.resolved.push(resolved);
      notify('resolved', resolved, before.notificationCount);
      continue;
    }
    const activeSinceMs = before?.activeSinceMs ?? Math.min(finding.sinceMs ?? nowMs, nowMs);
    let alert: OpenAlert = {
      id: before?.id ?? freeAlertId(`${input.idScope ?? ''}${key}:${activeSinceMs}`, input.closedIds),
      condition,
      groupId,
      phase: before?.phase ?? 'pending',
      severity: conditionSettings.severity,
      activeSinceMs,
      firingSinceMs: before?.firingSinceMs ?? null,
      lastNotifiedMs: before?.lastNotifiedMs ?? null,
      notificationCount: before?.notificationCount ?? 0,
      acknowledgedAtMs: before?.acknowledgedAtMs ?? null,
      summary: finding.summary,
      reasons: finding.reasons,
      worstTimeLag: finding.worstTimeLag,
    };
    if (alert.phase === 'pending' && nowMs - activeSinceMs >= conditionSettings.forMs) {
      alert = { ...alert, phase: 'firing', firingSinceMs: nowMs, lastNotifiedMs: nowMs, notificationCount: 1 };
      notify('firing', alert, 0);
    } else if (
      alert.phase === 'firing' &&
      !quiet &&
      alert.acknowledgedAtMs === null &&
      conditionSettings.repeatMs > 0 &&
      alert.lastNotifiedMs !== null &&
      nowMs - alert.lastNotifiedMs >= conditionSettings.repeatMs
    ) {
      const sequence = alert.notificationCount;
      alert = { ...alert, lastNotifiedMs: nowMs, notificationCount: sequence + 1 };
      notify('reminder', alert, sequence);
    }
    result.open.push(alert);
  }
  return result;
}

function findConditions(observation: AlertObservation, settings: AlertSettingsTable): ConditionFinding[] {
  const findings: ConditionFinding[] = [];
  const { nowMs } = observation;
  const statusFindings: ConditionFinding[] = [];
  for (const group of observation.groups ?? []) {
    const base = { groupId: group.groupId, worstTimeLag: group.worstTimeLag };
    const worst = group.worstTimeLag;
    const objectiveBreached =
      group.timeLagObjectiveMs !== null && worst !== null && worst.ms !== null && worst.ms > group.timeLagObjectiveMs;
    if (group.status !== 'OK') {
      statusFindings.push({
        ...base,
        condition: 'group-status',
        sinceMs: null,
        summary: `${group.groupId} is ${group.status}: ${group.reasons[0] ?? 'no reason given'}`,
        reasons: [...group.reasons],
        // Decided below, once the group's other findings are known.
        explained: false,
      });
    }
    findings.push(...retentionFindings(group, settings), ...lossFindings(group));
    if (objectiveBreached && worst !== null && worst.ms !== null && group.timeLagObjectiveMs !== null) {
      findings.push({
        ...base,
        condition: 'time-lag-objective',
        sinceMs: null,
        summary: `${group.groupId}: worst time lag ${formatDuration(worst.ms / 1000)} is above the ${formatDuration(group.timeLagObjectiveMs / 1000)} objective`,
        reasons: [
          `${worst.topic}-${worst.partition}: time lag ${formatDuration(worst.ms / 1000)} (${worst.kind}, ${worst.basis})`,
        ],
      });
    }
    if (group.quarantined.length > 0) {
      const sorted = [...group.quarantined].sort((a, b) =>
        a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
      );
      findings.push({
        ...base,
        condition: 'partition-quarantined',
        sinceMs: Math.min(...sorted.map((q) => q.sinceMs)),
        summary: `${group.groupId}: ${sorted.length} partition${sorted.length === 1 ? '' : 's'} quarantined`,
        reasons: sorted.map((q) => `${q.topic}-${q.partition} quarantined at offset ${q.offset}: ${q.reason}`),
      });
    }
  }
  const { sampler } = observation;
  findings.push(...statusFindings.map((finding) => explainStatus(finding, observation, findings, settings)));
  if (sampler.failingSinceMs !== null) {
    findings.push({
      condition: 'sampler-gap',
      groupId: null,
      worstTimeLag: null,
      sinceMs: sampler.failingSinceMs,
      summary: `the sampler cannot read the cluster (${sampler.failedRounds} failed round${sampler.failedRounds === 1 ? '' : 's'} over ${formatDuration(Math.max(0, nowMs - sampler.failingSinceMs) / 1000)})`,
      reasons: [sampler.lastError ?? 'no error recorded'],
    });
  }
  const troubled = new Map<string, string[]>();
  for (const { groupId, reason } of workerTrouble(observation))
    troubled.set(groupId, [...(troubled.get(groupId) ?? []), reason]);
  for (const [groupId, reasons] of troubled) {
    findings.push({
      condition: 'worker-not-ready',
      groupId,
      worstTimeLag: observation.groups?.find((g) => g.groupId === groupId)?.worstTimeLag ?? null,
      sinceMs: null,
      summary: `${groupId}: ${reasons.length} worker${reasons.length === 1 ? '' : 's'} not ready or gone`,
      reasons,
    });
  }
  return findings.filter((f) => (f.groupId === null) === CLUSTER_CONDITIONS.has(f.condition));
}

/**
 * A group-status finding with `explained` set: true when each cause of the status is told by another condition
 * of the group that holds this round (found and enabled; one-incident.ts). A non-OK status with no cause the
 * rule knows is never explained.
 */
function explainStatus(
  finding: ConditionFinding,
  observation: AlertObservation,
  findings: readonly ConditionFinding[],
  settings: AlertSettingsTable,
): ConditionFinding {
  const group = observation.groups?.find((g) => g.groupId === finding.groupId);
  if (!group) return finding;
  const holding = new Set(
    [
      ...findings.filter((f) => f.groupId === group.groupId).map((f) => f.condition),
      ...workerTrouble(observation)
        .filter((t) => t.groupId === group.groupId)
        .map(() => 'worker-not-ready' as const),
    ].filter((condition) => resolveConditionSettings(settings, condition, group.groupId).enabled),
  );
  const worst = group.worstTimeLag;
  const { causes, unexplained } = groupStatusCauses({
    problems: group.problems,
    quarantined: group.quarantined,
    objectiveBreached:
      group.timeLagObjectiveMs !== null && worst !== null && worst.ms !== null && worst.ms > group.timeLagObjectiveMs,
    holding,
  });
  return { ...finding, explained: causes.length > 0 && unexplained.length === 0 };
}

/** retention-risk: the group's partitions whose earliest possible deletion is below the group's threshold. */
function retentionFindings(group: GroupObservation, table: AlertSettingsTable): ConditionFinding[] {
  const settings = resolveConditionSettings(table, 'retention-risk', group.groupId);
  const soon = (group.retention ?? [])
    .flatMap((r) => {
      const earliestMs = r.earliestMs ?? r.latestMs;
      const thresholdMs = retentionRiskThresholdMs(settings, r.retentionMs);
      return earliestMs !== null && earliestMs < thresholdMs
        ? [{ ...r, earliestPossibleMs: earliestMs, thresholdMs }]
        : [];
    })
    .sort((a, b) => a.earliestPossibleMs - b.earliestPossibleMs);
  const first = soon[0];
  if (!first) return [];
  const inText = (ms: number) => (ms <= 0 ? 'at any moment' : `in ${formatDuration(ms / 1000)}`);
  return [
    {
      condition: 'retention-risk',
      groupId: group.groupId,
      worstTimeLag: group.worstTimeLag,
      sinceMs: null,
      summary:
        `${group.groupId}: records of ${first.topic}-${first.partition} can be deleted unread ${inText(first.earliestPossibleMs)}` +
        (soon.length > 1 ? ` (and of ${plural(soon.length - 1, 'more partition')} within the threshold)` : ''),
      reasons: soon.map(
        (r) =>
          `${r.topic}-${r.partition}: unread records can be deleted ${r.earliestMs === null ? `by ${formatDuration(r.latestMs! / 1000)} at the latest` : inText(r.earliestMs)}` +
          `${r.earliestMs !== null && r.latestMs !== null ? ` (at the latest in ${formatDuration(r.latestMs / 1000)})` : ''}, ` +
          `below the ${formatDuration(r.thresholdMs / 1000)} threshold; ${r.basis}`,
      ),
    },
  ];
}

/** records-lost: the group's loss episodes nobody acknowledged; it resolves when they all are. */
function lossFindings(group: GroupObservation): ConditionFinding[] {
  const losses = [...(group.losses ?? [])].sort((a, b) =>
    a.topic === b.topic ? a.partition - b.partition || a.detectedAtMs - b.detectedAtMs : a.topic < b.topic ? -1 : 1,
  );
  if (losses.length === 0) return [];
  const records = losses.reduce((sum, l) => sum + l.count, 0n);
  const partitions = new Set(losses.map((l) => `${l.topic}-${l.partition}`)).size;
  return [
    {
      condition: 'records-lost',
      groupId: group.groupId,
      worstTimeLag: group.worstTimeLag,
      sinceMs: Math.min(...losses.map((l) => l.detectedAtMs)),
      summary: `${group.groupId}: ${formatOffset(records)} ${records === 1n ? 'record' : 'records'} deleted unread on ${plural(partitions, 'partition')}`,
      reasons: losses.map((l) => `${l.topic}-${l.partition}: ${l.summary}`),
    },
  ];
}

/** The workers not ready or gone, each with why, by instance id. */
function workerTrouble(observation: AlertObservation): Array<{ groupId: string; reason: string }> {
  const trouble: Array<{ groupId: string; reason: string }> = [];
  for (const worker of [...observation.workers].sort((a, b) => a.instanceId.localeCompare(b.instanceId))) {
    const silentMs = observation.nowMs - worker.reportedAtMs;
    const reason =
      silentMs > observation.workerStaleAfterMs
        ? `worker ${worker.instanceId} has not reported for ${formatDuration(silentMs / 1000)} (gone from its group)`
        : !worker.ready
          ? `worker ${worker.instanceId} is not ready: ${worker.detail}`
          : null;
    if (reason !== null) trouble.push({ groupId: worker.groupId, reason });
  }
  return trouble;
}

function releaseReasons(observation: AlertObservation, alert: OpenAlert): string[] {
  return (observation.releases ?? [])
    .filter((r) => r.groupId === alert.groupId)
    .map((r) => `${r.topic}-${r.partition} released: ${r.action} by ${r.requestedBy}`);
}

/** `base`, or `base:2`, `base:3`… when closed alerts hold the lower ones; deterministic, so a replay agrees. */
function freeAlertId(base: string, closedIds: ReadonlySet<string> | undefined): string {
  if (!closedIds?.has(base)) return base;
  let n = 2;
  while (closedIds.has(`${base}:${n}`)) n++;
  return `${base}:${n}`;
}

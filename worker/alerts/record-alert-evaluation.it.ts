import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAlertSettings } from '../../lib/alerts/alert-settings';
import type { AlertPayloadV1 } from '../../lib/alerts/alert-payload';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { alertKey } from '../../lib/alerts/evaluate-alerts';
import {
  observeForAlerts,
  recordAlertEvaluation,
  summarizeForAlerts,
  type AlertEvaluationContext,
} from './record-alert-evaluation';

// Evaluation on the real Postgres: group statuses read through listGroups (what the overview shows), the
// alert state and the outbox written in one transaction, repeated evaluations writing nothing twice.

const healthy = { failingSinceMs: null, failedRounds: 0, lastError: null };

describe('observeForAlerts and recordAlertEvaluation', () => {
  let db: Database;
  const context: AlertEvaluationContext = {
    settings: parseAlertSettings(
      JSON.stringify({
        '*': {
          'group-status': { forMs: 0, repeatMs: 60_000 },
          'partition-quarantined': { forMs: 0, repeatMs: 60_000 },
          'worker-not-ready': { forMs: 0 },
        },
      }),
    ),
    receivers: { webhook: true, slack: true },
    cluster: 'default',
    clusterLabel: 'test-cluster',
    dashboardUrl: 'http://127.0.0.1:3000',
    timeLagObjectiveMs: null,
    rateWindowMs: 60_000,
    workerStaleAfterMs: 15_000,
  };

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function sampledGroup(groupId: string, atMs: number, cluster = 'default'): Promise<void> {
    await db.lagSample.createMany({
      data: [0, 1, 2].map((i) => ({
        cluster,
        sampledAt: new Date(atMs - (2 - i) * 5_000),
        groupId,
        topic: `${groupId}-t`,
        partition: 0,
        committedOffset: BigInt(10 + i),
        logStartOffset: 0n,
        logEndOffset: BigInt(12 + i),
        lag: 2n,
        groupState: 'Stable',
      })),
    });
  }

  /** Partition 1 of the group committing at every round while its lag grows at each commit (Burrow's WARN). */
  async function fallingBehind(groupId: string, atMs: number): Promise<void> {
    await db.lagSample.createMany({
      data: [0, 1, 2].map((i) => ({
        sampledAt: new Date(atMs - (2 - i) * 5_000),
        groupId,
        topic: `${groupId}-t`,
        partition: 1,
        committedOffset: BigInt(10 + i),
        logStartOffset: 0n,
        logEndOffset: BigInt(12 + 2 * i),
        lag: BigInt(2 + i),
        groupState: 'Stable',
      })),
    });
  }

  /** A round at which the consumer has caught up (current lag 0): OK whatever the window held before. */
  async function caughtUp(groupId: string, atMs: number, cluster = 'default'): Promise<void> {
    await db.lagSample.create({
      data: {
        cluster,
        sampledAt: new Date(atMs),
        groupId,
        topic: `${groupId}-t`,
        partition: 0,
        committedOffset: 14n,
        logStartOffset: 0n,
        logEndOffset: 14n,
        lag: 0n,
        groupState: 'Stable',
      },
    });
  }

  /** The group's partition 0 held at offset 11 since `sinceMs`, as the worker's quarantine store writes it. */
  function quarantineOf(groupId: string, sinceMs: number, cluster = 'default') {
    return {
      cluster,
      groupId,
      topic: `${groupId}-t`,
      partition: 0,
      offset: 11n,
      reason: 'invalid JSON',
      errorClass: 'permanent',
      since: new Date(sinceMs),
      attempts: 1,
      recordHeaders: {},
    };
  }

  /** One evaluation round of `ctx`'s cluster (the default cluster unless given). */
  const evaluate = async (nowMs: number, ctx: AlertEvaluationContext = context) =>
    recordAlertEvaluation(
      db,
      ctx,
      await observeForAlerts(db, ctx, healthy, await summarizeForAlerts(db, ctx, healthy, nowMs), nowMs),
    );

  const notificationsOf = (groupId: string) =>
    db.alertNotification.findMany({
      where: { alert: { groupId } },
      orderBy: [{ id: 'asc' }],
      include: { alert: { select: { condition: true } } },
    });

  it('evaluates each cluster on its own: one group id alerts once per cluster, silences and resolutions stay in theirs', async () => {
    const groupId = uniqueName('two-clusters');
    const t0 = Date.now();
    const second: AlertEvaluationContext = { ...context, cluster: 'second', clusterLabel: 'second' };
    for (const cluster of ['default', 'second']) {
      await sampledGroup(groupId, t0, cluster);
      await db.partitionQuarantine.create({ data: quarantineOf(groupId, t0 - 20_000, cluster) });
    }
    await db.alertSilence.create({
      data: {
        cluster: 'second',
        groupId,
        reason: 'known',
        createdBy: 'alice',
        createdAt: new Date(t0),
        endsAt: new Date(t0 + 3_600_000),
      },
    });

    await evaluate(t0);
    await evaluate(t0, second);
    const alerts = await db.alert.findMany({ where: { groupId }, orderBy: [{ cluster: 'asc' }, { condition: 'asc' }] });
    // One incident, one notification: the quarantine is told by partition-quarantined, not by the group's status.
    expect(alerts.map((a) => `${a.cluster} ${a.condition} ${a.phase}`)).toEqual([
      'default partition-quarantined firing',
      'second partition-quarantined firing',
    ]);
    expect(alerts.filter((a) => a.cluster === 'second').every((a) => a.id.startsWith('second/'))).toBe(true);
    const rows = await notificationsOf(groupId);
    const statusOf = (cluster: string) => [
      ...new Set(rows.filter((r) => r.alertId.startsWith('second/') === (cluster === 'second')).map((r) => r.status)),
    ];
    // The silence is of the second cluster: the default cluster's notifications still go out.
    expect(statusOf('default')).toEqual(['pending']);
    expect(statusOf('second')).toEqual(['silenced']);
    const payload = JSON.parse(
      rows.find((r) => r.receiver === 'webhook' && r.alertId.startsWith('second/partition-quarantined'))!.body,
    ) as AlertPayloadV1;
    expect(payload).toMatchObject({ cluster: 'second', dashboardUrl: 'http://127.0.0.1:3000/quarantine' });

    // The default cluster's group recovers: only its alerts resolve, whichever cluster is evaluated first.
    await db.partitionQuarantine.deleteMany({ where: { cluster: 'default', groupId } });
    await caughtUp(groupId, t0 + 5_000);
    await evaluate(t0 + 5_000, second);
    await evaluate(t0 + 5_000);
    const after = await db.alert.findMany({ where: { groupId }, orderBy: [{ cluster: 'asc' }, { condition: 'asc' }] });
    expect(after.map((a) => `${a.cluster} ${a.condition} ${a.phase}`)).toEqual([
      'default partition-quarantined resolved',
      'second partition-quarantined firing',
    ]);
  });

  it('fires one alert per group and condition, with one outbox row per receiver, written once', async () => {
    const groupId = uniqueName('alerting');
    const t0 = Date.now();
    await sampledGroup(groupId, t0);
    await fallingBehind(groupId, t0);
    await db.partitionQuarantine.create({ data: quarantineOf(groupId, t0 - 20_000) });

    await evaluate(t0);
    const alerts = await db.alert.findMany({ where: { groupId }, orderBy: { condition: 'asc' } });
    expect(alerts.map((a) => [a.condition, a.phase])).toEqual([
      ['group-status', 'firing'],
      ['partition-quarantined', 'firing'],
    ]);
    const rows = await notificationsOf(groupId);
    expect(rows.map((r) => `${r.alert.condition} ${r.receiver} ${r.kind} ${r.status}`).sort()).toEqual([
      'group-status slack firing pending',
      'group-status webhook firing pending',
      'partition-quarantined slack firing pending',
      'partition-quarantined webhook firing pending',
    ]);
    const payload = JSON.parse(
      rows.find((r) => r.receiver === 'webhook' && r.alert.condition === 'group-status')!.body,
    ) as AlertPayloadV1;
    expect(payload).toMatchObject({
      version: 1,
      status: 'firing',
      group: groupId,
      cluster: 'test-cluster',
      dashboardUrl: `http://127.0.0.1:3000/groups/${encodeURIComponent(groupId)}`,
    });
    expect(payload.summary).toBe(
      `${groupId} is QUARANTINED: ${groupId}-t-0 is quarantined (its WARN is explained by the quarantine)`,
    );
    // Paged for partition 1's WARN, which the quarantine does not explain.
    expect(payload.reasons).toEqual([
      `${groupId}-t-0 is quarantined (its WARN is explained by the quarantine)`,
      `${groupId}-t-1 WARN: lag grew at each of 3 commits, to 4`,
    ]);
    const slack = JSON.parse(rows.find((r) => r.receiver === 'slack')!.body) as { text: string };
    expect(slack.text).toContain('[FIRING]');

    // The same round evaluated again, and twice at once: nothing new.
    await Promise.all([evaluate(t0), evaluate(t0)]);
    expect(await notificationsOf(groupId)).toHaveLength(4);
    expect(await db.alert.count({ where: { groupId } })).toBe(2);
  });

  it('sends reminders except for acknowledged alerts, holds silenced ones back, and resolves with who released', async () => {
    const groupId = uniqueName('ack');
    const t0 = Date.now();
    await sampledGroup(groupId, t0);
    await fallingBehind(groupId, t0);
    const quarantine = quarantineOf(groupId, t0);
    await db.partitionQuarantine.create({ data: quarantine });
    await evaluate(t0);
    const status = await db.alert.findFirstOrThrow({ where: { groupId, condition: 'group-status' } });
    await db.alert.update({
      where: { id: status.id },
      data: { acknowledgedBy: 'alice', acknowledgedAt: new Date(t0 + 1) },
    });
    const silence = await db.alertSilence.create({
      data: {
        groupId,
        condition: 'partition-quarantined',
        reason: 'fixing the producer',
        createdBy: 'alice',
        createdAt: new Date(t0),
        endsAt: new Date(t0 + 3_600_000),
      },
    });

    await sampledGroup(groupId, t0 + 61_000);
    await fallingBehind(groupId, t0 + 61_000);
    await evaluate(t0 + 61_000);
    const reminders = (await notificationsOf(groupId)).filter((r) => r.kind === 'reminder');
    expect(reminders.map((r) => `${r.alert.condition} ${r.status} ${r.silenceId}`)).toEqual([
      `partition-quarantined silenced ${silence.id}`,
      `partition-quarantined silenced ${silence.id}`,
    ]);
    // The evaluation keeps the acknowledgement the dashboard wrote.
    expect(await db.alert.findUniqueOrThrow({ where: { id: status.id } })).toMatchObject({ acknowledgedBy: 'alice' });

    await db.partitionQuarantine.delete({
      where: {
        cluster_groupId_topic_partition: { cluster: DEFAULT_CLUSTER, groupId, topic: quarantine.topic, partition: 0 },
      },
    });
    await db.operatorAction.create({
      data: {
        groupId,
        topic: quarantine.topic,
        partition: 0,
        action: 'skip',
        reason: 'poison record',
        requestedBy: 'alice',
        status: 'done',
        completedAt: new Date(),
      },
    });
    await db.alertSilence.update({ where: { id: silence.id }, data: { endsAt: new Date(t0 + 62_000) } });
    // Released and caught up: with lag left at every commit the group would be WARN, not resolved.
    await caughtUp(groupId, t0 + 66_000);
    await evaluate(t0 + 70_000);
    const resolved = (await notificationsOf(groupId)).filter((r) => r.kind === 'resolved' && r.receiver === 'webhook');
    expect(resolved.map((r) => r.alert.condition).sort()).toEqual(['group-status', 'partition-quarantined']);
    const released = JSON.parse(
      resolved.find((r) => r.alert.condition === 'partition-quarantined')!.body,
    ) as AlertPayloadV1;
    expect(released).toMatchObject({ status: 'resolved', reasons: [`${quarantine.topic}-0 released: skip by alice`] });
    expect(resolved.every((r) => r.status === 'pending')).toBe(true);
    expect((await db.alert.findMany({ where: { groupId } })).map((a) => a.phase)).toEqual(['resolved', 'resolved']);
  });

  it('records lost: one notification (records-lost, not the LOST status), resolved by the acknowledgement', async () => {
    const groupId = uniqueName('lost');
    const t0 = Date.now();
    await sampledGroup(groupId, t0);
    const loss = await db.recordLoss.create({
      data: {
        cluster: 'default',
        groupId,
        topic: `${groupId}-t`,
        partition: 0,
        fromOffset: 88_100n,
        toOffset: 89_303n,
        count: 1_204n,
        basis: 'below-log-start',
        detectedAt: new Date(t0 - 10_000),
        updatedAt: new Date(t0 - 10_000),
      },
    });
    await evaluate(t0);
    const alerts = await db.alert.findMany({ where: { groupId } });
    expect(alerts.map((a) => `${a.condition} ${a.phase}`)).toEqual(['records-lost firing']);
    expect(alerts[0]).toMatchObject({
      severity: 'critical',
      summary: `${groupId}: 1,204 records deleted unread on 1 partition`,
      activeSince: new Date(t0 - 10_000),
    });
    expect(alerts[0]!.reasons).toEqual([
      expect.stringMatching(
        new RegExp(`^${groupId}-t-0: 1,204 records \\(offsets 88,100–89,303\\) deleted unread, first seen`),
      ),
    ]);
    // The dashboard's acknowledgement (lib/server/acknowledge-record-loss.ts writes these columns).
    await db.recordLoss.update({
      where: { id: loss.id },
      data: {
        acknowledgedAt: new Date(t0 + 1_000),
        acknowledgedBy: 'alice',
        acknowledgeReason: 'replayed',
        acknowledgedToOffset: 89_303n,
      },
    });
    await caughtUp(groupId, t0 + 5_000);
    await evaluate(t0 + 5_000);
    expect((await db.alert.findMany({ where: { groupId } })).map((a) => `${a.condition} ${a.phase}`)).toEqual([
      'records-lost resolved',
    ]);
    expect((await notificationsOf(groupId)).map((r) => `${r.alert.condition} ${r.receiver} ${r.kind}`).sort()).toEqual([
      'records-lost slack firing',
      'records-lost slack resolved',
      'records-lost webhook firing',
      'records-lost webhook resolved',
    ]);
  });

  it("retention risk: fires while a partition's earliest deletion is below the threshold", async () => {
    const groupId = uniqueName('retention');
    const topic = `${groupId}-t`;
    const t0 = Date.now();
    await db.topicRetention.create({
      data: {
        cluster: 'default',
        topic,
        cleanupPolicy: 'delete',
        retentionMs: 3n * 3_600_000n,
        retentionBytes: -1n,
        segmentMs: 1_800_000n,
        segmentBytes: 1_073_741_824n,
        checkIntervalMs: 300_000n,
        readAt: new Date(t0),
        changedAt: new Date(t0),
      },
    });
    // Stopped at offset 10 while 10 records/s arrive, its oldest unread record 2 h 40 min old: 20 min left.
    await db.lagSample.createMany({
      data: [0, 1, 2].map((i) => ({
        sampledAt: new Date(t0 - (2 - i) * 5_000),
        groupId,
        topic,
        partition: 0,
        committedOffset: 10n,
        logStartOffset: 0n,
        logEndOffset: BigInt(1_000 + 50 * i),
        lag: BigInt(990 + 50 * i),
        groupState: 'Stable',
        ...(i === 2 ? { exactTimeLagMs: 9_600_000n, arrivalRatePerSec: 10, consumptionRatePerSec: 0 } : {}),
      })),
    });
    const ctx: AlertEvaluationContext = {
      ...context,
      settings: parseAlertSettings(JSON.stringify({ '*': { 'retention-risk': { forMs: 0 } } })),
    };
    await evaluate(t0, ctx);
    const alerts = await db.alert.findMany({ where: { groupId } });
    expect(alerts.map((a) => `${a.condition} ${a.phase} ${a.severity}`)).toEqual(['retention-risk firing warning']);
    expect(alerts[0]!.summary).toBe(`${groupId}: records of ${topic}-0 can be deleted unread in 20 min`);
    expect(alerts[0]!.reasons).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${topic}-0: unread records can be deleted in 20 min \\(at the latest in 55 min\\), below the 1 h threshold; time retention: `,
        ),
      ),
    ]);
    // A group threshold below the window: it resolves.
    const tight: AlertEvaluationContext = {
      ...context,
      settings: parseAlertSettings(
        JSON.stringify({
          '*': { 'retention-risk': { forMs: 0 } },
          [groupId]: { 'retention-risk': { thresholdMs: 600_000 } },
        }),
      ),
    };
    await evaluate(t0, tight);
    expect((await db.alert.findFirstOrThrow({ where: { groupId } })).phase).toBe('resolved');
  });

  it('alerts on a worker that stopped reporting, unless a newer instance of its group replaced it', async () => {
    const groupId = uniqueName('workers');
    const t0 = Date.now();
    await db.workerHeartbeat.create({
      data: {
        instanceId: `${groupId}-w1`,
        groupId,
        ready: true,
        detail: 'ok',
        startedAt: new Date(t0 - 120_000),
        reportedAt: new Date(t0 - 60_000),
      },
    });
    await evaluate(t0);
    const alert = await db.alert.findFirstOrThrow({ where: { groupId, condition: 'worker-not-ready' } });
    expect(alert.phase).toBe('firing');
    expect(alert.reasons).toEqual([`worker ${groupId}-w1 has not reported for 1 min (gone from its group)`]);

    await db.workerHeartbeat.create({
      data: {
        instanceId: `${groupId}-w2`,
        groupId,
        ready: true,
        detail: 'ok',
        startedAt: new Date(t0 - 30_000),
        reportedAt: new Date(t0 + 4_000),
      },
    });
    await evaluate(t0 + 5_000);
    expect((await db.alert.findUniqueOrThrow({ where: { id: alert.id } })).phase).toBe('resolved');
  });

  it('opens a quarantine alert again after its pending episode was dropped, though the quarantine kept its start', async () => {
    const groupId = uniqueName('alert-reopen');
    const sinceMs = Date.UTC(2026, 11, 1, 9, 0, 0);
    const held = (nowMs: number, quarantined: boolean) => ({
      nowMs,
      groups: [
        {
          groupId,
          status: quarantined ? ('QUARANTINED' as const) : ('OK' as const),
          reasons: [],
          worstTimeLag: null,
          timeLagObjectiveMs: 300_000,
          quarantined: quarantined
            ? [{ topic: `${groupId}-t`, partition: 0, offset: '5', reason: 'invalid JSON', sinceMs }]
            : [],
          problems: [],
        },
      ],
      sampler: healthy,
      workers: [],
      workerStaleAfterMs: 15_000,
    });
    const base = `${alertKey('partition-quarantined', groupId)}:${sinceMs}`;
    // The closed episode that holds the id a new one starting at the same time would take.
    await db.alert.create({
      data: {
        id: base,
        key: alertKey('partition-quarantined', groupId),
        cluster: DEFAULT_CLUSTER,
        condition: 'partition-quarantined',
        groupId,
        phase: 'dropped',
        severity: 'warning',
        activeSince: new Date(sinceMs),
        summary: 'dropped while pending',
        reasons: [],
        updatedAt: new Date(sinceMs + 1_000),
        resolvedAt: new Date(sinceMs + 1_000),
      },
    });
    const evaluation = await recordAlertEvaluation(db, context, held(sinceMs + 10_000, true));
    const reopened = evaluation.open.find((a) => a.groupId === groupId && a.condition === 'partition-quarantined')!;
    expect(reopened.id).toBe(`${base}:2`);
    expect((await db.alert.findUniqueOrThrow({ where: { id: `${base}:2` } })).phase).toBe('firing');
    expect((await db.alert.findUniqueOrThrow({ where: { id: base } })).phase).toBe('dropped');
    // The next round updates the reopened alert in place.
    const next = await recordAlertEvaluation(db, context, held(sinceMs + 15_000, true));
    expect(next.open.find((a) => a.groupId === groupId && a.condition === 'partition-quarantined')?.id).toBe(
      `${base}:2`,
    );
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import type { ClusterConnection } from '../kafka/cluster-settings';
import { ZSilenceRequest } from '../schemas/alerts';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { acknowledgeAlert, createSilence } from './alert-operations';
import { ApiError } from './api-error';
import { listAlerts } from './list-alerts';
import { clusterFilter } from './request-cluster';

// The Alerts API's functions on the real Postgres: what GET /api/alerts lists (of every cluster or of one), a
// silence shown on the alert it holds back (of its own cluster only), silences written with their cluster,
// and acknowledgements (once, firing alerts only). Cluster names are unique per run, so a cluster's listing
// holds this run's rows alone.

/** `default` and a second configured cluster of a name no other run uses. */
const SECOND = uniqueName('second');
const CLUSTERS: ClusterConnection[] = ['default', SECOND].map((name) => ({
  name,
  brokers: ['127.0.0.1:9'],
  security: { tls: null, sasl: null },
}));

/** The refusal of `promise` as [status, message, field], or null when it resolves. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? [error.status, error.message, error.field] : String(error)),
  );

describe('alerts API', () => {
  let db: Database;

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function firingAlert(groupId: string, phase = 'firing', cluster = 'default') {
    const now = new Date();
    const id = `${cluster === 'default' ? '' : `${cluster}/`}group-status:${groupId}:${now.getTime()}`;
    await db.alert.create({
      data: {
        cluster,
        id,
        key: `group-status:${groupId}`,
        condition: 'group-status',
        groupId,
        phase,
        severity: 'critical',
        activeSince: now,
        firingSince: now,
        resolvedAt: phase === 'resolved' ? now : null,
        summary: `${groupId} is ERR: t-0 STOP`,
        reasons: ['t-0 STOP'],
        updatedAt: now,
      },
    });
    const notification = await db.alertNotification.create({
      data: {
        alertId: id,
        dedupeKey: `${id}:firing:0`,
        receiver: 'webhook',
        kind: 'firing',
        body: '{}',
        status: 'delivered',
        attempts: 2,
        nextAttemptAt: now,
        createdAt: now,
        deliveredAt: now,
      },
    });
    await db.alertDelivery.createMany({
      data: [
        {
          notificationId: notification.id,
          attempt: 1,
          startedAt: now,
          durationMs: 12,
          statusCode: 503,
          error: 'HTTP 503',
          outcome: 'retry',
          instanceId: 'w1',
        },
        {
          notificationId: notification.id,
          attempt: 2,
          startedAt: now,
          durationMs: 9,
          statusCode: 200,
          outcome: 'delivered',
          instanceId: 'w1',
        },
      ],
    });
    return id;
  }

  it('lists open alerts with their deliveries and the silence that holds them back; the history apart', async () => {
    const groupId = uniqueName('api-alerts');
    const id = await firingAlert(groupId);
    const resolvedId = await firingAlert(`${groupId}-old`, 'resolved');
    const silence = await createSilence(
      db,
      ZSilenceRequest.parse({ groupId, condition: null, durationMinutes: 30, reason: 'deploying a fix' }),
      'alice',
      CLUSTERS,
    );
    const listed = await listAlerts(db);
    const alert = listed.open.find((a) => a.id === id)!;
    expect(alert).toMatchObject({
      phase: 'firing',
      link: `/groups/${encodeURIComponent(groupId)}`,
      silence: { id: silence.id, reason: 'deploying a fix', createdBy: 'alice' },
    });
    expect(alert.notifications[0]!.deliveries.map((d) => [d.attempt, d.statusCode, d.outcome])).toEqual([
      [1, 503, 'retry'],
      [2, 200, 'delivered'],
    ]);
    expect(listed.history.find((a) => a.id === resolvedId)).toMatchObject({ phase: 'resolved', silence: null });
    expect(listed.open.some((a) => a.id === resolvedId)).toBe(false);
    expect(listed.silences.find((s) => s.id === silence.id)?.endsAt).toBe(
      new Date(new Date(silence.createdAt).getTime() + 30 * 60_000).toISOString(),
    );
  });

  it("lists every cluster's alerts and silences with their cluster, or one cluster's; a silence holds back its own cluster's alerts", async () => {
    const groupId = uniqueName('api-alerts-clusters');
    const here = await firingAlert(groupId);
    const there = await firingAlert(groupId, 'firing', SECOND);
    const thereResolved = await firingAlert(`${groupId}-old`, 'resolved', SECOND);
    const silence = await createSilence(
      db,
      ZSilenceRequest.parse({
        cluster: SECOND,
        groupId,
        condition: null,
        durationMinutes: 30,
        reason: 'second cluster maintenance',
      }),
      'alice',
      CLUSTERS,
    );
    expect(silence.cluster).toBe(SECOND);
    /** GET /api/alerts with `query`, as the route reads it. */
    const alertsFor = async (query: string) =>
      listAlerts(db, { cluster: clusterFilter(new Request(`http://warden.test/api/alerts${query}`), CLUSTERS) });

    const every = await alertsFor('');
    expect(every.open.find((a) => a.id === here)).toMatchObject({
      cluster: 'default',
      link: `/groups/${encodeURIComponent(groupId)}`,
      silence: null,
    });
    expect(every.open.find((a) => a.id === there)).toMatchObject({
      cluster: SECOND,
      link: `/groups/${encodeURIComponent(groupId)}?cluster=${SECOND}`,
      silence: { id: silence.id, cluster: SECOND },
    });
    expect(every.history.find((a) => a.id === thereResolved)).toMatchObject({ cluster: SECOND });
    expect(every.silences.find((s) => s.id === silence.id)).toMatchObject({ cluster: SECOND, groupId });

    const second = await alertsFor(`?cluster=${SECOND}`);
    expect(second.open.map((a) => a.id)).toEqual([there]);
    expect(second.history.map((a) => a.id)).toEqual([thereResolved]);
    expect(second.silences.map((s) => s.id)).toEqual([silence.id]);
    const defaults = await alertsFor('?cluster=default');
    expect(defaults.open.map((a) => a.id)).toContain(here);
    expect(
      [...defaults.open, ...defaults.history, ...defaults.silences].filter((x) => x.cluster !== 'default'),
    ).toEqual([]);

    await expect(alertsFor('?cluster=third')).rejects.toMatchObject({
      status: 404,
      message: `no cluster "third" is configured (configured: default, ${SECOND})`,
    });
    await expect(alertsFor('?cluster=Not%20Safe')).rejects.toMatchObject({ status: 400, field: 'cluster' });
  });

  it('writes a silence with the cluster it names (default without one); refuses a cluster not configured and writes nothing', async () => {
    const groupId = uniqueName('api-silence-cluster');
    const request = (body: Record<string, unknown>) =>
      ZSilenceRequest.parse({ groupId, condition: 'group-status', durationMinutes: 60, reason: 'x', ...body });
    const there = await createSilence(db, request({ cluster: SECOND, reason: 'on second' }), 'alice', CLUSTERS);
    const here = await createSilence(db, request({ reason: 'on default' }), 'alice', CLUSTERS);
    const rows = await db.alertSilence.findMany({ where: { groupId }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.id.toString(), r.cluster, r.reason])).toEqual([
      [there.id, SECOND, 'on second'],
      [here.id, 'default', 'on default'],
    ]);
    expect([there.cluster, here.cluster]).toEqual([SECOND, 'default']);

    expect(await refusal(createSilence(db, request({ cluster: 'third' }), 'alice', CLUSTERS))).toEqual([
      400,
      `cluster: no cluster "third" is configured (configured: default, ${SECOND})`,
      'cluster',
    ]);
    // The default cluster must be configured too for a request that names none (it always is in a real setup).
    expect(await refusal(createSilence(db, request({}), 'alice', [CLUSTERS[1]!]))).toEqual([
      400,
      `cluster: no cluster "default" is configured (configured: ${SECOND})`,
      'cluster',
    ]);
    expect(await db.alertSilence.count({ where: { groupId } })).toBe(2);
    const unsafe = ZSilenceRequest.safeParse({ ...request({}), cluster: 'Not Safe' });
    expect(unsafe.success ? null : unsafe.error.issues.map((i) => i.path.join('.'))).toEqual(['cluster']);
  });

  it('acknowledges a firing alert once, with an audit row; refuses unknown, resolved or acknowledged ones', async () => {
    const groupId = uniqueName('api-ack');
    const id = await firingAlert(groupId);
    const resolvedId = await firingAlert(`${groupId}-old`, 'resolved');
    const done = await acknowledgeAlert(db, id, 'bob', 'on it');
    expect(done).toMatchObject({ alertId: id, acknowledgedBy: 'bob' });
    expect(await db.alertAcknowledgement.findMany({ where: { alertId: id } })).toMatchObject([
      { by: 'bob', comment: 'on it' },
    ]);
    expect(await refusal(acknowledgeAlert(db, id, 'carol', undefined))).toEqual([
      409,
      'alert is already acknowledged by bob',
      null,
    ]);
    expect(await refusal(acknowledgeAlert(db, resolvedId, 'bob', undefined))).toEqual([
      409,
      'alert is resolved, not firing: nothing to acknowledge',
      null,
    ]);
    expect(await refusal(acknowledgeAlert(db, 'nope', 'bob', undefined))).toEqual([
      404,
      'alert "nope" not found',
      null,
    ]);
    expect((await listAlerts(db)).open.find((a) => a.id === id)).toMatchObject({ acknowledgedBy: 'bob' });
  });

  it('refuses a silence without a reason, of everything, or longer than a week, naming the field', () => {
    const problems = (body: unknown) => {
      const result = ZSilenceRequest.safeParse(body);
      return result.success ? null : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(problems({ groupId: 'g', condition: null, durationMinutes: 30, reason: ' ' })).toEqual([
      'reason: is required: say why, for the audit log',
    ]);
    expect(problems({ groupId: null, condition: null, durationMinutes: 30, reason: 'x' })).toEqual([
      'groupId: name a group, a condition or both (silencing everything is disabling alerts)',
    ]);
    expect(problems({ groupId: 'g', condition: 'lag', durationMinutes: 30, reason: 'x' })?.[0]).toMatch(/^condition: /);
    expect(problems({ groupId: 'g', condition: null, durationMinutes: 20_000, reason: 'x' })).toEqual([
      'durationMinutes: must be at most 10080 minutes (a week)',
    ]);
  });
});

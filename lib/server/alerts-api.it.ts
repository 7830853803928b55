import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { ZSilenceRequest } from '../schemas/alerts';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { acknowledgeAlert, createSilence } from './alert-operations';
import { ApiError } from './api-error';
import { listAlerts } from './list-alerts';

// The Alerts API's functions on the real Postgres: what GET /api/alerts lists, a silence shown on the alert it
// holds back, and acknowledgements (once, firing alerts only).

describe('alerts API', () => {
  let db: Database;

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  async function firingAlert(groupId: string, phase = 'firing') {
    const now = new Date();
    const id = `group-status:${groupId}:${now.getTime()}`;
    await db.alert.create({
      data: {
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

  it('acknowledges a firing alert once, with an audit row; refuses unknown, resolved or acknowledged ones', async () => {
    const groupId = uniqueName('api-ack');
    const id = await firingAlert(groupId);
    const resolvedId = await firingAlert(`${groupId}-old`, 'resolved');
    const done = await acknowledgeAlert(db, id, 'bob', 'on it');
    expect(done).toMatchObject({ alertId: id, acknowledgedBy: 'bob' });
    expect(await db.alertAcknowledgement.findMany({ where: { alertId: id } })).toMatchObject([
      { by: 'bob', comment: 'on it' },
    ]);
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (error: unknown) => (error instanceof ApiError ? [error.status, error.message] : String(error)),
      );
    expect(await refusal(acknowledgeAlert(db, id, 'carol', undefined))).toEqual([
      409,
      'alert is already acknowledged by bob',
    ]);
    expect(await refusal(acknowledgeAlert(db, resolvedId, 'bob', undefined))).toEqual([
      409,
      'alert is resolved, not firing: nothing to acknowledge',
    ]);
    expect(await refusal(acknowledgeAlert(db, 'nope', 'bob', undefined))).toEqual([404, 'alert "nope" not found']);
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

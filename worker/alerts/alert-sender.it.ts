import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childProcessEnv } from '../../lib/config/program-config';
import type { Database } from '../../lib/db';
import { Secret } from '../../lib/config/secret';
import { testDatabase } from '../../test-support/database';
import { HttpReceiver, unusedLoopbackPort, type ReceiverBehaviour } from '../../test-support/http-receiver';
import { eventually, uniqueName } from '../../test-support/integration';
import { AlertSender, type AlertSenderOptions } from './alert-sender';

// The outbox sender against a real HTTP receiver on a loopback port and the real Postgres. The sender's clock
// is a variable the test moves, so retries become due without waiting for their backoff.

const SECRET = 'a-shared-secret-of-32-characters';

describe('AlertSender', () => {
  let db: Database;
  const receiver = new HttpReceiver();
  let clock = Date.now();
  const senders: AlertSender[] = [];

  beforeAll(async () => {
    db = testDatabase();
    // The sender delivers every due row, and other files' evaluations leave theirs pending in the shared test
    // database: the outbox starts with none, so every request a receiver here gets is one of this file's.
    await db.alertNotification.updateMany({ where: { status: 'pending' }, data: { status: 'skipped' } });
    await receiver.start();
  });

  afterAll(async () => {
    await Promise.all(senders.map((s) => s.stop()));
    await receiver.stop();
    await db?.$disconnect();
  });

  function sender(url: string, overrides: Partial<AlertSenderOptions> = {}): AlertSender {
    const created = new AlertSender({
      db,
      receivers: new Map([['webhook', new Secret(url)]]),
      signingSecret: new Secret(SECRET),
      maxAttempts: 4,
      timeoutMs: 2_000,
      backoff: { baseMs: 1_000, maxMs: 10_000 },
      instanceId: 'test-sender',
      concurrency: 1,
      now: () => clock,
      ...overrides,
    });
    senders.push(created);
    return created;
  }

  /** Notifications in the outbox as an evaluation writes them, for one fresh alert. */
  async function outbox(count: number, atMs = clock): Promise<{ alertId: string; ids: bigint[] }> {
    const alertId = uniqueName('alert');
    const now = new Date(atMs);
    await db.alert.create({
      data: {
        id: alertId,
        key: `group-status:${alertId}`,
        condition: 'group-status',
        groupId: alertId,
        phase: 'firing',
        severity: 'critical',
        activeSince: now,
        firingSince: now,
        summary: `${alertId} is ERR`,
        reasons: ['t-0 STOP'],
        updatedAt: now,
      },
    });
    const ids: bigint[] = [];
    for (let i = 0; i < count; i++) {
      const row = await db.alertNotification.create({
        data: {
          alertId,
          dedupeKey: `${alertId}:reminder:${i}`,
          receiver: 'webhook',
          kind: 'reminder',
          body: JSON.stringify({ version: 1, alertId, notificationId: `${alertId}:reminder:${i}` }),
          status: 'pending',
          nextAttemptAt: now,
          createdAt: now,
        },
      });
      ids.push(row.id);
    }
    return { alertId, ids };
  }

  const deliveries = (id: bigint) =>
    db.alertDelivery.findMany({ where: { notificationId: id }, orderBy: { attempt: 'asc' } });

  /** Runs `deliverDue` on the given senders, moving the clock past every backoff, until nothing is due. */
  async function drain(...active: AlertSender[]): Promise<void> {
    for (let round = 0; round < 20; round++) {
      const attempts = (await Promise.all(active.map((s) => s.deliverDue()))).reduce((a, b) => a + b, 0);
      const due = await db.alertNotification.count({ where: { status: 'pending' } });
      if (attempts === 0 && due === 0) return;
      clock += 60_000;
    }
  }

  it('delivers to a fast receiver once, signed, and records the attempt', async () => {
    const url = receiver.on('/fast', () => ({ status: 204 }));
    const { ids } = await outbox(1);
    await drain(sender(url));
    const row = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(row).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    const [request] = receiver.requestsTo('/fast');
    expect(request!.body).toBe(row.body);
    expect(request!.headers['x-warden-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(row.body).digest('hex')}`,
    );
    expect(request!.headers['x-warden-notification']).toBe(ids[0]!.toString());
    expect(await deliveries(ids[0]!)).toMatchObject([
      { attempt: 1, statusCode: 204, error: null, outcome: 'delivered' },
    ]);
  });

  it('retries a receiver answering 500 with backoff, then delivers; every attempt recorded', async () => {
    const url = receiver.on('/flaky', (_, nth) => ({ status: nth <= 2 ? 500 : 200 }));
    const { ids } = await outbox(1);
    const flaky = sender(url, { random: () => 0.5 });
    expect(await flaky.deliverDue()).toBe(1);
    const afterFirst = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(afterFirst.status).toBe('pending');
    // Backoff of the first retry, equal jitter: half of the 1000 ms base plus half of the rest for the draw 0.5.
    expect(afterFirst.nextAttemptAt.getTime()).toBe(clock + 750);
    expect(await flaky.deliverDue()).toBe(0);
    await drain(flaky);
    expect(await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({
      status: 'delivered',
      attempts: 3,
    });
    expect((await deliveries(ids[0]!)).map((d) => [d.statusCode, d.outcome])).toEqual([
      [500, 'retry'],
      [500, 'retry'],
      [200, 'delivered'],
    ]);
    expect(receiver.requestsTo('/flaky')).toHaveLength(3);
  });

  it('gives a receiver that never answers in time up after the bounded attempts, with the reason', async () => {
    const url = receiver.on('/slow', () => ({ status: 200, delayMs: 5_000 }));
    const { ids } = await outbox(1);
    await drain(sender(url, { timeoutMs: 300, maxAttempts: 2 }));
    const row = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(row).toMatchObject({ status: 'failed', attempts: 2, lastError: 'no answer within 300 ms' });
    expect((await deliveries(ids[0]!)).map((d) => d.outcome)).toEqual(['retry', 'failed']);
  });

  it('records an unreachable receiver as a connection error, never quoting its URL', async () => {
    const url = `http://127.0.0.1:${await unusedLoopbackPort()}/token-in-the-path`;
    const { ids } = await outbox(1);
    await drain(sender(url, { maxAttempts: 3 }));
    const row = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/^ECONNREFUSED/);
    const attempts = await deliveries(ids[0]!);
    expect(attempts.map((d) => d.outcome)).toEqual(['retry', 'retry', 'failed']);
    expect(attempts.every((d) => d.statusCode === null && !d.error!.includes('token-in-the-path'))).toBe(true);
  });

  it('fails at once when the receiver refuses the message (4xx)', async () => {
    const url = receiver.on('/refuses', () => ({ status: 400 }));
    const { ids } = await outbox(1);
    await drain(sender(url));
    expect(await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'HTTP 400: no',
    });
  });

  it('shares the outbox between two senders: every notification delivered exactly once', async () => {
    const behaviour: ReceiverBehaviour = () => ({ status: 200, delayMs: 20 });
    const url = receiver.on('/shared', behaviour);
    const { ids } = await outbox(24);
    const otherDb = testDatabase();
    try {
      await drain(
        sender(url, { concurrency: 3, instanceId: 'sender-a' }),
        sender(url, { db: otherDb, concurrency: 3, instanceId: 'sender-b' }),
      );
    } finally {
      await otherDb.$disconnect();
    }
    const seen = receiver.requestsTo('/shared').map((r) => r.headers['x-warden-notification']);
    const lost = ids.filter((id) => !seen.includes(id.toString()));
    const duplicated = seen.length - new Set(seen).size;
    expect({ lost: lost.length, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    const rows = await db.alertDelivery.findMany({ where: { notificationId: { in: ids } } });
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.instanceId))).toEqual(new Set(['sender-a', 'sender-b']));
  });

  it('loses nothing when the sending process is killed with SIGKILL between attempts', async () => {
    const url = receiver.on('/after-kill', (_, nth) => ({ status: nth === 1 ? 503 : 200 }));
    const { ids } = await outbox(1, Date.now());
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test-support/alert-sender-child.ts', url, 'doomed-sender'],
      { cwd: path.resolve(__dirname, '..', '..'), env: childProcessEnv(), stdio: 'ignore', detached: true },
    );
    try {
      await eventually('the child sender made its first attempt', async () =>
        (await deliveries(ids[0]!)).length === 1 ? true : undefined,
      );
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
    const between = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(between).toMatchObject({ status: 'pending', attempts: 1 });
    // Another sender whose clock has passed the dead one's backoff takes it over.
    clock = between.nextAttemptAt.getTime() + 1;
    await drain(sender(url, { instanceId: 'survivor' }));
    expect(await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } })).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
    expect((await deliveries(ids[0]!)).map((d) => [d.instanceId, d.statusCode])).toEqual([
      ['doomed-sender', 503],
      ['survivor', 200],
    ]);
    const delivered = receiver
      .requestsTo('/after-kill')
      .filter((r) => r.headers['x-warden-notification'] === ids[0]!.toString());
    expect(delivered).toHaveLength(2);
  });

  it('releases a notification whose sender died mid-attempt; it is sent again (at-least-once, same id)', async () => {
    const url = receiver.on('/hangs-first', (_, nth) => (nth === 1 ? 'hang' : { status: 200 }));
    const { ids } = await outbox(1, Date.now());
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test-support/alert-sender-child.ts', url, 'killed-mid-attempt'],
      { cwd: path.resolve(__dirname, '..', '..'), env: childProcessEnv(), stdio: 'ignore', detached: true },
    );
    try {
      await eventually('the child sender is waiting for the receiver', async () =>
        receiver.requestsTo('/hangs-first').length === 1 ? true : undefined,
      );
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
    clock = Date.now() + 1;
    // The row lock died with the child's connection; the survivor claims it once Postgres notices.
    await eventually('the survivor delivered', async () => {
      await sender(url, { instanceId: 'survivor-2' }).deliverDue();
      const row = await db.alertNotification.findUniqueOrThrow({ where: { id: ids[0] } });
      return row.status === 'delivered' ? row : undefined;
    });
    const requests = receiver.requestsTo('/hangs-first');
    expect(requests.map((r) => r.body)).toEqual([requests[0]!.body, requests[0]!.body]);
    expect((await deliveries(ids[0]!)).map((d) => d.instanceId)).toEqual(['survivor-2']);
  });
});

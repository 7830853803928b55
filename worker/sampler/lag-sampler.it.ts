import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer } from 'kafkajs';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { testSampler } from '../../test-support/test-sampler';
import type { LagSampler } from './lag-sampler';
import type { LagSampleRow } from './sampler-state';
import { commitOffsets } from '../../test-support/commit-offsets';

// The sampler on the real broker and Postgres, for a group this test drives with plain kafkajs consumers:
// lag appears, drains to 0, time lag rises while the consumer is stopped, a rebalance row appears when a
// second member joins, and the log-end points survive a restart.

const kafka = testKafka('warden-sampler-it');

const newSampler = (db: Database, include: RegExp): LagSampler => testSampler(kafka, db, include);

const partitionRow = (rows: LagSampleRow[], partition: number) => rows.find((r) => r.partition === partition);

describe('LagSampler on the real broker and Postgres', () => {
  const prefix = uniqueName('lag');
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  const members: Consumer[] = [];
  let admin: Admin;
  let db: Database;
  let sampler: LagSampler;

  async function produce(partition: number, count: number): Promise<void> {
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: count }, (_, i) => ({ partition, value: `v${i}` })),
    });
    await producer.disconnect();
  }

  async function startMember(): Promise<Consumer> {
    const consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    members.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ autoCommitInterval: 100, eachMessage: async () => undefined });
    return consumer;
  }

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, 2);
    sampler = newSampler(db, new RegExp(`^${groupId}$`));
  });

  afterAll(async () => {
    await Promise.all(members.map((m) => m.disconnect().catch(() => undefined)));
    await sampler?.stop();
    await admin?.disconnect();
    await db?.$disconnect();
  });

  it('writes lag, exact and estimated time lag and protocol per partition; lag drains to 0 once consumed', async () => {
    await produce(0, 5);
    await produce(1, 5);
    await commitOffsets(kafka, groupId, topic, [
      { partition: 0, offset: '0' },
      { partition: 1, offset: '0' },
    ]);

    const first = await sampler.sampleOnce();
    expect(first.written).toBe(true);
    expect(first.rows.map((r) => [r.partition, r.committedOffset, r.logEndOffset, r.lag, r.groupState])).toEqual([
      [0, 0n, 5n, 5n, 'Empty'],
      [1, 0n, 5n, 5n, 'Empty'],
    ]);
    for (const row of first.rows) {
      expect(row.exactTimeLagMs).not.toBeNull(); // the record at offset 0 was read
      // Produced before the first log-end point: "at least 0 s" is no evidence, so the estimate is unknown.
      expect(row.timeLagKind).toBe('unknown');
      expect(row.timeLagMs).toBeNull();
    }
    const stored = await db.lagSample.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
    expect(stored.map((r) => [r.partition, r.lag, r.timeLagKind, r.exactTimeLagMs])).toEqual(
      first.rows.map((r) => [r.partition, r.lag, r.timeLagKind, r.exactTimeLagMs]),
    );

    await startMember();
    const drained = await eventually('the lag to drain to 0', async () => {
      const round = await sampler.sampleOnce();
      return round.rows.length === 2 &&
        round.rows.every((r) => r.lag === 0n) &&
        round.rows.every((r) => r.groupState === 'Stable')
        ? round
        : undefined;
    });
    for (const row of drained.rows) {
      expect(row).toMatchObject({
        committedOffset: 5n,
        timeLagMs: 0n,
        timeLagKind: 'caught-up',
        exactTimeLagMs: 0n,
        groupProtocol: 'RoundRobinAssigner',
      });
      expect(row.memberClientId).toBe('warden-sampler-it');
      expect(row.memberId).toMatch(/^warden-sampler-it-[0-9a-f-]{36}$/);
      expect(row.consumptionRatePerSec).toBeGreaterThan(0);
    }
  });

  it('records a rebalance with members before and after when a second member joins', async () => {
    const before = await sampler.sampleOnce();
    expect(new Set(before.rows.map((r) => r.memberClientId)).size).toBe(1);
    await startMember();
    const rebalance = await eventually('an inferred rebalance with two members after it', async () => {
      await sampler.sampleOnce();
      const rows = await db.rebalanceEvent.findMany({
        where: { groupId, source: 'describe-groups' },
        orderBy: { startedAt: 'asc' },
      });
      return rows.find((r) => (r.membersAfter as unknown[]).length === 2);
    });
    expect(rebalance).toMatchObject({ trigger: 'join', durationIsBound: true });
    expect((rebalance.membersBefore as unknown[]).length).toBe(1);
    expect(rebalance.partitionsMoved).toBe(1);
    expect(rebalance.endedAt!.getTime()).toBeGreaterThanOrEqual(rebalance.startedAt.getTime());
    expect(rebalance.durationMs).toBe(rebalance.endedAt!.getTime() - rebalance.startedAt.getTime());
  });

  it('lets time lag rise, estimated and exact, while the consumers are stopped', async () => {
    await Promise.all(members.splice(0).map((m) => m.disconnect()));
    await produce(0, 5);
    const first = await eventually('the new records seen as lag', async () => {
      const round = await sampler.sampleOnce();
      return partitionRow(round.rows, 0)?.lag === 5n ? round : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await sampler.sampleOnce();
    const [a, b] = [partitionRow(first.rows, 0)!, partitionRow(second.rows, 0)!];
    expect(b.lag).toBe(5n);
    expect(a.timeLagKind).toBe('interpolated');
    expect(b.timeLagKind).toBe('interpolated');
    expect(b.timeLagMs!).toBeGreaterThan(a.timeLagMs!);
    expect(a.exactTimeLagMs).not.toBeNull();
    expect(b.exactTimeLagMs!).toBeGreaterThan(a.exactTimeLagMs!);
    expect(b.arrivalRatePerSec).toBeGreaterThan(0);
    expect(partitionRow(second.rows, 1)).toMatchObject({ lag: 0n, timeLagMs: 0n, timeLagKind: 'caught-up' });
  });

  it('keeps its log-end points in Postgres, so a new leader interpolates at once instead of guessing', async () => {
    const successor = newSampler(db, new RegExp(`^${groupId}$`));
    try {
      await successor.tick(); // takes over: loads the stored points, then samples
      const rows = await db.lagSample.findMany({
        where: { groupId, partition: 0 },
        orderBy: { sampledAt: 'desc' },
        take: 1,
      });
      expect(rows[0]).toMatchObject({ lag: 5n, timeLagKind: 'interpolated' });
      expect(successor.stats()).toMatchObject({ rounds: 1, failedRounds: 0, rowsDropped: 0 });
    } finally {
      await successor.stop();
    }
  });
});

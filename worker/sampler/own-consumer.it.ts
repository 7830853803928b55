import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer } from 'kafkajs';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';
import { QuarantineStore } from '../pipeline/quarantine-store';
import { OwnConsumerStateWriter } from './own-consumer-state-writer';
import { OwnRebalanceRecorder } from './own-rebalance-recorder';

// What Warden's own consumer tells about itself, on the real broker and Postgres: the commit-prefix state
// per partition, the measured rebalances, and the quarantine row kept in step with the core.

const kafka = testKafka('warden-own-it');

describe("Warden's own consumer state and rebalances", () => {
  const prefix = uniqueName('own');
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  const instanceId = `${prefix}-instance`;
  let admin: Admin;
  let db: Database;
  let recorder: OwnRebalanceRecorder;
  let writer: OwnConsumerStateWriter;
  let pipeline: Awaited<ReturnType<typeof startPipelineConsumer>>;
  let intruder: Consumer | null = null;

  async function produce(messages: Array<{ partition: number; value: string }>): Promise<void> {
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages });
    await producer.disconnect();
  }

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, 2);
    recorder = new OwnRebalanceRecorder({ db, clientId: 'warden-own-it', clientHost: 'test-host' });
    pipeline = await startPipelineConsumer({
      kafka,
      db,
      groupId,
      topics: [topic],
      resultsTopic: `${prefix}-results`,
      consumer: { onRebalance: (timing) => recorder.record(timing) },
    });
    const quarantines = new QuarantineStore(db, groupId);
    writer = new OwnConsumerStateWriter({
      db,
      groupId,
      instanceId,
      intervalMs: 60_000,
      snapshot: () => pipeline.consumer.core.snapshot(),
      saveQuarantine: (q) => quarantines.save(q),
    });
  });

  afterAll(async () => {
    await intruder?.disconnect().catch(() => undefined);
    await pipeline?.stop();
    await recorder?.close();
    await admin?.disconnect();
    await db?.$disconnect();
  });

  it('measures its first join: exact duration, its assignment after', async () => {
    const join = await eventually(
      'a measured join row',
      async () => (await db.rebalanceEvent.findFirst({ where: { groupId, source: 'own-consumer' } })) ?? undefined,
    );
    expect(join).toMatchObject({ trigger: 'join', durationIsBound: false, partitionsMoved: 2 });
    expect(join.durationMs).toBe(join.endedAt!.getTime() - join.startedAt.getTime());
    expect(join.membersBefore).toEqual([]);
    expect(join.membersAfter).toMatchObject([
      { clientId: 'warden-own-it', clientHost: 'test-host', assignment: { [topic]: [0, 1] } },
    ]);
  });

  it('writes the commit prefix per owned partition: watermark, nothing in flight once done', async () => {
    await produce(
      Array.from({ length: 10 }, (_, i) => ({
        partition: i % 2,
        value: upsertEvent(i, { businessId: `${prefix}-${i}` }),
      })),
    );
    const rows = await eventually('both partitions committed to 5', async () => {
      await writer.writeOnce();
      const stored = await db.consumerPartitionState.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
      return stored.length === 2 && stored.every((r) => r.watermark === 5n) ? stored : undefined;
    });
    for (const row of rows) {
      expect(row).toMatchObject({
        instanceId,
        topic,
        highestCompleted: 4n,
        inFlight: 0,
        completedUncommitted: 0,
        buffered: 0,
        paused: false,
        oldestUnfinishedOffset: null,
      });
    }
  });

  it('shows a quarantined partition as paused and restores its quarantine row if it went missing', async () => {
    await produce([{ partition: 0, value: 'not json' }]); // offset 5 of partition 0
    const quarantine = await eventually(
      'the quarantine row',
      async () => (await db.partitionQuarantine.findFirst({ where: { groupId } })) ?? undefined,
    );
    expect(quarantine).toMatchObject({ partition: 0, offset: 5n, errorClass: 'malformed-json' });

    // The event-driven save can miss (Postgres down at that moment): the next state write puts it back.
    await db.partitionQuarantine.deleteMany({ where: { groupId } });
    await writer.writeOnce();
    expect(await db.partitionQuarantine.findFirst({ where: { groupId } })).toMatchObject({
      partition: 0,
      offset: 5n,
      since: quarantine.since,
    });
    const state = await db.consumerPartitionState.findFirst({ where: { groupId, partition: 0 } });
    expect(state).toMatchObject({ paused: true, watermark: 5n });
  });

  it('removes a quarantine row the commit has passed, and keeps one at the commit (a new owner has not reached it)', async () => {
    const row = (offset: bigint) => ({
      groupId,
      topic,
      partition: 1,
      offset,
      reason: 'left behind',
      errorClass: 'malformed-json',
      since: new Date(0),
      attempts: 0,
      recordHeaders: {},
    });
    await db.partitionQuarantine.create({ data: row(2n) }); // partition 1 is committed to 5: resolved long ago
    await writer.writeOnce();
    expect(await db.partitionQuarantine.findFirst({ where: { groupId, partition: 1 } })).toBeNull();

    await db.partitionQuarantine.create({ data: row(5n) });
    await writer.writeOnce();
    expect(await db.partitionQuarantine.findFirst({ where: { groupId, partition: 1 } })).toMatchObject({ offset: 5n });
    await db.partitionQuarantine.deleteMany({ where: { groupId, partition: 1 } });
  });

  it('measures its stop when a second member joins and the group rebalances under it', async () => {
    const before = await db.rebalanceEvent.count({ where: { groupId, source: 'own-consumer' } });
    intruder = kafka.consumer({ groupId, heartbeatInterval: 500 });
    await intruder.connect();
    await intruder.subscribe({ topic, fromBeginning: true });
    await intruder.run({ eachMessage: async () => undefined });
    const rows = await eventually('a measured rebalance row', async () => {
      const all = await db.rebalanceEvent.findMany({
        where: { groupId, source: 'own-consumer' },
        orderBy: { id: 'asc' },
      });
      return all.length > before ? all : undefined;
    });
    const rebalance = rows[rows.length - 1]!;
    expect(rebalance).toMatchObject({ trigger: 'unknown', durationIsBound: false, partitionsMoved: 1 });
    expect(rebalance.durationMs).toBe(rebalance.endedAt!.getTime() - rebalance.startedAt.getTime());
    expect(rebalance.membersBefore).toMatchObject([{ assignment: { [topic]: [0, 1] } }]);
    expect(
      (rebalance.membersAfter as Array<{ assignment: Record<string, number[]> }>)[0]?.assignment[topic],
    ).toHaveLength(1);

    // The partition it gave away is no longer reported by it.
    const owned = pipeline.consumer.assignment.map((tp) => tp.partition);
    await writer.writeOnce();
    const states = await db.consumerPartitionState.findMany({ where: { groupId, instanceId } });
    expect(states.map((s) => s.partition)).toEqual(owned);
  });
});

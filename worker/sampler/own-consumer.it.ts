import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer } from 'kafkajs';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { startPipelineConsumer, upsertEvent } from '../../test-support/pipeline-consumer';

// What Warden's own consumer tells about itself, on the real broker and Postgres, wired as the worker wires it:
// the consumer publishes its state on the control plane and the worker's ingester writes it. The commit-prefix
// state per partition, the measured rebalances (named as the group names the member), the quarantine row kept
// in step with the core, and a clean stop.

const kafka = testKafka('warden-own-it');

describe("Warden's own consumer state and rebalances", () => {
  const prefix = uniqueName('own');
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  const instanceId = `${prefix}-instance`;
  let admin: Admin;
  let db: Database;
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
    pipeline = await startPipelineConsumer({
      kafka,
      db,
      groupId,
      topics: [topic],
      resultsTopic: `${prefix}-results`,
      control: { instanceId },
    });
  });

  afterAll(async () => {
    await intruder?.disconnect().catch(() => undefined);
    await pipeline?.stop();
    await admin?.disconnect();
    await db?.$disconnect();
  });

  it('measures its first join: exact duration, its assignment after, named as the group names it', async () => {
    const join = await eventually(
      'a measured join row',
      async () => (await db.rebalanceEvent.findFirst({ where: { groupId, source: 'own-consumer' } })) ?? undefined,
    );
    expect(join).toMatchObject({ trigger: 'join', durationIsBound: false, partitionsMoved: 2, reportedBy: instanceId });
    expect(join.durationMs).toBe(join.endedAt!.getTime() - join.startedAt.getTime());
    expect(join.membersBefore).toEqual([]);
    // The broker's view of the connection: the kafkajs client id and the address it connected from.
    expect(join.membersAfter).toMatchObject([
      { clientId: 'warden-own-it', clientHost: expect.stringMatching(/^\//), assignment: { [topic]: [0, 1] } },
    ]);
  });

  it('reports itself: a live instance owning both partitions', async () => {
    const instance = await eventually(
      'the instance row',
      async () => (await db.consumerInstance.findFirst({ where: { groupId, instanceId } })) ?? undefined,
    );
    expect(instance).toMatchObject({ status: 'running', clientId: groupId, stateIntervalMs: 500 });
    await eventually('both partitions in its assignment', async () => {
      const row = await db.consumerInstance.findFirstOrThrow({ where: { groupId, instanceId } });
      return (row.assignment as unknown[]).length === 2 ? true : undefined;
    });
  });

  it('writes the commit prefix per owned partition: watermark, nothing in flight once done', async () => {
    await produce(
      Array.from({ length: 10 }, (_, i) => ({
        partition: i % 2,
        value: upsertEvent(i, { businessId: `${prefix}-${i}` }),
      })),
    );
    const rows = await eventually('both partitions committed to 5', async () => {
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
    expect(quarantine).toMatchObject({ partition: 0, offset: 5n, errorClass: 'malformed-json', heldBy: instanceId });

    // A row removed by hand (or lost with a restored backup) comes back with the next state report.
    await db.partitionQuarantine.deleteMany({ where: { groupId } });
    const restored = await eventually(
      'the quarantine row restored',
      async () => (await db.partitionQuarantine.findFirst({ where: { groupId } })) ?? undefined,
    );
    expect(restored).toMatchObject({ partition: 0, offset: 5n, since: quarantine.since });
    const state = await eventually('partition 0 paused', async () => {
      const row = await db.consumerPartitionState.findFirst({ where: { groupId, partition: 0 } });
      return row?.paused ? row : undefined;
    });
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
      heldSince: new Date(0),
      attempts: 0,
      recordHeaders: {},
    });
    await db.partitionQuarantine.create({ data: row(2n) }); // partition 1 is committed to 5: resolved long ago
    await eventually('the passed row removed', async () =>
      (await db.partitionQuarantine.findFirst({ where: { groupId, partition: 1 } })) === null ? true : undefined,
    );

    await db.partitionQuarantine.create({ data: row(5n) });
    // Two state reports later (500 ms apart) it is still there.
    const instance = await db.consumerInstance.findFirstOrThrow({ where: { groupId, instanceId } });
    await eventually('two more reports', async () => {
      const now = await db.consumerInstance.findFirstOrThrow({ where: { groupId, instanceId } });
      return now.reportedAt.getTime() >= instance.reportedAt.getTime() + 1_000 ? true : undefined;
    });
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
        orderBy: { startedAt: 'asc' },
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
    await eventually('only its own partition left under its name', async () => {
      const states = await db.consumerPartitionState.findMany({ where: { groupId, instanceId } });
      return states.length === owned.length && states.every((s) => owned.includes(s.partition)) ? true : undefined;
    });
  });

  it('a clean stop reports it stopped and takes its commit-prefix rows away', async () => {
    await intruder?.disconnect();
    intruder = null;
    // The consumer stops first here, so its last ('stopped') state is ingested by the worker side still running.
    const worker = pipeline.control!.worker!;
    await pipeline.consumer.stop(5_000);
    await eventually('the instance reported stopped', async () => {
      const row = await db.consumerInstance.findFirstOrThrow({ where: { groupId, instanceId } });
      return row.status === 'stopped' ? true : undefined;
    });
    expect(await db.consumerPartitionState.count({ where: { groupId, instanceId } })).toBe(0);
    await worker.stop();
  });
});

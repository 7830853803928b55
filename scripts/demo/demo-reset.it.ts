import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer } from 'kafkajs';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { committedOffsets, createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { resetDemoState } from './demo-reset';

// The demo's fresh start on the real broker and Postgres: the previous run's topics, commits, samples,
// quarantine, reported instances and pending actions go, for the demo's group and its other groups (the plain
// consumer's, the orders service's); other groups' and topics' rows, and the audit log, stay; a group with live
// members is refused and nothing is touched.

const kafka = testKafka('demo-reset-it');
let admin: Admin;
let db: Database;
const consumers: Consumer[] = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  db = testDatabase();
});

afterAll(async () => {
  await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
  await admin.disconnect();
  await db.$disconnect();
});

async function seedRun(groupId: string, topics: string[]): Promise<void> {
  for (const topic of topics) await createTopic(admin, topic, 2);
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({
    topic: topics[0]!,
    acks: -1,
    messages: [0, 1, 2].map((n) => ({ partition: 0, value: `old-${n}` })),
  });
  await producer.disconnect();
  await admin.setOffsets({ groupId, topic: topics[0]!, partitions: [{ partition: 0, offset: '2' }] });
  const at = new Date();
  await db.lagSample.create({
    data: {
      sampledAt: at,
      groupId,
      topic: topics[0]!,
      partition: 0,
      committedOffset: 2n,
      logStartOffset: 0n,
      logEndOffset: 3n,
      lag: 1n,
      groupState: 'Empty',
    },
  });
  await db.partitionQuarantine.create({
    data: {
      groupId,
      topic: topics[0]!,
      partition: 1,
      offset: 0n,
      reason: 'poison',
      errorClass: 'malformed',
      since: at,
      attempts: 0,
      recordHeaders: {},
    },
  });
  await db.logEndPoint.create({ data: { topic: topics[0]!, partition: 0, offset: 3n, at } });
  await db.consumerInstance.create({
    data: {
      cluster: 'default',
      groupId,
      instanceId: `${groupId}@host/42`,
      clientId: groupId,
      host: 'host',
      pid: 42,
      packageVersion: '0.1.0',
      startedAt: at,
      reportedAt: at,
      stateIntervalMs: 5_000,
      status: 'running',
      ready: true,
      readinessDetail: 'joined',
      assignment: [{ topic: topics[0]!, partition: 0 }],
    },
  });
  await db.operatorAction.createMany({
    data: [
      {
        groupId,
        topic: topics[0]!,
        partition: 1,
        action: 'skip',
        reason: 'pending',
        requestedBy: 'it',
        status: 'pending',
      },
      {
        groupId,
        topic: topics[0]!,
        partition: 1,
        action: 'resume',
        reason: 'audit',
        requestedBy: 'it',
        status: 'done',
      },
    ],
  });
}

describe('resetDemoState', () => {
  it("removes the previous run's topics, commits and rows of the demo's groups only, and keeps the audit", async () => {
    const prefix = uniqueName('demo-reset');
    const groupId = `${prefix}-group`;
    const topics = [`${prefix}-events`, `${prefix}-results`, `${prefix}-dlq`];
    // The orders service's group and topic: a group of the demo's besides its own.
    const service = { groupId: `${prefix}-orders-service`, topics: [`${prefix}-orders`] };
    const other = { groupId: `${prefix}-other`, topics: [`${prefix}-other-events`] };
    await seedRun(groupId, topics);
    await seedRun(service.groupId, service.topics);
    await seedRun(other.groupId, other.topics);

    const result = await resetDemoState(admin, db, {
      groupId,
      otherGroupIds: [service.groupId],
      topics: [...topics, ...service.topics],
    });
    expect(result).toEqual({
      topicsDeleted: [...topics, ...service.topics],
      samplesDeleted: 2,
      quarantinesDeleted: 2,
      actionsExpired: 2,
    });
    for (const g of [groupId, service.groupId]) {
      expect(await db.consumerInstance.count({ where: { groupId: g } })).toBe(0);
      expect(await db.partitionQuarantine.count({ where: { groupId: g } })).toBe(0);
      expect(await db.operatorAction.count({ where: { groupId: g, status: 'pending' } })).toBe(0);
    }
    expect((await admin.listTopics()).includes(service.topics[0]!)).toBe(false);

    const left = new Set(await admin.listTopics());
    expect(topics.filter((topic) => left.has(topic))).toEqual([]);
    expect(left.has(other.topics[0]!)).toBe(true);
    expect(await db.lagSample.count({ where: { groupId } })).toBe(0);
    expect(await db.partitionQuarantine.count({ where: { groupId } })).toBe(0);
    expect(await db.logEndPoint.count({ where: { topic: { in: topics } } })).toBe(0);
    const actions = await db.operatorAction.findMany({ where: { groupId }, orderBy: { id: 'asc' } });
    expect(actions.map((a) => [a.reason, a.status])).toEqual([
      ['pending', 'expired'],
      ['audit', 'done'],
    ]);
    // The other group and its topic are untouched.
    expect(await db.lagSample.count({ where: { groupId: other.groupId } })).toBe(1);
    expect(await db.partitionQuarantine.count({ where: { groupId: other.groupId } })).toBe(1);
    expect(await db.logEndPoint.count({ where: { topic: other.topics[0]! } })).toBe(1);
    expect(await db.consumerInstance.count({ where: { groupId: other.groupId } })).toBe(1);
    expect(await db.operatorAction.count({ where: { groupId: other.groupId, status: 'pending' } })).toBe(1);
    expect((await committedOffsets(admin, other.groupId, other.topics[0]!)).get(0)).toBe('2');

    // Recreated under the same name, the input topic starts empty and the group has no commit on it.
    await eventually('the input topic created again', async () => {
      await createTopic(admin, topics[0]!, 2);
      return true;
    });
    // kafkajs may still know the old topic's leaders for a moment (NOT_LEADER_OR_FOLLOWER): read until it does not.
    const highs = await eventually('the recreated topic readable', async () =>
      (await admin.fetchTopicOffsets(topics[0]!)).map((p) => p.high),
    );
    expect(highs).toEqual(['0', '0']);
    expect((await committedOffsets(admin, groupId, topics[0]!)).get(0) ?? '-1').toBe('-1');
  });

  it("refuses when one of the demo's groups has live members (a service still running), and touches nothing", async () => {
    const prefix = uniqueName('demo-reset-live');
    const groupId = `${prefix}-group`;
    const serviceGroupId = `${prefix}-orders-service`;
    const topics = [`${prefix}-events`];
    await seedRun(groupId, topics);
    // The orders service of an earlier run is still up: it is a member of its own group.
    const consumer = kafka.consumer({ groupId: serviceGroupId, sessionTimeout: 10_000, heartbeatInterval: 500 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: topics[0]!, fromBeginning: true });
    await consumer.run({ eachMessage: async () => undefined });
    await eventually('the consumer to join', async () => {
      const { groups } = await admin.describeGroups([serviceGroupId]);
      return groups[0]?.state === 'Stable' ? true : undefined;
    });

    await expect(resetDemoState(admin, db, { groupId, otherGroupIds: [serviceGroupId], topics })).rejects.toThrow(
      `consumer group ${serviceGroupId} has 1 live member(s): stop them before the demo starts over`,
    );
    expect((await admin.listTopics()).includes(topics[0]!)).toBe(true);
    expect(await db.lagSample.count({ where: { groupId } })).toBe(1);
  });
});

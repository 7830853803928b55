import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { ClusterReader } from '../kafka/cluster-reader';
import { LagSampler } from '../../worker/sampler/lag-sampler';
import { parseClientSettings } from '../advisor/client-settings';
import { getGroupAdvice } from './get-group-advice';

// GET /api/groups/{groupId}/advice from what the real sampler wrote about groups this test drives with plain
// kafkajs consumers on the real broker: member restarts counted from the sampler's rebalance rows (and the
// rebalance pause the plan counts), the poll budget from a slow member's measured rate with the Java
// client's settings assumed, and the backlog of a partition the group never committed by its reset policy.

const admin = testKafka('warden-advice-it-admin');
/** One kafkajs client per identity: describeGroups shows its client id, and a restart keeps it. */
const restarting = testKafka('advice-restarting');
const steady = testKafka('advice-steady');
const slowClient = testKafka('advice-slow');
const halfCommitting = testKafka('advice-half-committing');

const SLOW_RECORD_MS = 1_000;

describe('advice from real samples', () => {
  const prefix = uniqueName('advice');
  const restartTopic = `${prefix}-restart`;
  const restartGroup = `${prefix}-restart-group`;
  const slowTopic = `${prefix}-slow`;
  const slowGroup = `${prefix}-slow-group`;
  const uncommittedTopic = `${prefix}-uncommitted`;
  const uncommittedGroup = `${prefix}-uncommitted-group`;
  /** Holds the handler of the partition the group never commits until the test ends. */
  let releaseHeld: () => void = () => undefined;
  const consumers: Consumer[] = [];
  let kafkaAdmin: Admin;
  let db: Database;
  let sampler: LagSampler;

  async function produce(topic: string, partitions: number, perPartition: number): Promise<void> {
    const producer = admin.producer();
    await producer.connect();
    for (let partition = 0; partition < partitions; partition++) {
      await producer.send({
        topic,
        acks: -1,
        messages: Array.from({ length: perPartition }, (_, i) => ({ partition, value: `v${i}` })),
      });
    }
    await producer.disconnect();
  }

  async function start(
    kafka: Kafka,
    groupId: string,
    topic: string,
    eachMessage: () => Promise<void>,
  ): Promise<Consumer> {
    const consumer = kafka.consumer({ groupId, sessionTimeout: 10_000, heartbeatInterval: 500, maxWaitTimeInMs: 200 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ autoCommitInterval: 100, eachMessage });
    return consumer;
  }

  /** Samples until describeGroups shows the restart group Stable with exactly these client ids, then once more. */
  async function settle(clientIds: string[]): Promise<string[]> {
    const memberIds = await eventually(
      `${restartGroup} Stable with ${clientIds.join(', ')}`,
      async () => {
        await sampler.sampleOnce();
        const { groups } = await kafkaAdmin.describeGroups([restartGroup]);
        const group = groups[0];
        const seen = (group?.members ?? []).map((m) => m.clientId).sort();
        return group?.state === 'Stable' && JSON.stringify(seen) === JSON.stringify([...clientIds].sort())
          ? group.members.map((m) => m.memberId)
          : undefined;
      },
      60_000,
    );
    await sampler.sampleOnce();
    return memberIds;
  }

  beforeAll(async () => {
    kafkaAdmin = admin.admin();
    await kafkaAdmin.connect();
    db = testDatabase();
    await createTopic(kafkaAdmin, restartTopic, 2);
    await createTopic(kafkaAdmin, slowTopic, 1);
    await createTopic(kafkaAdmin, uncommittedTopic, 2);
    sampler = new LagSampler({
      cluster: 'default',
      reader: new ClusterReader({
        kafka: admin,
        ownGroupId: 'warden-unrelated',
        include: new RegExp(`^${prefix}-`),
        exclude: null,
      }),
      db,
      lock: null,
      instanceId: 'advice-it',
      intervalMs: 500,
      maxBackoffMs: 2_000,
      state: {
        timeLagPoints: 60,
        timeLagSpacingMs: 0,
        rateWindowMs: 30_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 0,
      },
      retention: { rawDays: 7, rollupDays: 90 },
    });
  });

  afterAll(async () => {
    releaseHeld();
    await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
    await sampler?.stop();
    await kafkaAdmin?.disconnect();
    await db?.$disconnect();
  });

  it('counts a member restarted twice from the rebalance rows and recommends static membership; measures the poll budget of a slow member', async () => {
    await produce(restartTopic, 2, 20);
    await produce(slowTopic, 1, 300);
    // The slow group: one member spending SLOW_RECORD_MS on every record, with hundreds waiting.
    const slowStarted = Date.now();
    await start(slowClient, slowGroup, slowTopic, () => new Promise((resolve) => setTimeout(resolve, SLOW_RECORD_MS)));

    // The restart group: a steady member, and one that restarts twice (a clean leave, then a new consumer).
    await start(steady, restartGroup, restartTopic, async () => undefined);
    let member = await start(restarting, restartGroup, restartTopic, async () => undefined);
    const firstIds = await settle(['advice-restarting', 'advice-steady']);
    const idsSeen = new Set(firstIds);
    for (let restart = 0; restart < 2; restart++) {
      await member.disconnect();
      await settle(['advice-steady']);
      member = await start(restarting, restartGroup, restartTopic, async () => undefined);
      for (const id of await settle(['advice-restarting', 'advice-steady'])) idsSeen.add(id);
    }
    expect(idsSeen.size).toBe(4); // the steady member's id, and three ids of the restarting one

    const rows = await db.rebalanceEvent.findMany({ where: { groupId: restartGroup, source: 'describe-groups' } });
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const options = { timeLagObjectiveMs: null, rateWindowMs: 30_000, targetCatchUpSec: 300 };
    const restartAdvice = await getGroupAdvice(db, 'default', restartGroup, options);
    // No Warden member measured these rebalances: the pause T counts is the sampler's bound around them.
    expect(restartAdvice.rebalancePause).toMatchObject({ basis: 'sampled-bound' });
    expect(restartAdvice.rebalancePause.sampleSize).toBeGreaterThan(0);
    expect(restartAdvice.rebalancePause.sec).toBeGreaterThan(0);
    const churn = restartAdvice.advice.find((a) => a.id === 'member-id-churn');
    expect(churn?.evidence).toMatchObject({
      restarts: 2,
      restartsWithNewMemberId: 2,
      windowMs: 3_600_000,
      rejoinWithinMs: 300_000,
    });
    expect(churn?.detail).toMatch(/^All 2 observed member restarts in the last 1 h came back as a new dynamic member/);

    // Enough sampled commits of the slow member for a rate commit to commit over the window.
    await eventually(
      'a measured rate of the slow member',
      async () => {
        await sampler.sampleOnce();
        if (Date.now() - slowStarted < 20_000) return undefined;
        const advice = await getGroupAdvice(db, 'default', slowGroup, options);
        return advice.perConsumerRate.ratePerSec !== null && !advice.perConsumerRate.isLowerBound ? advice : undefined;
      },
      90_000,
    );
    const slowAdvice = await getGroupAdvice(db, 'default', slowGroup, options);
    const budget = slowAdvice.advice.find((a) => a.id === 'poll-budget');
    // About 1 record per second committed: 500 records x ~1 s against 300 s, a rebalance loop for a Java client.
    expect(budget?.severity).toBe('critical');
    expect(budget?.evidence).toMatchObject({
      maxBatchRecords: 500,
      limitMs: 300_000,
      limitName: 'max.poll.interval.ms',
    });
    expect(budget?.evidence.slowRecordMs).toBeGreaterThanOrEqual(SLOW_RECORD_MS * 0.9);
    expect(budget?.evidence.slowRecordMs).toBeLessThan(SLOW_RECORD_MS * 2);
    expect(budget?.evidence.slowRecordMsBasis).toMatch(
      /^mean estimate, 1 \/ [\d.]+ records\/s committed by advice-slow/,
    );
    expect(budget?.evidence.assumed).toMatch(
      /max\.poll\.records 500 \(Java client default\).*max\.poll\.interval\.ms 300000 \(Java client default\)/,
    );
    // The fast restart group's members never had records waiting: no poll budget measured for it.
    expect(restartAdvice.advice.find((a) => a.id === 'poll-budget')).toBeUndefined();
  });

  it('counts a partition the group never committed by its reset policy: the log from its start, nothing, or no promise', async () => {
    await produce(uncommittedTopic, 2, 300);
    // The log of partition 1 starts at 100 now: from the log start the group reads 200 records, not 300.
    await kafkaAdmin.deleteTopicRecords({ topic: uncommittedTopic, partitions: [{ partition: 1, offset: '100' }] });
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    const consumer = halfCommitting.consumer({
      groupId: uncommittedGroup,
      sessionTimeout: 30_000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 200,
    });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: uncommittedTopic, fromBeginning: true });
    // Partition 0 is worked through at about 10 records/s with records waiting; partition 1's first record
    // never finishes, so the group never commits there.
    await consumer.run({
      autoCommitInterval: 100,
      partitionsConsumedConcurrently: 2,
      eachMessage: ({ partition }) => (partition === 1 ? held : new Promise((resolve) => setTimeout(resolve, 100))),
    });
    const options = { timeLagObjectiveMs: null, rateWindowMs: 10_000, targetCatchUpSec: 300 };
    const unknown = await eventually(
      'a plan for the group with partition 1 never committed',
      async () => {
        await sampler.sampleOnce();
        const advice = await getGroupAdvice(db, 'default', uncommittedGroup, options);
        return advice.planState === 'planned' && !advice.perConsumerRate.isLowerBound && advice.partitions.length === 2
          ? advice
          : undefined;
      },
      60_000,
    );
    const p1 = (a: typeof unknown) => a.partitions.find((p) => p.partition === 1);
    expect(p1(unknown)).toMatchObject({ backlog: null, backlogBasis: 'unknown' });
    expect(unknown.offsetReset).toMatchObject({ policy: null, uncommittedPartitions: 1, recordsFromLogStart: 200 });
    expect(unknown.offsetReset.catchUpSecFromLogStart).toBeGreaterThan(unknown.plan!.catchUpSec!);
    expect(unknown.offsetReset.statement).toMatch(
      /^T is not a promise: 1 partition never committed.*From the log start they hold 200 records/,
    );

    const settings = (policy: string) =>
      parseClientSettings(JSON.stringify({ [uncommittedGroup]: { autoOffsetReset: policy } }));
    const earliest = await getGroupAdvice(db, 'default', uncommittedGroup, {
      ...options,
      clientSettings: settings('earliest'),
    });
    expect(p1(earliest)).toMatchObject({ backlog: 200, backlogBasis: 'log-start' });
    expect(earliest.offsetReset.statement).toMatch(
      /^1 partition never committed: counted from the log start \(200 records\)/,
    );
    expect(earliest.plan!.catchUpSec!).toBeGreaterThan(unknown.plan!.catchUpSec!);
    const latest = await getGroupAdvice(db, 'default', uncommittedGroup, {
      ...options,
      clientSettings: settings('latest'),
    });
    expect(p1(latest)).toMatchObject({ backlog: 0, backlogBasis: 'log-end' });
    expect(latest.offsetReset.policy).toBe('latest');
    releaseHeld();
  });
});

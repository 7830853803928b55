import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { committedOffsets, createTopic, eventually, testKafka } from '../../test-support/integration';
import { refusal } from '../../test-support/refusal';
import { commitOffsets } from '../../test-support/commit-offsets';
import { ZOffsetResetRequest, type TOffsetResetRequest } from '../schemas/offset-reset';
import { describeZodError } from './api-error';
import { connectGroupOffsets, GroupNotEmptyError, type GroupOffsetsPort } from './offset-reset/kafka-group-offsets';
import { resetGroupOffsets } from './reset-group-offsets';

// Offset resets on the real broker and Postgres: a reset moves an Empty group's committed offsets and is
// audited under the operator's name; a Stable group, a Warden consumer and bad input are refused with nothing
// changed (offsets and audit log alike); and the broker itself refuses the admin commit while a member is in
// the group, so a consumer joining after the state check cannot be overtaken by a reset.

const PARTITIONS = 3;
const RECORDS = 10;
const T0 = Date.now() - 3_600_000;

let kafka: Kafka;
let admin: Admin;
let db: Database;
let port: GroupOffsetsPort;
const id = randomUUID().slice(0, 8);
const topic = `reset-${id}-events`;
const emptyGroup = `reset-${id}-empty`;
const stableGroup = `reset-${id}-stable`;
const wardenGroup = `reset-${id}-warden`;
const reportingGroup = `reset-${id}-reporting`;
let consumer: Consumer | undefined;

async function seedSample(groupId: string, state: string) {
  await db.lagSample.createMany({
    data: Array.from({ length: PARTITIONS }, (_, partition) => ({
      sampledAt: new Date(),
      groupId,
      topic,
      partition,
      committedOffset: 2n,
      logStartOffset: 0n,
      logEndOffset: BigInt(RECORDS),
      lag: BigInt(RECORDS - 2),
      groupState: state,
    })),
  });
}

const audit = (groupId: string) => db.operatorAction.findMany({ where: { groupId }, orderBy: { id: 'asc' } });
const committed = async (groupId: string) => Object.fromEntries(await committedOffsets(admin, groupId, topic));
const reset = (groupId: string, body: Omit<TOffsetResetRequest, 'reason'> & { reason?: string }) =>
  resetGroupOffsets(
    db,
    port,
    { cluster: 'default', groupId },
    ZOffsetResetRequest.parse({ reason: 'integration test', ...body }),
    'olga',
  );

beforeAll(async () => {
  db = testDatabase();
  kafka = testKafka('warden-reset-test');
  admin = kafka.admin();
  await admin.connect();
  await createTopic(admin, topic, PARTITIONS);
  // Record i of every partition is stamped T0 + i s, so "the first offset at or after T0 + 4.5 s" is 5.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: Array.from({ length: PARTITIONS * RECORDS }, (_, n) => ({
      partition: n % PARTITIONS,
      value: `r${n}`,
      timestamp: String(T0 + Math.floor(n / PARTITIONS) * 1_000),
    })),
  });
  await producer.disconnect();
  for (const groupId of [emptyGroup, wardenGroup]) {
    await commitOffsets(
      kafka,
      groupId,
      topic,
      Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, offset: '2' })),
    );
  }
  await seedSample(emptyGroup, 'Empty');
  await seedSample(wardenGroup, 'Empty');
  await seedSample(reportingGroup, 'Empty');
  await db.consumerPartitionState.create({
    data: {
      groupId: wardenGroup,
      topic,
      partition: 0,
      instanceId: 'w1',
      sampledAt: new Date(),
      inFlight: 0,
      completedUncommitted: 0,
      buffered: 0,
      bufferedBytes: 0,
      paused: false,
    },
  });
  port = await connectGroupOffsets(kafka);
});

afterAll(async () => {
  await consumer?.disconnect();
  await port?.close();
  await admin?.disconnect();
  await db?.$disconnect();
});

describe('offset reset of a group that is not a Warden consumer', () => {
  it('resets an Empty group per topic and per partition, to earliest, an offset, a time and latest, and audits each partition', async () => {
    expect(await port.describeGroup(emptyGroup)).toEqual({ state: 'Empty', members: 0 });

    const earliest = await reset(emptyGroup, { topic, to: 'earliest' });
    expect(earliest).toMatchObject({ groupId: emptyGroup, topic, to: 'earliest', state: 'Empty' });
    expect(earliest.partitions).toEqual(
      [0, 1, 2].map((partition) => ({ partition, previousOffset: '2', offset: '0' })),
    );
    expect(await committed(emptyGroup)).toEqual({ 0: '0', 1: '0', 2: '0' });

    await reset(emptyGroup, { topic, partition: 1, to: 'offset', offset: '7' });
    expect(await committed(emptyGroup)).toEqual({ 0: '0', 1: '7', 2: '0' });

    const byTime = await reset(emptyGroup, {
      topic,
      partition: 2,
      to: 'timestamp',
      timestamp: new Date(T0 + 4_500).toISOString(),
    });
    expect(byTime.partitions).toEqual([{ partition: 2, previousOffset: '0', offset: '5' }]);

    await reset(emptyGroup, { topic, to: 'latest' });
    expect(await committed(emptyGroup)).toEqual({ 0: String(RECORDS), 1: String(RECORDS), 2: String(RECORDS) });

    const rows = await audit(emptyGroup);
    expect(rows).toHaveLength(3 + 1 + 1 + 3);
    expect(
      rows.every(
        (r) => r.action === 'reset' && r.status === 'done' && r.requestedBy === 'olga' && r.executedBy === 'dashboard',
      ),
    ).toBe(true);
    expect(rows[3]).toMatchObject({
      partition: 1,
      seekOffset: 7n,
      outcome: 'committed offset reset to offset 7: 0 → 7',
    });
    expect(rows[4]!.outcome).toBe(
      `committed offset reset to the first offset at or after ${new Date(T0 + 4_500).toISOString()}: 0 → 5`,
    );
    expect(earliest.auditIds).toEqual(rows.slice(0, 3).map((r) => r.id.toString()));
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const before = { offsets: await committed(emptyGroup), audit: (await audit(emptyGroup)).length };
    const cases: Array<[Omit<TOffsetResetRequest, 'reason'>, number, RegExp, string]> = [
      [
        { topic, partition: 0, to: 'offset', offset: '11' },
        400,
        /^offset: 11 is outside the log of .*-0: it must be between the log start 0 and the log end 10$/,
        'offset',
      ],
      [
        { topic, partition: 9, to: 'earliest' },
        404,
        /^partition: topic .* has no partition 9 \(its partitions: 0-2\)$/,
        'partition',
      ],
      [
        { topic: `${topic}-other`, to: 'earliest' },
        404,
        /^topic: consumer group .* has no partitions of topic/,
        'topic',
      ],
      [
        { topic, to: 'timestamp', timestamp: new Date(Date.now() + 3_600_000).toISOString() },
        400,
        /^timestamp: is in the future/,
        'timestamp',
      ],
    ];
    for (const [body, status, message, field] of cases) {
      const error = await refusal(reset(emptyGroup, body));
      expect([error.status, error.field]).toEqual([status, field]);
      expect(error.message).toMatch(message);
    }
    const invalid: Array<[unknown, string]> = [
      [{ topic, to: 'oldest', reason: 'x' }, 'to: must be one of earliest, latest, timestamp, offset'],
      [
        { topic, to: 'offset', offset: '3', reason: 'x' },
        'partition: is required to reset to an explicit offset (offsets differ per partition)',
      ],
      [{ topic, to: 'earliest', reason: ' ' }, 'reason: is required: say why, for the audit log'],
      [{ topic, to: 'earliest', partition: -1, reason: 'x' }, 'partition: must be a partition number (0 or more)'],
      [{ topic, to: 'latest', offset: '3', reason: 'x' }, 'offset: only to=offset takes one; to=latest does not'],
    ];
    for (const [body, message] of invalid) {
      const parsed = ZOffsetResetRequest.safeParse(body);
      expect(parsed.success).toBe(false);
      expect(describeZodError(parsed.error!).error).toBe(message);
    }
    expect(await committed(emptyGroup)).toEqual(before.offsets);
    expect(await audit(emptyGroup)).toHaveLength(before.audit);
  });

  it('refuses a Warden consumer: its partitions move through the owning worker', async () => {
    const error = await refusal(reset(wardenGroup, { topic, to: 'earliest' }));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/is a Warden consumer/);
    expect(await committed(wardenGroup)).toEqual({ 0: '2', 1: '2', 2: '2' });
  });

  it('refuses a group whose consumers report to Warden, even with none running now', async () => {
    // Its one instance stopped cleanly ten minutes ago: listed on the group page, so the page offers no reset.
    await db.consumerInstance.create({
      data: {
        groupId: reportingGroup,
        instanceId: `${reportingGroup}@host-a/4242`,
        clientId: reportingGroup,
        host: 'host-a',
        pid: 4242,
        packageVersion: '0.1.0',
        startedAt: new Date(Date.now() - 3_600_000),
        reportedAt: new Date(Date.now() - 600_000),
        stateIntervalMs: 5_000,
        status: 'stopped',
        ready: false,
        readinessDetail: 'stopped',
        assignment: [],
        cluster: 'default',
      },
    });
    const error = await refusal(reset(reportingGroup, { topic, to: 'earliest' }));
    expect(error.status).toBe(409);
    expect(error.message).toMatch(/is a Warden consumer/);
    expect(await audit(reportingGroup)).toHaveLength(0);
  });

  it('refuses a Stable group, and the broker refuses the admin commit while a member is in the group', async () => {
    consumer = kafka.consumer({ groupId: stableGroup });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ autoCommit: true, eachMessage: async () => undefined });
    await eventually(
      'the consumer group to be Stable',
      async () => ((await port.describeGroup(stableGroup)).state === 'Stable' ? true : undefined),
      60_000,
    );
    await eventually(
      'the consumer to commit to the log end',
      async () => ((await committed(stableGroup))[0] === String(RECORDS) ? true : undefined),
      60_000,
    );
    await seedSample(stableGroup, 'Stable');

    const error = await refusal(reset(stableGroup, { topic, to: 'earliest' }));
    expect(error.status).toBe(409);
    expect(error.message).toBe(
      `consumer group "${stableGroup}" is Stable with 1 member: offsets can only be reset while no consumer is in the group (Empty or Dead), ` +
        'since a member would overwrite them with its next commit. Stop its consumers, wait until the group is Empty, then reset.',
    );
    expect(await audit(stableGroup)).toHaveLength(0);

    // Past the state check (a member joined just after it), the write itself is refused by the broker.
    await expect(port.commitOffsets(stableGroup, topic, [{ partition: 0, offset: '0' }])).rejects.toBeInstanceOf(
      GroupNotEmptyError,
    );
    expect((await committed(stableGroup))[0]).toBe(String(RECORDS));
  });
});

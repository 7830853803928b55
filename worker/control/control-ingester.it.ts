import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Producer } from 'kafkajs';
import { controlTopicNames, encodeControlMessage, stateKey, type TInstanceState } from '@warden/consumer';
import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { eventually, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { createControlTopics } from '../../test-support/pipeline-consumer';
import { groupMemberIdentity } from '../kafka/group-member-identity';
import { ControlIngester } from './control-ingester';
import type { RecordedOutcome } from './ingest-instance-state';
import { holdOf, instanceStateOf, outcomeOf, partitionStateOf, rebalanceStopOf } from './testing/instance-states';

// The state ingester on the real broker and Postgres: hand-built instance states produced to the state topic
// of a prefix of this file's own become rows; each test uses a group of its own.

const kafka = testKafka('control-ingester-it');
let admin: Admin;
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

const prefix = uniqueName('ingest-it');
const stateTopic = controlTopicNames(prefix).state;
let producer: Producer;
let ingester: ControlIngester;
const recorded: RecordedOutcome[] = [];

beforeAll(async () => {
  await createControlTopics(kafka, prefix);
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  ingester = new ControlIngester({
    kafka,
    db,
    cluster: DEFAULT_CLUSTER,
    topicPrefix: prefix,
    identify: (groupId, memberId) => groupMemberIdentity(admin, groupId, memberId),
    onRecorded: (outcome) => recorded.push(outcome),
    retry: { baseMs: 100, maxMs: 1_000 },
  });
  await ingester.start();
});

afterAll(async () => {
  await ingester?.stop();
  await producer?.disconnect();
});

let clock = Date.parse('2026-12-07T10:05:00Z');
/** A state published now (each call one second later than the last), keyed as an instance keys it. */
async function publish(state: Partial<TInstanceState> & { groupId: string }, publishedAtMs = (clock += 1_000)) {
  const full = instanceStateOf({ ...state, publishedAtMs });
  await producer.send({
    topic: stateTopic,
    acks: -1,
    messages: [{ key: stateKey(full.groupId, full.instanceId), value: encodeControlMessage(full) }],
  });
  return full;
}

/** Waits until the ingester has dealt with `count` more messages than `before` (written, stale or refused). */
async function dealtWith(before: number, count = 1): Promise<void> {
  await eventually(`${count} message(s) ingested`, async () => (handled() >= before + count ? true : undefined));
}
const handled = () =>
  ingester.stats.ingested + ingester.stats.stale + ingester.stats.refused + ingester.stats.tombstones;

async function pendingAction(
  groupId: string,
  overrides: { action?: string; partition?: number; offset?: bigint } = {},
) {
  return db.operatorAction.create({
    data: {
      cluster: DEFAULT_CLUSTER,
      groupId,
      topic: 'orders',
      partition: overrides.partition ?? 0,
      action: overrides.action ?? 'skip',
      quarantineOffset: overrides.offset ?? 5n,
      reason: 'test',
      requestedBy: 'alice',
      relayedAt: new Date(),
    },
  });
}

describe('ControlIngester on the real broker and database', () => {
  it("writes an instance's state: its row, its commit prefix, its hold with the holder, its rebalance stops; twice is once", async () => {
    const groupId = uniqueName('g');
    const state = await publish({
      groupId,
      assignment: [
        { topic: 'orders', partition: 0 },
        { topic: 'orders', partition: 1 },
      ],
      partitions: [
        partitionStateOf({ partition: 0, watermark: '5', highestCompleted: '7', completedUncommitted: 2 }),
        partitionStateOf({ partition: 1, watermark: '12', inFlight: 1, oldestUnfinishedOffset: '12' }),
      ],
      holds: [holdOf({ partition: 0, offset: '5', key: 'order-5', value: 'a\u001bb' })],
      rebalances: [rebalanceStopOf({ cause: 'join', assignmentAfter: [{ topic: 'orders', partition: 0 }] })],
    });
    const instance = await eventually(
      'the instance row',
      async () => (await db.consumerInstance.findFirst({ where: { groupId } })) ?? undefined,
    );
    expect(instance).toMatchObject({
      cluster: DEFAULT_CLUSTER,
      instanceId: state.instanceId,
      clientId: 'orders-svc',
      host: 'pod-1',
      status: 'running',
      ready: true,
      reportedAt: new Date(state.publishedAtMs),
      assignment: state.assignment,
    });
    const partitions = await db.consumerPartitionState.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
    expect(partitions).toMatchObject([
      { partition: 0, instanceId: state.instanceId, watermark: 5n, highestCompleted: 7n, paused: true },
      { partition: 1, instanceId: state.instanceId, watermark: 12n, inFlight: 1, oldestUnfinishedOffset: 12n },
    ]);
    const quarantine = await db.partitionQuarantine.findFirstOrThrow({ where: { groupId } });
    expect(quarantine).toMatchObject({
      partition: 0,
      offset: 5n,
      heldBy: state.instanceId,
      failures: 1,
      recordKey: 'order-5',
      recordPreview: 'a\\u001bb',
      since: new Date(state.holds[0]!.sinceMs),
    });
    const [rebalance, ...more] = await db.rebalanceEvent.findMany({ where: { groupId } });
    expect(more).toHaveLength(0);
    // The group does not list the member (it is hand-built): the instance's own name is kept.
    expect(rebalance).toMatchObject({
      source: 'own-consumer',
      reportedBy: state.instanceId,
      trigger: 'join',
      durationIsBound: false,
      durationMs: 250,
      membersAfter: [{ clientId: 'orders-svc', clientHost: 'pod-1', assignment: { orders: [0] } }],
    });

    // The same message again (an ingester that restarted before its commit): nothing changes.
    const before = handled();
    await producer.send({
      topic: stateTopic,
      acks: -1,
      messages: [{ key: stateKey(groupId, state.instanceId), value: encodeControlMessage(state) }],
    });
    await dealtWith(before);
    expect(await db.rebalanceEvent.count({ where: { groupId } })).toBe(1);
    expect(await db.partitionQuarantine.findFirstOrThrow({ where: { groupId } })).toEqual(quarantine);
    expect(await db.consumerPartitionState.count({ where: { groupId } })).toBe(2);
  });

  it('ignores a message older than the stored report', async () => {
    const groupId = uniqueName('g');
    await publish({ groupId, readinessDetail: 'newest', partitions: [partitionStateOf({ watermark: '9' })] });
    await eventually(
      'the instance row',
      async () => (await db.consumerInstance.findFirst({ where: { groupId } })) ?? undefined,
    );
    const stale = ingester.stats.stale;
    await publish(
      { groupId, readinessDetail: 'older', partitions: [partitionStateOf({ watermark: '3' })] },
      Date.parse('2026-01-01T00:00:00Z'),
    );
    await eventually('the old message counted stale', async () => (ingester.stats.stale > stale ? true : undefined));
    expect(await db.consumerInstance.findFirstOrThrow({ where: { groupId } })).toMatchObject({
      readinessDetail: 'newest',
    });
    expect((await db.consumerPartitionState.findFirstOrThrow({ where: { groupId } })).watermark).toBe(9n);
  });

  it('records a skip applied: done by the instance, the card gone; an expired action still takes its outcome', async () => {
    const groupId = uniqueName('g');
    const instanceId = 'orders-svc@pod-1/7';
    await publish({ groupId, holds: [holdOf({ partition: 0, offset: '5' }), holdOf({ partition: 1, offset: '8' })] });
    await eventually('both holds stored', async () =>
      (await db.partitionQuarantine.count({ where: { groupId } })) === 2 ? true : undefined,
    );
    const skip = await pendingAction(groupId);
    const seek = await pendingAction(groupId, { action: 'seek', partition: 1, offset: 8n });
    await db.operatorAction.update({
      where: { id: seek.id },
      data: { status: 'expired', outcome: 'expired after 300 s', completedAt: new Date() },
    });
    const appliedAtMs = Date.parse('2026-12-07T10:04:30Z');
    await publish({
      groupId,
      outcomes: [
        outcomeOf({ commandId: skip.commandId, appliedAtMs }),
        outcomeOf({
          commandId: seek.commandId,
          action: 'seek',
          partition: 1,
          liftedOffset: '8',
          seekOffset: '20',
          outcome: 'sought from offset 8 to 20',
          appliedAtMs,
        }),
      ],
    });
    const done = await eventually('the skip recorded', async () => {
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: skip.id } });
      return row.status === 'done' ? row : undefined;
    });
    expect(done).toMatchObject({
      executedBy: instanceId,
      outcome: 'skipped offset 5 without processing; reading continues at 6',
      completedAt: new Date(appliedAtMs),
    });
    expect(await db.operatorAction.findUniqueOrThrow({ where: { id: seek.id } })).toMatchObject({
      status: 'done',
      seekOffset: 20n,
      outcome: 'sought from offset 8 to 20',
    });
    expect(await db.partitionQuarantine.count({ where: { groupId } })).toBe(0);
    expect(recorded.filter((r) => r.groupId === groupId).map((r) => [r.action, r.status])).toEqual([
      ['skip', 'done'],
      ['seek', 'done'],
    ]);

    // The same outcomes again (they stay in the instance's state for a while) change nothing; a late report
    // of the lifted hold does not bring the card back.
    const before = handled();
    await publish({
      groupId,
      outcomes: [outcomeOf({ commandId: skip.commandId, status: 'failed', outcome: 'not again' })],
    });
    await publish({ groupId, holds: [holdOf({ partition: 0, offset: '5' })] });
    await dealtWith(before, 2);
    expect((await db.operatorAction.findUniqueOrThrow({ where: { id: skip.id } })).status).toBe('done');
    expect(await db.partitionQuarantine.count({ where: { groupId } })).toBe(0);
    expect(recorded.filter((r) => r.groupId === groupId)).toHaveLength(2);
  });

  it('a resume marks the card retrying; the record held again turns it failed_again, keeping since and counting', async () => {
    const groupId = uniqueName('g');
    const first = holdOf({ offset: '5', sinceMs: Date.parse('2026-12-07T10:04:00Z'), attempts: 3 });
    await publish({ groupId, holds: [first] });
    const held = await eventually(
      'the hold stored',
      async () => (await db.partitionQuarantine.findFirst({ where: { groupId } })) ?? undefined,
    );
    const resume = await pendingAction(groupId, { action: 'resume' });
    await publish({
      groupId,
      outcomes: [
        outcomeOf({
          commandId: resume.commandId,
          action: 'resume',
          outcome: 'resumed: retrying offset 5; reading continues at 5',
        }),
      ],
      partitions: [partitionStateOf({ watermark: '5' })],
    });
    const retrying = await eventually('the card marked retrying', async () => {
      const row = await db.partitionQuarantine.findFirst({ where: { groupId } });
      return row?.resumeActionId === resume.id ? row : undefined;
    });
    expect(retrying.resumedAt).toBeInstanceOf(Date);

    await publish({
      groupId,
      holds: [{ ...first, sinceMs: Date.parse('2026-12-07T10:06:00Z'), attempts: 2 }],
      outcomes: [outcomeOf({ commandId: resume.commandId, action: 'resume', outcome: 'resumed: retrying offset 5' })],
    });
    const failed = await eventually('the resume failed again', async () => {
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: resume.id } });
      return row.status === 'failed_again' ? row : undefined;
    });
    expect(failed.outcome).toBe(
      `resumed, but offset 5 failed again with the same error: ${first.reason}; orders-0 is held again`,
    );
    expect(await db.partitionQuarantine.findFirstOrThrow({ where: { groupId } })).toMatchObject({
      offset: 5n,
      since: held.since,
      failures: 2,
      attempts: 5,
      resumedAt: null,
      resumeActionId: null,
    });
    expect(recorded.filter((r) => r.groupId === groupId).map((r) => r.status)).toEqual(['done', 'failed_again']);
  });

  it('reconciles: a card the commit passed goes, one at or above the commit stays, a held partition keeps its card', async () => {
    const groupId = uniqueName('g');
    const card = (partition: number, offset: bigint) => ({
      cluster: DEFAULT_CLUSTER,
      groupId,
      topic: 'orders',
      partition,
      offset,
      reason: 'left behind',
      errorClass: 'schema',
      since: new Date('2026-12-07T09:00:00Z'),
      heldSince: new Date('2026-12-07T09:00:00Z'),
      attempts: 0,
      recordHeaders: {},
    });
    await db.partitionQuarantine.createMany({ data: [card(0, 2n), card(1, 5n), card(2, 3n), card(3, 1n)] });
    await publish({
      groupId,
      partitions: [
        partitionStateOf({ partition: 0, watermark: '5' }), // passed: goes
        partitionStateOf({ partition: 1, watermark: '5' }), // at the commit: stays
        partitionStateOf({ partition: 2, watermark: null }), // nothing committed yet: stays
      ],
      // Partition 3 is not reported (another instance owns it): stays.
    });
    await eventually('the passed card removed', async () =>
      (await db.partitionQuarantine.count({ where: { groupId, partition: 0 } })) === 0 ? true : undefined,
    );
    const left = await db.partitionQuarantine.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
    expect(left.map((q) => [q.partition, q.offset])).toEqual([
      [1, 5n],
      [2, 3n],
      [3, 1n],
    ]);
  });

  it('refuses a malformed, foreign-keyed or oversized message and ingests the next; skips a tombstone', async () => {
    const groupId = uniqueName('g');
    const refused = ingester.stats.refused;
    const tombstones = ingester.stats.tombstones;
    const valid = instanceStateOf({ groupId, publishedAtMs: (clock += 1_000) });
    await producer.send({
      topic: stateTopic,
      acks: -1,
      messages: [
        { key: stateKey(groupId, valid.instanceId), value: 'not json' },
        { key: stateKey(groupId, valid.instanceId), value: JSON.stringify({ ...valid, v: 2 }) },
        { key: stateKey(groupId, 'someone-else'), value: encodeControlMessage(valid) },
        { key: stateKey(groupId, valid.instanceId), value: Buffer.alloc(600 * 1024, 0x20) },
        { key: stateKey(groupId, valid.instanceId), value: null },
        {
          key: stateKey(groupId, valid.instanceId),
          value: encodeControlMessage({ ...valid, partitions: [partitionStateOf({ watermark: '9'.repeat(19) })] }),
        },
        { key: stateKey(groupId, valid.instanceId), value: encodeControlMessage(valid) },
      ],
    });
    await eventually(
      'the valid state ingested',
      async () => (await db.consumerInstance.findFirst({ where: { groupId } })) ?? undefined,
    );
    expect(ingester.stats.refused - refused).toBe(5);
    expect(ingester.stats.tombstones - tombstones).toBe(1);
    expect(await db.consumerPartitionState.count({ where: { groupId } })).toBe(0);
  });

  it('rejects a pending command the owner refused; a refusal by an instance that does not own it decides nothing', async () => {
    const groupId = uniqueName('g');
    const owned = await pendingAction(groupId, { partition: 0 });
    const notOwned = await pendingAction(groupId, { partition: 1 });
    const refusedAt = Date.parse('2026-12-07T10:04:50Z');
    await publish({
      groupId,
      assignment: [{ topic: 'orders', partition: 0 }],
      refused: {
        count: 2,
        recent: [
          { atMs: refusedAt, commandId: owned.commandId, reason: 'signature does not match' },
          { atMs: refusedAt - 1_000, commandId: notOwned.commandId, reason: 'signature does not match' },
        ],
      },
    });
    const rejected = await eventually('the owned command rejected', async () => {
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: owned.id } });
      return row.status === 'rejected' ? row : undefined;
    });
    expect(rejected).toMatchObject({
      outcome: 'instance orders-svc@pod-1/7 refused the command: signature does not match; nothing was changed',
      executedBy: 'orders-svc@pod-1/7',
    });
    expect((await db.operatorAction.findUniqueOrThrow({ where: { id: notOwned.id } })).status).toBe('pending');
    expect(await db.consumerInstance.findFirstOrThrow({ where: { groupId } })).toMatchObject({
      refusedCommands: 2,
      lastRefusal: `command ${owned.commandId}: signature does not match`,
    });
  });

  it("a clean stop removes the instance's commit-prefix rows; another instance's rows stay", async () => {
    const groupId = uniqueName('g');
    await publish({ groupId, partitions: [partitionStateOf({ partition: 0, watermark: '4' })] });
    await publish({
      groupId,
      instanceId: 'orders-svc@pod-2/9',
      partitions: [partitionStateOf({ partition: 1, watermark: '6' })],
    });
    await eventually('both instances reported', async () =>
      (await db.consumerPartitionState.count({ where: { groupId } })) === 2 ? true : undefined,
    );
    await publish({ groupId, status: 'stopped', ready: false, readinessDetail: 'stopped' });
    await eventually('the stopped instance rows gone', async () =>
      (await db.consumerPartitionState.count({ where: { groupId } })) === 1 ? true : undefined,
    );
    expect(await db.consumerPartitionState.findFirstOrThrow({ where: { groupId } })).toMatchObject({
      partition: 1,
      instanceId: 'orders-svc@pod-2/9',
    });
    expect(
      await db.consumerInstance.findFirstOrThrow({ where: { groupId, instanceId: 'orders-svc@pod-1/7' } }),
    ).toMatchObject({ status: 'stopped', ready: false });
  });

  it('a partition that moved: the new owner’s report replaces the old owner’s row; the old owner drops what it lost', async () => {
    const groupId = uniqueName('g');
    await publish({
      groupId,
      partitions: [
        partitionStateOf({ partition: 0, watermark: '4' }),
        partitionStateOf({ partition: 1, watermark: '7' }),
      ],
    });
    await eventually('two rows', async () =>
      (await db.consumerPartitionState.count({ where: { groupId } })) === 2 ? true : undefined,
    );
    await publish({
      groupId,
      instanceId: 'orders-svc@pod-2/9',
      partitions: [partitionStateOf({ partition: 1, watermark: '8' })],
    });
    await publish({ groupId, partitions: [partitionStateOf({ partition: 0, watermark: '5' })] });
    await eventually('the moved partition owned by the new instance', async () => {
      const rows = await db.consumerPartitionState.findMany({ where: { groupId }, orderBy: { partition: 'asc' } });
      return rows.length === 2 && rows[0]?.watermark === 5n ? rows : undefined;
    }).then((rows) =>
      expect(rows.map((r) => [r.partition, r.instanceId, r.watermark])).toEqual([
        [0, 'orders-svc@pod-1/7', 5n],
        [1, 'orders-svc@pod-2/9', 8n],
      ]),
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { SourceRecord } from '@warden/consumer';
import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { ApiError } from '../../lib/server/api-error';
import { getCommand } from '../../lib/server/get-command';
import { listQuarantines } from '../../lib/server/list-quarantines';
import { recordRefusedAttempt, requestOperatorAction } from '../../lib/server/request-operator-action';
import {
  committedOffsets,
  createTopic,
  eventually,
  readTopic,
  testKafka,
  uniqueName,
} from '../../test-support/integration';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { startPipelineConsumer } from '../../test-support/pipeline-consumer';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import { admitEvent } from '../pipeline/events';
import { CommandExpiry, EXPIRY_GRACE_MS } from './command-expiry';

// Operator actions end to end over the control plane, on the real broker and Postgres: the API function records
// the action, the worker's relay puts it on the command topic, the WardenConsumer that owns the partition
// applies it on its core and reports the outcome in its state, and the worker's ingester records it and lifts
// the quarantine card; the group's commit moves. Quarantines reach Postgres the same way, held by the instance.

const kafka = testKafka('control-e2e-it');
let admin: Admin;
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ admin, db } = handles));

function event(id: string, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    eventId: id,
    type: 'document.upsert',
    businessId: id,
    resultKey: `res-${id}`,
    payload: { id },
    ...overrides,
  });
}

/** A poison record: a stored type without a result key, which admission quarantines. */
function poison(id: string) {
  return JSON.stringify({ eventId: id, type: 'document.upsert', businessId: id, payload: { id } });
}

/**
 * A topic with 2 partitions whose partition 0 holds `records`, consumed by the default pipeline with the control
 * plane on (and the worker's ingester and relay for it); waits for the quarantine row at `heldAt` and for
 * partition 1 to drain, and records one lag sample per partition (what the API validates a seek against).
 */
async function quarantinedPipeline(options: {
  records: Array<{ value: string; timestamp?: number }>;
  heldAt: bigint;
  admit?: (record: SourceRecord) => ReturnType<typeof admitEvent>;
}) {
  const prefix = uniqueName('ctl-e2e');
  const topic = `${prefix}-in`;
  const results = `${prefix}-results`;
  const dlq = `${prefix}-dlq`;
  const groupId = `${prefix}-group`;
  await createTopic(admin, topic, 2);
  await createTopic(admin, results, 1);
  await createTopic(admin, dlq, 1);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: [
      ...options.records.map((r) => ({
        partition: 0,
        value: r.value,
        ...(r.timestamp ? { timestamp: String(r.timestamp) } : {}),
      })),
      ...Array.from({ length: 3 }, (_, i) => ({ partition: 1, value: event(`${prefix}-p1-${i}`) })),
    ],
  });
  await producer.disconnect();

  const instanceId = `${prefix}-instance-a`;
  const pipeline = await startPipelineConsumer({
    kafka,
    db,
    groupId,
    topics: [topic],
    resultsTopic: results,
    dlqTopic: dlq,
    control: { instanceId },
    ...(options.admit ? { consumer: { admit: options.admit } } : {}),
  });
  const quarantine = await eventually('the quarantine row', () =>
    db.partitionQuarantine
      .findFirst({ where: { groupId, topic, partition: 0, offset: options.heldAt } })
      .then((q) => q ?? undefined),
  );
  await eventually('partition 1 committed to its end', async () =>
    (await committedOffsets(admin, groupId, topic)).get(1) === '3' ? true : undefined,
  );
  const watermarks = await admin.fetchTopicOffsets(topic);
  await db.lagSample.createMany({
    data: watermarks.map((w) => ({
      sampledAt: new Date(),
      groupId,
      topic,
      partition: w.partition,
      committedOffset: null,
      logStartOffset: BigInt(w.low),
      logEndOffset: BigInt(w.high),
      lag: null,
      groupState: 'Stable',
    })),
  });
  const target = { cluster: DEFAULT_CLUSTER, groupId, topic, partition: 0 };
  return { prefix, topic, dlq, groupId, instanceId, pipeline, quarantine, target };
}

/** The action's row once it is no longer pending. */
function settled(id: string) {
  return eventually(`action #${id} settled`, async () => {
    const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(id) } });
    return row.status === 'pending' ? undefined : row;
  });
}

describe('operator actions over the control plane', () => {
  it('a poison record shows as a card held by the instance; a skip is applied by the consumer, recorded done, the card gone', async () => {
    const setup = await quarantinedPipeline({
      records: [
        { value: event(`skip-0-${Math.random()}`) },
        { value: poison(`skip-poison-${Math.random()}`) },
        { value: event(`skip-2-${Math.random()}`) },
      ],
      heldAt: 1n,
    });
    try {
      expect(setup.quarantine).toMatchObject({
        heldBy: setup.instanceId,
        failures: 1,
        errorClass: 'missing-result-key',
      });
      const requested = await requestOperatorAction(
        db,
        setup.target,
        { action: 'skip', reason: 'garbage from a test producer' },
        'bob',
      );
      const row = await settled(requested.id);
      expect(row).toMatchObject({ status: 'done', executedBy: setup.instanceId });
      expect(row.outcome).toMatch(/^skipped offset 1 without processing, copied to .+; reading continues at 2$/);
      expect(row.relayedAt).toBeInstanceOf(Date);
      expect(await getCommand(db, requested.id)).toMatchObject({ state: 'applied' });
      expect(await db.partitionQuarantine.findFirst({ where: { groupId: setup.groupId } })).toBeNull();
      await eventually('partition 0 committed past the skipped record', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '3' ? true : undefined,
      );
      const [copy, ...more] = await readTopic(kafka, setup.dlq, 1);
      expect(more).toHaveLength(0);
      expect(copy?.headers[DEAD_LETTER_HEADERS.offset]).toBe('1');
      expect(copy?.headers[DEAD_LETTER_HEADERS.topic]).toBe(setup.topic);
      expect(copy?.value).toContain('skip-poison-');
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('resume: retries the held record once it can pass, the commit moves to the end, and the card goes once passed', async () => {
    let held = true;
    const setup = await quarantinedPipeline({
      records: [0, 1, 2, 3, 4].map((i) => ({ value: event(`resume-${i}-${Math.random()}`) })),
      heldAt: 2n,
      // Offset 2 fails admission until "the upstream fix is deployed".
      admit: (record) =>
        held && record.partition === 0 && record.offset === '2'
          ? { ok: false, reason: 'schema v2 not deployed', errorClass: 'schema' }
          : admitEvent(record),
    });
    try {
      await eventually('partition 0 committed up to the held record', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '2' ? true : undefined,
      );
      held = false;
      const requested = await requestOperatorAction(
        db,
        setup.target,
        { action: 'resume', reason: 'v2 deployed' },
        'alice',
      );
      expect(requested).toMatchObject({ status: 'pending', quarantineOffset: '2' });
      const row = await settled(requested.id);
      expect(row).toMatchObject({ status: 'done', executedBy: setup.instanceId });
      expect(row.outcome).toMatch(/^resumed: retrying offset 2/);
      await eventually('partition 0 committed to its end', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '5' ? true : undefined,
      );
      // The card stays, marked retrying, until a state report shows the commit past the record.
      await eventually('the card removed once the commit passed it', async () =>
        (await db.partitionQuarantine.findFirst({ where: { groupId: setup.groupId } })) === null ? true : undefined,
      );
      expect((await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } })).status).toBe('done');
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('a resume that fails again: the card never goes, since is kept, failures count it, and the resume is audited failed_again', async () => {
    const setup = await quarantinedPipeline({
      records: [0, 1, 2, 3].map((i) => ({
        value: i === 2 ? poison(`again-${Math.random()}`) : event(`again-${i}-${Math.random()}`),
      })),
      heldAt: 2n,
    });
    try {
      const first = setup.quarantine;
      expect(first).toMatchObject({ failures: 1, resumedAt: null });
      const requested = await requestOperatorAction(
        db,
        setup.target,
        { action: 'resume', reason: 'maybe it was transient' },
        'alice',
      );
      const action = await eventually('the resume audited as failed again', () =>
        db.operatorAction
          .findUniqueOrThrow({ where: { id: BigInt(requested.id) } })
          .then((a) => (a.status === 'failed_again' ? a : undefined)),
      );
      expect(action.outcome).toBe(
        `resumed, but offset 2 failed again with the same error: ${first.reason}; ${setup.topic}-0 is held again`,
      );
      const again = await db.partitionQuarantine.findFirstOrThrow({ where: { groupId: setup.groupId } });
      expect(again).toMatchObject({
        offset: 2n,
        failures: 2,
        resumedAt: null,
        resumeActionId: null,
        since: first.since,
        heldBy: setup.instanceId,
      });
      expect(again.heldSince.getTime()).toBeGreaterThan(first.heldSince.getTime());
      const listed = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === setup.groupId);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ since: first.since.toISOString(), failures: 2, retrying: null });
      expect(listed[0]?.history.map((h) => [h.id, h.status])).toEqual([[requested.id, 'failed_again']]);
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('a rebalance that hands the held partition to another consumer keeps since, counts the new hold and names the new holder', async () => {
    const setup = await quarantinedPipeline({
      records: [{ value: event(`moved-0-${Math.random()}`) }, { value: poison(`moved-${Math.random()}`) }],
      heldAt: 1n,
    });
    let next: Awaited<ReturnType<typeof startPipelineConsumer>> | undefined;
    try {
      const first = setup.quarantine;
      await setup.pipeline.stop();
      next = await startPipelineConsumer({
        kafka,
        db,
        groupId: setup.groupId,
        topics: [setup.topic],
        resultsTopic: `${setup.prefix}-results`,
        control: { topicPrefix: setup.pipeline.control!.topicPrefix, instanceId: `${setup.prefix}-instance-b` },
      });
      const moved = await eventually('the new owner holds the record', () =>
        db.partitionQuarantine
          .findFirstOrThrow({ where: { groupId: setup.groupId } })
          .then((q) => (q.heldSince.getTime() > first.heldSince.getTime() ? q : undefined)),
      );
      expect(moved).toMatchObject({
        offset: 1n,
        failures: 2,
        since: first.since,
        heldBy: `${setup.prefix}-instance-b`,
      });
    } finally {
      await next?.stop();
      await setup.pipeline.stop();
    }
  });

  it('seek by time: resolves the first offset at or after the time, skips what lies before it', async () => {
    const base = Date.now() - 60_000;
    const ids = [0, 1, 2, 3, 4].map((i) => `seek-${i}-${Math.random()}`);
    const setup = await quarantinedPipeline({
      records: ids.map((id, i) => ({ value: i === 1 ? poison(id) : event(id), timestamp: base + i * 1_000 })),
      heldAt: 1n,
    });
    try {
      const requested = await requestOperatorAction(
        db,
        setup.target,
        { action: 'seek', timestamp: new Date(base + 2_500).toISOString(), reason: 'replay from the incident start' },
        'carol',
      );
      expect(await settled(requested.id)).toMatchObject({ status: 'done', seekOffset: 3n });
      await eventually('partition 0 committed to its end', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '5' ? true : undefined,
      );
      const stored = await db.storedDocument.findMany({
        where: { businessId: { in: ids } },
        select: { sourceOffset: true },
      });
      expect(stored.map((d) => d.sourceOffset).sort()).toEqual([0n, 3n, 4n]); // offset 2 was sought over
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('rejects what no longer applies, expires what nobody applied, and leaves other groups alone', async () => {
    const setup = await quarantinedPipeline({
      records: [{ value: poison(`rej-${Math.random()}`) }, { value: event(`rej-1-${Math.random()}`) }],
      heldAt: 0n,
    });
    try {
      const base = {
        cluster: DEFAULT_CLUSTER,
        groupId: setup.groupId,
        topic: setup.topic,
        reason: 'r',
        requestedBy: 't',
      };
      const now = new Date();
      const expired = {
        relayedAt: new Date(now.getTime() - 400_000),
        expiresAt: new Date(now.getTime() - EXPIRY_GRACE_MS - 60_000),
      };
      const [notHeld, stale, unowned, unapplied, otherGroup] = await Promise.all([
        // Partition 1 is not quarantined (a direct insert: the API would refuse it with 409).
        db.operatorAction.create({ data: { ...base, partition: 1, action: 'resume' } }),
        // Held at offset 0, but the operator looked at offset 5.
        db.operatorAction.create({ data: { ...base, partition: 0, action: 'skip', quarantineOffset: 5n } }),
        // Partition 7 does not exist, so nobody owns it: relayed long ago and past its expiry.
        db.operatorAction.create({ data: { ...base, partition: 7, action: 'skip', ...expired } }),
        // Relayed long ago to the owner (this stand-in never reached it): past its expiry.
        db.operatorAction.create({
          data: { ...base, partition: 0, action: 'resume', quarantineOffset: 0n, ...expired },
        }),
        db.operatorAction.create({
          data: { ...base, groupId: `${setup.groupId}-other`, partition: 0, action: 'skip', requestedAt: new Date(0) },
        }),
      ]);
      expect(await settled(notHeld.id.toString())).toMatchObject({
        status: 'rejected',
        executedBy: setup.instanceId,
        outcome: `${setup.topic}-1 is not quarantined (any more): nothing to resume`,
      });
      expect(await settled(stale.id.toString())).toMatchObject({ status: 'rejected' });

      const expiry = new CommandExpiry({
        db,
        clusters: [DEFAULT_CLUSTER],
        topicPrefix: setup.pipeline.control!.topicPrefix,
        expireAfterMs: 300_000,
        intervalMs: 60_000,
        instanceId: 'worker-a',
        groupIds: [setup.groupId, `${setup.groupId}-other`],
      });
      await expiry.expireOnce();
      const statusOf = (id: bigint) => db.operatorAction.findUniqueOrThrow({ where: { id } });
      expect(await statusOf(unowned.id)).toMatchObject({
        status: 'expired',
        outcome: `expired after 300 s: no live instance of group ${setup.groupId} owns ${setup.topic}-7; nothing was changed`,
      });
      expect(await statusOf(unapplied.id)).toMatchObject({
        status: 'expired',
        outcome: `expired after 300 s: instance ${setup.instanceId} owns ${setup.topic}-0 but did not apply it; nothing was changed`,
      });
      // Requested in 1970 and never relayed (no relay serves that group): expired as never sent.
      expect((await statusOf(otherGroup.id)).outcome).toMatch(/^expired after 300 s without reaching /);
      // Nothing moved: the partition is still held where it was.
      expect((await committedOffsets(admin, setup.groupId, setup.topic)).get(0)).toBe('-1');
      expect(
        setup.pipeline.consumer.core.snapshot().partitions.find((p) => p.partition === 0)?.quarantine?.offset,
      ).toBe('0');
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('the API function refuses what it cannot do; a refused attempt (409) is an audit row, nothing else is written', async () => {
    const setup = await quarantinedPipeline({
      records: [{ value: event(`api-0-${Math.random()}`) }, { value: poison(`api-${Math.random()}`) }],
      heldAt: 1n,
    });
    try {
      // The relay would apply the accepted seek below before the 409 checks: this test is about the API alone.
      await setup.pipeline.control!.worker!.relay.stop();
      const target = setup.target;
      const before = await db.operatorAction.count({ where: { groupId: setup.groupId } });
      await expect(
        requestOperatorAction(db, { ...target, groupId: 'never-sampled' }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        requestOperatorAction(db, { ...target, partition: 9 }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        requestOperatorAction(db, { ...target, partition: 1 }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/is not quarantined/) });
      const notHeld = await db.operatorAction.findFirstOrThrow({ where: { groupId: setup.groupId, partition: 1 } });
      expect(notHeld).toMatchObject({ status: 'rejected', action: 'resume', requestedBy: 't', quarantineOffset: null });
      expect(notHeld.outcome).toMatch(/^refused by the API \(409\): partition .+-1 of group ".+" is not quarantined/);
      await expect(
        requestOperatorAction(db, target, { action: 'seek', offset: '3', reason: 'x' }, 't'),
      ).rejects.toMatchObject({
        status: 400,
        field: 'offset',
        message: expect.stringMatching(
          /^offset: 3 is outside the log of .+-0: it must be between the log start 0 and the log end 2 \(sampled /,
        ),
      });
      expect(await db.operatorAction.count({ where: { groupId: setup.groupId } })).toBe(before + 1);

      await requestOperatorAction(db, target, { action: 'seek', offset: '2', reason: 'skip to the end' }, 't');
      await expect(requestOperatorAction(db, target, { action: 'skip', reason: 'again' }, 't')).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/is still pending/),
      });
      const refused = await db.operatorAction.findFirstOrThrow({
        where: { groupId: setup.groupId, partition: 0, status: 'rejected' },
      });
      expect(refused).toMatchObject({ action: 'skip', reason: 'again', quarantineOffset: 1n });
      expect(refused.outcome).toMatch(/^refused by the API \(409\): action #\d+ \(seek\) on .+-0 is still pending/);

      await recordRefusedAttempt(db, {
        who: 'vic',
        refusal: new ApiError(403, 'vic is a viewer: this needs the operator role'),
        target,
        body: { action: 'resume', reason: 'let me' },
      });
      await recordRefusedAttempt(db, {
        who: 'vic',
        refusal: new ApiError(403, 'vic is a viewer: this needs the operator role'),
        target,
        body: { action: 'drop-table' },
      });
      const viewer = await db.operatorAction.findFirstOrThrow({
        where: { groupId: setup.groupId, requestedBy: 'vic' },
      });
      expect(viewer).toMatchObject({
        status: 'rejected',
        action: 'resume',
        quarantineOffset: 1n,
        outcome: 'refused by the API (403): vic is a viewer: this needs the operator role',
      });
      expect(await db.operatorAction.count({ where: { groupId: setup.groupId } })).toBe(before + 4);
      const [card] = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === setup.groupId);
      expect(card?.history.map((h) => h.status)).toEqual(['pending', 'rejected', 'rejected']);
    } finally {
      await setup.pipeline.stop();
    }
  });
});

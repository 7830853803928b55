import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadConfig } from '../../lib/config';
import type { Database } from '../../lib/db';
import { listQuarantines } from '../../lib/server/list-quarantines';
import { ApiError } from '../../lib/server/api-error';
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
import type { SourceRecord } from '@warden/consumer';
import { createDeadLetterWriter, DLQ_HEADERS } from '../pipeline/dead-letter';
import { admitEvent } from '../pipeline/events';
import { QuarantineStore } from '../pipeline/quarantine-store';
import { OwnConsumerStateWriter } from '../sampler/own-consumer-state-writer';
import { createKafkaActionPorts } from './kafka-action-ports';
import { OperatorActionListener } from './operator-action-listener';
import { OperatorActionPoller } from './operator-action-poller';

// Operator actions end to end on the worker side, on the real broker and Postgres: the API function records
// the action, the poller claims it, the real consumer core applies it, and the group's commit moves.

const kafka = testKafka('operator-action-it');
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
 * A topic with 2 partitions whose partition 0 holds `records`, consumed by the default pipeline; waits for the
 * quarantine row at `heldAt` and for partition 1 to drain, and records one lag sample per partition (what
 * the API validates a seek against).
 */
async function quarantinedPipeline(options: {
  records: Array<{ value: string; timestamp?: number }>;
  heldAt: bigint;
  admit?: (record: SourceRecord) => ReturnType<typeof admitEvent>;
}) {
  const prefix = uniqueName('cmd');
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

  const pipeline = await startPipelineConsumer({
    kafka,
    db,
    groupId,
    topics: [topic],
    resultsTopic: results,
    ...(options.admit ? { consumer: { admit: options.admit } } : {}),
  });
  await eventually('the quarantine row', () =>
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

  const poller = (instanceId = 'worker-a') =>
    new OperatorActionPoller({
      db,
      groupId,
      instanceId,
      intervalMs: 60_000,
      expireAfterMs: 60_000,
      assignment: () => pipeline.consumer.assignment,
      ports: createKafkaActionPorts({
        admin,
        core: pipeline.consumer.core,
        deadLetter: { topic: dlq, write: createDeadLetterWriter(pipeline.producer, dlq) },
      }),
    });
  return { prefix, topic, dlq, groupId, pipeline, poller };
}

/** One round of the worker's own-state writer, which removes a quarantine row once the commit passed it. */
async function ownStateRound(setup: Awaited<ReturnType<typeof quarantinedPipeline>>): Promise<void> {
  const quarantines = new QuarantineStore(db, setup.groupId);
  await new OwnConsumerStateWriter({
    db,
    groupId: setup.groupId,
    instanceId: 'worker-a',
    intervalMs: 60_000,
    snapshot: () => setup.pipeline.consumer.core.snapshot(),
    saveQuarantine: (q) => quarantines.save(q),
  }).writeOnce();
}

describe('OperatorActionPoller on the real broker and database', () => {
  it('resume: retries the held record once it can pass, and the commit moves to the end', async () => {
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
      // Offsets 0 and 1 complete before the held record; their commit may land a commit interval after the
      // quarantine row, so the test waits for it, and it must stop at the held offset (never past it).
      await eventually('partition 0 committed up to the held record', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '2' ? true : undefined,
      );
      held = false;
      const requested = await requestOperatorAction(
        db,
        { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
        { action: 'resume', reason: 'v2 deployed' },
        'alice',
      );
      expect(requested).toMatchObject({ status: 'pending', quarantineOffset: '2' });

      expect(await setup.poller().pollOnce()).toEqual({ executed: 1, expired: 0 });
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
      expect(row).toMatchObject({ status: 'done', executedBy: 'worker-a' });
      expect(row.outcome).toMatch(/^resumed: retrying offset 2/);
      expect(row.completedAt).toBeInstanceOf(Date);

      // The card stays, marked as retrying, until the commit passes the record; the worker's own-state round
      // then removes it.
      expect(
        await db.partitionQuarantine.findFirstOrThrow({ where: { groupId: setup.groupId, topic: setup.topic } }),
      ).toMatchObject({ offset: 2n, resumeActionId: BigInt(requested.id) });
      await eventually('partition 0 committed to its end', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '5' ? true : undefined,
      );
      await eventually('the core acknowledged the commit', async () =>
        setup.pipeline.consumer.core.snapshot().partitions.find((p) => p.partition === 0)?.watermark === '5'
          ? true
          : undefined,
      );
      await ownStateRound(setup);
      expect(
        await db.partitionQuarantine.findFirst({ where: { groupId: setup.groupId, topic: setup.topic } }),
      ).toBeNull();
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
      const first = await db.partitionQuarantine.findFirstOrThrow({
        where: { groupId: setup.groupId, topic: setup.topic },
      });
      expect(first).toMatchObject({ failures: 1, resumedAt: null });
      const requested = await requestOperatorAction(
        db,
        { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
        { action: 'resume', reason: 'maybe it was transient' },
        'alice',
      );
      expect(await setup.poller().pollOnce()).toEqual({ executed: 1, expired: 0 });
      // Right after the action's transaction the row is there: retrying, or already held again.
      expect(
        await db.partitionQuarantine.findFirst({ where: { groupId: setup.groupId, topic: setup.topic, offset: 2n } }),
      ).not.toBeNull();

      const action = await eventually('the resume audited as failed again', () =>
        db.operatorAction
          .findUniqueOrThrow({ where: { id: BigInt(requested.id) } })
          .then((a) => (a.status === 'failed_again' ? a : undefined)),
      );
      expect(action.outcome).toBe(
        `resumed, but offset 2 failed again with the same error: ${first.reason}; ${setup.topic}-0 is held again`,
      );
      const again = await db.partitionQuarantine.findFirstOrThrow({
        where: { groupId: setup.groupId, topic: setup.topic },
      });
      expect(again).toMatchObject({
        offset: 2n,
        failures: 2,
        resumedAt: null,
        resumeActionId: null,
        since: first.since,
      });
      expect(again.heldSince.getTime()).toBeGreaterThan(first.heldSince.getTime());

      // The API lists the record once, with its first time, both failures and the resume in its history.
      const listed = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === setup.groupId);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ since: first.since.toISOString(), failures: 2, retrying: null });
      expect(listed[0]?.history.map((h) => [h.id, h.status])).toEqual([[requested.id, 'failed_again']]);
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('a rebalance that hands the held partition to another consumer keeps since and counts the new hold', async () => {
    const setup = await quarantinedPipeline({
      records: [{ value: event(`moved-0-${Math.random()}`) }, { value: poison(`moved-${Math.random()}`) }],
      heldAt: 1n,
    });
    let next: Awaited<ReturnType<typeof startPipelineConsumer>> | undefined;
    try {
      const first = await db.partitionQuarantine.findFirstOrThrow({
        where: { groupId: setup.groupId, topic: setup.topic },
      });
      await setup.pipeline.stop();
      next = await startPipelineConsumer({
        kafka,
        db,
        groupId: setup.groupId,
        topics: [setup.topic],
        resultsTopic: `${setup.prefix}-results`,
      });
      const moved = await eventually('the new owner holds the record', () =>
        db.partitionQuarantine
          .findFirstOrThrow({ where: { groupId: setup.groupId, topic: setup.topic } })
          .then((q) => (q.heldSince.getTime() > first.heldSince.getTime() ? q : undefined)),
      );
      expect(moved).toMatchObject({ offset: 1n, failures: 2, since: first.since });
    } finally {
      await next?.stop();
      await setup.pipeline.stop();
    }
  });

  it('skip: copies the record to the dead-letter topic, then the commit passes it; a second poller cannot apply it again', async () => {
    const setup = await quarantinedPipeline({
      records: [
        { value: event(`skip-0-${Math.random()}`) },
        { value: poison(`skip-poison-${Math.random()}`) },
        { value: event(`skip-2-${Math.random()}`) },
      ],
      heldAt: 1n,
    });
    try {
      const held = await db.partitionQuarantine.findFirstOrThrow({
        where: { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
      });
      const requested = await requestOperatorAction(
        db,
        { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
        { action: 'skip', reason: 'garbage from a test producer' },
        'bob',
      );
      // Two workers racing for the same action: one applies it, the other finds nothing to claim.
      const [a, b] = await Promise.all([setup.poller('worker-a').pollOnce(), setup.poller('worker-b').pollOnce()]);
      expect(a.executed + b.executed).toBe(1);

      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
      expect(row.status).toBe('done');
      expect(row.outcome).toBe(`skipped offset 1 without processing, copied to ${setup.dlq}; reading continues at 2`);
      await eventually('partition 0 committed past the skipped record', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '3' ? true : undefined,
      );

      const [copy, ...more] = await readTopic(kafka, setup.dlq, 1);
      expect(more).toHaveLength(0);
      expect(copy?.headers[DLQ_HEADERS.offset]).toBe('1');
      expect(copy?.headers[DLQ_HEADERS.topic]).toBe(setup.topic);
      expect(copy?.headers[DLQ_HEADERS.message]).toBe(
        `skipped by bob: garbage from a test producer (held for: ${held.reason})`,
      );
      expect(copy?.value).toContain('skip-poison-');
    } finally {
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
        { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
        { action: 'seek', timestamp: new Date(base + 2_500).toISOString(), reason: 'replay from the incident start' },
        'carol',
      );
      await setup.poller().pollOnce();
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
      expect(row).toMatchObject({ status: 'done', seekOffset: 3n });
      await eventually('partition 0 committed to its end', async () =>
        (await committedOffsets(admin, setup.groupId, setup.topic)).get(0) === '5' ? true : undefined,
      );
      const stored = await db.storedDocument.findMany({
        where: { businessId: { in: ids } },
        select: { sourceOffset: true },
      });
      expect(stored.map((d) => d.sourceOffset).sort()).toEqual([0n, 3n, 4n]); // offset 2 was sought over, not processed
    } finally {
      await setup.pipeline.stop();
    }
  });

  it('rejects what no longer applies, expires what nobody owns, and leaves other groups alone', async () => {
    const setup = await quarantinedPipeline({
      records: [{ value: poison(`rej-${Math.random()}`) }, { value: event(`rej-1-${Math.random()}`) }],
      heldAt: 0n,
    });
    try {
      const requestedAt = new Date();
      const [notHeld, unowned, stale, otherGroup] = await Promise.all([
        // Partition 1 is not quarantined (a direct insert: the API would refuse it with 409).
        db.operatorAction.create({
          data: {
            groupId: setup.groupId,
            topic: setup.topic,
            partition: 1,
            action: 'resume',
            reason: 'r',
            requestedBy: 't',
            requestedAt,
          },
        }),
        // Partition 7 does not exist, so nobody owns it: it waits, then expires.
        db.operatorAction.create({
          data: {
            groupId: setup.groupId,
            topic: setup.topic,
            partition: 7,
            action: 'skip',
            reason: 'r',
            requestedBy: 't',
            requestedAt: new Date(Date.now() - 120_000),
          },
        }),
        // Held at offset 0, but the operator looked at offset 5.
        db.operatorAction.create({
          data: {
            groupId: setup.groupId,
            topic: setup.topic,
            partition: 0,
            action: 'skip',
            quarantineOffset: 5n,
            reason: 'r',
            requestedBy: 't',
            requestedAt,
          },
        }),
        db.operatorAction.create({
          data: {
            groupId: `${setup.groupId}-other`,
            topic: setup.topic,
            partition: 0,
            action: 'skip',
            reason: 'r',
            requestedBy: 't',
            requestedAt: new Date(0),
          },
        }),
      ]);
      expect(await setup.poller().pollOnce()).toEqual({ executed: 2, expired: 1 });
      const statusOf = async (id: bigint) => db.operatorAction.findUniqueOrThrow({ where: { id } });
      expect(await statusOf(notHeld.id)).toMatchObject({
        status: 'rejected',
        outcome: `${setup.topic}-1 is not quarantined (any more): nothing to resume`,
      });
      expect(await statusOf(unowned.id)).toMatchObject({ status: 'expired' });
      expect((await statusOf(unowned.id)).outcome).toMatch(
        new RegExp(`^no worker owning ${setup.topic}-7 applied it within 60 s`),
      );
      expect((await statusOf(stale.id)).status).toBe('rejected');
      expect((await statusOf(otherGroup.id)).status).toBe('pending');
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
      const target = { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 };
      const before = await db.operatorAction.count({ where: { groupId: setup.groupId } });
      await expect(
        requestOperatorAction(db, { ...target, groupId: 'never-sampled' }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        requestOperatorAction(db, { ...target, partition: 9 }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({ status: 404 });
      await expect(
        requestOperatorAction(db, { ...target, partition: 1 }, { action: 'resume', reason: 'x' }, 't'),
      ).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/is not quarantined/),
      });
      const notHeld = await db.operatorAction.findFirstOrThrow({ where: { groupId: setup.groupId, partition: 1 } });
      expect(notHeld).toMatchObject({ status: 'rejected', action: 'resume', requestedBy: 't', quarantineOffset: null });
      expect(notHeld.outcome).toMatch(/^refused by the API \(409\): partition .+-1 of group ".+" is not quarantined/);
      expect(notHeld.completedAt).toBeInstanceOf(Date);
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

      // A recorded action wakes the group's workers through NOTIFY (the poll is only the fallback).
      let notified!: () => void;
      const notification = new Promise<void>((resolve) => (notified = resolve));
      const listener = new OperatorActionListener({
        databaseUrl: loadConfig().DATABASE_URL,
        groupId: setup.groupId,
        onNotify: () => notified(),
      });
      await listener.start();
      try {
        await requestOperatorAction(db, target, { action: 'seek', offset: '2', reason: 'skip to the end' }, 't');
        await notification;
      } finally {
        await listener.stop();
      }
      await expect(requestOperatorAction(db, target, { action: 'skip', reason: 'again' }, 't')).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/is still pending/),
      });
      const refused = await db.operatorAction.findFirstOrThrow({
        where: { groupId: setup.groupId, partition: 0, status: 'rejected' },
      });
      expect(refused).toMatchObject({ action: 'skip', reason: 'again', quarantineOffset: 1n });
      expect(refused.outcome).toMatch(/^refused by the API \(409\): action #\d+ \(seek\) on .+-0 is still pending/);

      // A 403 (a viewer, or another origin) of a known caller with a well-formed request is audited too.
      await recordRefusedAttempt(db, {
        who: 'vic',
        refusal: new ApiError(403, 'vic is a viewer: this needs the operator role'),
        target: { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
        body: { action: 'resume', reason: 'let me' },
      });
      // Garbage gets the 403 and no row: there is no action to name.
      await recordRefusedAttempt(db, {
        who: 'vic',
        refusal: new ApiError(403, 'vic is a viewer: this needs the operator role'),
        target: { cluster: DEFAULT_CLUSTER, groupId: setup.groupId, topic: setup.topic, partition: 0 },
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
      // The card's history lists the refused attempts on its record too.
      const [card] = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === setup.groupId);
      expect(card?.history.map((h) => h.status)).toEqual(['pending', 'rejected', 'rejected']);
    } finally {
      await setup.pipeline.stop();
    }
  });
});

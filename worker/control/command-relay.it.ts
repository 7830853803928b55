import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Producer } from 'kafkajs';
import {
  commandKey,
  controlTopicNames,
  decodeControlMessage,
  MAX_COMMAND_MESSAGE_BYTES,
  SIGNATURE_HEADER,
  verifyControlSignature,
  ZCommandTopicMessage,
} from '@warden/consumer';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { OPERATOR_ACTION_CHANNEL } from '../../lib/schemas/operator-actions';
import { readTopic, testKafka, uniqueName } from '../../test-support/integration';
import { connectKafkaAndDatabase } from '../../test-support/kafka-and-database';
import { createControlTopics } from '../../test-support/pipeline-consumer';
import { CommandExpiry, EXPIRY_GRACE_MS, FORGET_INSTANCE_AFTER_MS } from './command-expiry';
import { CommandRelay } from './command-relay';
import { OperatorActionListener } from './operator-action-listener';

// The command relay and the expiry on the real broker and Postgres: pending operator_action rows become signed
// commands on the command topic once; what nobody applied expires with an outcome that says why.

const kafka = testKafka('command-relay-it');
let db: Database;
connectKafkaAndDatabase(kafka, (handles) => ({ db } = handles));

const SIGNING_KEY = 'a-signing-key-of-at-least-32-characters';
const EXPIRE_AFTER_MS = 300_000;
let producer: Producer;

beforeAll(async () => {
  producer = kafka.producer();
  await producer.connect();
});

afterAll(async () => {
  await producer?.disconnect();
});

async function relayFor(groupId: string, options: { signingKey?: string } = {}) {
  const prefix = uniqueName('relay-it');
  await createControlTopics(kafka, prefix);
  const relay = new CommandRelay({
    db,
    cluster: DEFAULT_CLUSTER,
    topicPrefix: prefix,
    producer,
    signingKey: options.signingKey,
    expireAfterMs: EXPIRE_AFTER_MS,
    intervalMs: 60_000,
    groupIds: [groupId],
  });
  return { relay, commandsTopic: controlTopicNames(prefix).commands, prefix };
}

function action(groupId: string, overrides: Record<string, unknown> = {}) {
  return db.operatorAction.create({
    data: {
      cluster: DEFAULT_CLUSTER,
      groupId,
      topic: 'orders',
      partition: 3,
      action: 'skip',
      quarantineOffset: 17n,
      reason: 'garbage from a test producer',
      requestedBy: 'bob',
      ...overrides,
    },
  });
}

describe('CommandRelay on the real broker and database', () => {
  it('relays a pending action once, as a signed command keyed by its partition, and records when and until when', async () => {
    const groupId = uniqueName('g');
    const { relay, commandsTopic } = await relayFor(groupId, { signingKey: SIGNING_KEY });
    const requestedAt = new Date(Date.now() - 1_000);
    const pending = await action(groupId, { requestedAt });
    const seek = await action(groupId, {
      partition: 4,
      action: 'seek',
      seekTimestamp: new Date('2026-12-07T11:00:00Z'),
      quarantineOffset: null,
      requestedAt,
    });
    await action(groupId, { status: 'rejected', requestedAt }); // never relayed: not pending
    await action(groupId, { cluster: 'eu', requestedAt }); // another cluster's relay sends it

    expect(await relay.relayOnce()).toBe(2);
    expect(await relay.relayOnce()).toBe(0);

    const messages = await readTopic(kafka, commandsTopic, 2);
    expect(messages).toHaveLength(2);
    const [skipMessage, seekMessage] = messages;
    const decoded = decodeControlMessage(
      Buffer.from(skipMessage!.value!),
      ZCommandTopicMessage,
      MAX_COMMAND_MESSAGE_BYTES,
    );
    expect(decoded).toEqual({
      ok: true,
      message: {
        v: 1,
        type: 'command',
        id: pending.commandId,
        groupId,
        topic: 'orders',
        partition: 3,
        action: 'skip',
        quarantineOffset: '17',
        seekOffset: null,
        seekTimestampMs: null,
        reason: 'garbage from a test producer',
        requestedBy: 'bob',
        requestedAtMs: requestedAt.getTime(),
        expiresAtMs: requestedAt.getTime() + EXPIRE_AFTER_MS,
      },
    });
    expect(skipMessage!.key).toBe(commandKey({ groupId, topic: 'orders', partition: 3 }));
    expect(
      verifyControlSignature(Buffer.from(skipMessage!.value!), skipMessage!.headers[SIGNATURE_HEADER], SIGNING_KEY),
    ).toBeNull();
    expect(
      verifyControlSignature(Buffer.from(skipMessage!.value!), skipMessage!.headers[SIGNATURE_HEADER], 'another key'),
    ).toBe('signature does not match');
    expect(JSON.parse(seekMessage!.value!)).toMatchObject({
      id: seek.commandId,
      action: 'seek',
      seekTimestampMs: Date.parse('2026-12-07T11:00:00Z'),
    });

    const row = await db.operatorAction.findUniqueOrThrow({ where: { id: pending.id } });
    expect(row.status).toBe('pending');
    expect(row.relayedAt).toBeInstanceOf(Date);
    expect(row.expiresAt).toEqual(new Date(requestedAt.getTime() + EXPIRE_AFTER_MS));
    const other = await db.operatorAction.findFirstOrThrow({ where: { groupId, cluster: 'eu' } });
    expect(other.relayedAt).toBeNull();
  });

  it('sends unsigned commands without a key; leaves an action past its expiry to the expiry; rejects one it cannot carry', async () => {
    const groupId = uniqueName('g');
    const { relay, commandsTopic } = await relayFor(groupId);
    const old = await action(groupId, { requestedAt: new Date(Date.now() - EXPIRE_AFTER_MS - 1_000) });
    const tooLong = await action(groupId, { requestedBy: 'x'.repeat(600) });
    const fine = await action(groupId);
    expect(await relay.relayOnce()).toBe(2);
    const [message, ...more] = await readTopic(kafka, commandsTopic, 1);
    expect(more).toHaveLength(0);
    expect(JSON.parse(message!.value!)).toMatchObject({ id: fine.commandId });
    expect(message!.headers[SIGNATURE_HEADER]).toBeUndefined();
    expect(await db.operatorAction.findUniqueOrThrow({ where: { id: tooLong.id } })).toMatchObject({
      status: 'rejected',
      outcome: expect.stringMatching(/^cannot be sent to the consumers as a command \(requestedBy: /),
    });
    expect((await db.operatorAction.findUniqueOrThrow({ where: { id: old.id } })).relayedAt).toBeNull();
  });

  it('is woken by the NOTIFY the API sends with a new action', async () => {
    const groupId = uniqueName('g');
    let notified!: () => void;
    const notification = new Promise<void>((resolve) => (notified = resolve));
    const listener = new OperatorActionListener({
      databaseUrl: loadTestConfig().DATABASE_URL,
      onNotify: () => notified(),
    });
    await listener.start();
    try {
      await db.$executeRaw`SELECT pg_notify(${OPERATOR_ACTION_CHANNEL}, ${groupId})`;
      await notification;
    } finally {
      await listener.stop();
    }
  });
});

describe('CommandExpiry on the real database', () => {
  function expiry(groupId: string, prefix = 'warden-control') {
    return new CommandExpiry({
      db,
      clusters: [DEFAULT_CLUSTER],
      topicPrefix: prefix,
      expireAfterMs: EXPIRE_AFTER_MS,
      intervalMs: 60_000,
      instanceId: 'worker-a',
      groupIds: [groupId],
    });
  }

  it('expires what nobody applied past its expiry and the grace, saying who owned the partition', async () => {
    const groupId = uniqueName('g');
    const now = new Date();
    const past = new Date(now.getTime() - EXPIRY_GRACE_MS - 1_000);
    const relayed = { relayedAt: new Date(now.getTime() - EXPIRE_AFTER_MS), expiresAt: past };
    await db.consumerInstance.create({
      data: {
        cluster: DEFAULT_CLUSTER,
        groupId,
        instanceId: 'orders-svc@pod-1/7',
        clientId: 'orders-svc',
        host: 'pod-1',
        pid: 7,
        packageVersion: '0.1.0',
        startedAt: new Date(now.getTime() - 3_600_000),
        reportedAt: new Date(now.getTime() - 1_000),
        stateIntervalMs: 5_000,
        status: 'running',
        ready: true,
        readinessDetail: 'consuming',
        assignment: [{ topic: 'orders', partition: 3 }],
        lastRefusal: 'command 1f: signature does not match',
      },
    });
    const owned = await action(groupId, relayed);
    const unowned = await action(groupId, { ...relayed, partition: 7 });
    const neverRelayed = await action(groupId, { requestedAt: new Date(now.getTime() - EXPIRE_AFTER_MS - 60_000) });
    // Past its expiry, but within the grace: an outcome may still be on its way.
    const inGrace = await action(groupId, { ...relayed, expiresAt: new Date(now.getTime() - 1_000) });
    const done = await action(groupId, { ...relayed, status: 'done' });

    expect(await expiry(groupId).expireOnce(now)).toBe(3);
    const outcome = async (id: bigint) => db.operatorAction.findUniqueOrThrow({ where: { id } });
    expect(await outcome(owned.id)).toMatchObject({
      status: 'expired',
      executedBy: 'worker-a',
      completedAt: now,
      outcome:
        'expired after 300 s: instance orders-svc@pod-1/7 owns orders-3 but did not apply it; its last refused command: command 1f: signature does not match; nothing was changed',
    });
    expect((await outcome(unowned.id)).outcome).toBe(
      `expired after 300 s: no live instance of group ${groupId} owns orders-7; instance orders-svc@pod-1/7 last refused a command: command 1f: signature does not match; nothing was changed`,
    );
    expect((await outcome(neverRelayed.id)).outcome).toBe(
      'expired after 300 s without reaching warden-control.commands (no worker could produce to it); nothing was changed',
    );
    expect((await outcome(inGrace.id)).status).toBe('pending');
    expect((await outcome(done.id)).status).toBe('done');
    expect(await expiry(groupId).expireOnce(now)).toBe(0);
  });

  it('forgets instances not heard from for a week', async () => {
    const groupId = uniqueName('g');
    const now = new Date();
    const instance = (instanceId: string, reportedAt: Date) => ({
      cluster: DEFAULT_CLUSTER,
      groupId,
      instanceId,
      clientId: 'c',
      host: 'h',
      pid: 1,
      packageVersion: '0.1.0',
      startedAt: reportedAt,
      reportedAt,
      stateIntervalMs: 5_000,
      status: 'stopped',
      ready: false,
      readinessDetail: 'stopped',
      assignment: [],
    });
    await db.consumerInstance.createMany({
      data: [
        instance('old', new Date(now.getTime() - FORGET_INSTANCE_AFTER_MS - 1)),
        instance('recent', new Date(now.getTime() - FORGET_INSTANCE_AFTER_MS + 60_000)),
      ],
    });
    await expiry(groupId).forgetInstances(now);
    const left = await db.consumerInstance.findMany({ where: { groupId } });
    expect(left.map((i) => i.instanceId)).toEqual(['recent']);
  });
});

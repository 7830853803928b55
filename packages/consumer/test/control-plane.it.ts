import { ConfigResourceTypes, type Admin, type Consumer, type IHeaders, type Producer } from 'kafkajs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTROL_PROTOCOL_VERSION,
  controlTopicNames,
  createConsumer,
  decodeControlMessage,
  encodeControlMessage,
  ensureControlTopics,
  MAX_COMMAND_MESSAGE_BYTES,
  MAX_STATE_MESSAGE_BYTES,
  SIGNATURE_HEADER,
  signControlMessage,
  ZCommandTopicMessage,
  ZInstanceState,
  type ControlOptions,
  type SourceRecord,
  type TCommandAck,
  type TInstanceState,
  type TOperatorCommand,
  type WardenConsumer,
} from '@warden/consumer';
import {
  committedOffsets,
  createTopic,
  eventually,
  readTopic,
  testKafka,
  uniqueName,
} from '@/test-support/integration';

// The control plane of createConsumer on the real broker: the state topic carries each instance's state and
// holds, commands are applied by the partition's owner only and at most once, acknowledged on the command
// topic, and whatever is unsigned, forged or malformed is refused and reported while consuming goes on.

const kafka = testKafka('control-plane-it');
const KEY = 'control-plane-it-key';
const STATE_INTERVAL_MS = 500;
let admin: Admin;
let producer: Producer;
const running: WardenConsumer<string>[] = [];
const readers: Consumer[] = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
});

afterEach(async () => {
  await Promise.all(running.splice(0).map((consumer) => consumer.stop(2_000)));
  await Promise.all(readers.splice(0).map((reader) => reader.disconnect()));
});

afterAll(async () => {
  await producer.disconnect();
  await admin.disconnect();
});

interface Service {
  consumer: WardenConsumer<string>;
  handled: string[];
}

/** An instance of a service: a record whose value starts with "poison" fails admission and holds its partition. */
function service(
  groupId: string,
  topic: string,
  control: ControlOptions | undefined,
  deadLetterTopic: string | null = null,
): Service {
  const handled: string[] = [];
  const consumer = createConsumer<string>({
    kafka,
    groupId,
    topics: [topic],
    commitIntervalMs: 200,
    admit: (record: SourceRecord) =>
      record.value?.toString().startsWith('poison')
        ? { ok: false, reason: 'not an order', errorClass: 'malformed' }
        : { ok: true, value: record.value?.toString() ?? '', orderingKey: null },
    handle: async (_value, record) => {
      handled.push(`${record.partition}@${record.offset}`);
    },
    deadLetter: deadLetterTopic
      ? async (record, info) => {
          await producer.send({
            topic: deadLetterTopic,
            acks: -1,
            messages: [{ key: record.key, value: record.value, headers: { reason: info.reason } }],
          });
        }
      : undefined,
    control,
  });
  running.push(consumer);
  return { consumer, handled };
}

/** Every message of a topic from the beginning, as it arrives (once the topic exists). */
async function follow(topic: string) {
  await eventually(`topic ${topic}`, async () => ((await topicExists(topic)) ? true : undefined));
  const seen: Array<{ key: string | null; value: Buffer | null; headers: IHeaders }> = [];
  const reader = kafka.consumer({ groupId: uniqueName('control-follower') });
  readers.push(reader);
  await reader.connect();
  await reader.subscribe({ topic, fromBeginning: true });
  await reader.run({
    eachMessage: async ({ message }) => {
      seen.push({ key: message.key?.toString() ?? null, value: message.value, headers: message.headers ?? {} });
    },
  });
  return seen;
}

function statesOf(seen: Awaited<ReturnType<typeof follow>>): TInstanceState[] {
  return seen.map(({ value }) => {
    const decoded = decodeControlMessage(value, ZInstanceState, MAX_STATE_MESSAGE_BYTES);
    if (!decoded.ok) throw new Error(`a state message does not parse: ${decoded.reason}`);
    return decoded.message;
  });
}

function acksOf(seen: Awaited<ReturnType<typeof follow>>): TCommandAck[] {
  return seen.flatMap(({ value }) => {
    const decoded = decodeControlMessage(value, ZCommandTopicMessage, MAX_COMMAND_MESSAGE_BYTES);
    return decoded.ok && decoded.message.type === 'ack' ? [decoded.message] : [];
  });
}

function command(groupId: string, topic: string, overrides: Partial<TOperatorCommand> = {}): TOperatorCommand {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'command',
    id: uniqueName('cmd'),
    groupId,
    topic,
    partition: 0,
    action: 'skip',
    quarantineOffset: '1',
    seekOffset: null,
    seekTimestampMs: null,
    reason: 'not an order; dropped',
    requestedBy: 'control-plane-it',
    requestedAtMs: Date.now(),
    expiresAtMs: Date.now() + 10 * 60_000,
    ...overrides,
  };
}

/** Puts a raw value on the command topic, signed with `signWith` when given. */
async function sendCommandBytes(prefix: string, key: string, value: Buffer, signWith?: string): Promise<void> {
  await producer.send({
    topic: controlTopicNames(prefix).commands,
    acks: -1,
    messages: [{ key, value, headers: signWith ? { [SIGNATURE_HEADER]: signControlMessage(value, signWith) } : {} }],
  });
}

async function sendCommand(prefix: string, message: TOperatorCommand, signWith?: string): Promise<void> {
  await sendCommandBytes(
    prefix,
    `${message.groupId}/${message.topic}/${message.partition}`,
    encodeControlMessage(message),
    signWith,
  );
}

async function produce(topic: string, values: Array<{ partition?: number; value: string; key?: string }>) {
  await producer.send({
    topic,
    acks: -1,
    messages: values.map(({ partition = 0, value, key }) => ({ partition, value, key })),
  });
}

async function topicExists(topic: string): Promise<boolean> {
  return (await admin.listTopics()).includes(topic);
}

const control = (prefix: string, extra: Partial<ControlOptions> = {}): ControlOptions => ({
  topicPrefix: prefix,
  stateIntervalMs: STATE_INTERVAL_MS,
  ...extra,
});

describe('the control plane on the real broker', () => {
  it('creates its topics and publishes parsing state, with a poison record held and its preview escaped', async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 1);
    await produce(topic, [
      { value: 'order 0' },
      { value: 'poison\u0000\u001b[31m', key: 'k\u0007' },
      { value: 'order 2' },
    ]);
    const { consumer } = service(groupId, topic, control(prefix, { instanceId: 'orders-1' }));
    await consumer.start();

    const names = controlTopicNames(prefix);
    await eventually('both control topics', async () =>
      (await topicExists(names.state)) && (await topicExists(names.commands)) ? true : undefined,
    );
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics: [names.state, names.commands] });
    expect(metadata.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
      [names.commands, 1],
      [names.state, 6],
    ]);
    const configs = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [
        { type: ConfigResourceTypes.TOPIC, name: names.state, configNames: ['cleanup.policy'] },
        { type: ConfigResourceTypes.TOPIC, name: names.commands, configNames: ['cleanup.policy', 'retention.ms'] },
      ],
    });
    const entries = Object.fromEntries(
      configs.resources.map((resource) => [
        resource.resourceName,
        Object.fromEntries(resource.configEntries.map((entry) => [entry.configName, entry.configValue])),
      ]),
    );
    expect(entries).toEqual({
      [names.state]: { 'cleanup.policy': 'compact' },
      [names.commands]: { 'cleanup.policy': 'delete', 'retention.ms': '86400000' },
    });

    const seen = await follow(names.state);
    const held = await eventually('a state with the hold', async () =>
      statesOf(seen).find((state) => state.holds.length > 0),
    );
    expect(seen.every(({ key }) => key === `${groupId}/orders-1`)).toBe(true);
    expect(held).toMatchObject({
      groupId,
      instanceId: 'orders-1',
      status: 'running',
      topics: [topic],
      assignment: [{ topic, partition: 0 }],
      truncated: false,
    });
    expect(held.holds[0]).toMatchObject({
      topic,
      partition: 0,
      offset: '1',
      reason: 'not an order',
      errorClass: 'malformed',
      key: 'k\\u0007',
      value: 'poison\\u0000\\u001b[31m',
    });
    expect(held.rebalances.length).toBeGreaterThan(0);
    await eventually('a ready state', async () => statesOf(seen).find((state) => state.ready));
  });

  it('applies a signed skip: the record is copied to the dead letters, the partition flows, the ack is on the command topic', async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const dlq = uniqueName('control-dlq');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 1);
    await createTopic(admin, dlq, 1);
    await produce(topic, [{ value: 'order 0' }, { value: 'poison 1' }, { value: 'order 2' }]);
    const { consumer, handled } = service(groupId, topic, control(prefix, { commandKey: KEY }), dlq);
    await consumer.start();
    const states = await follow(controlTopicNames(prefix).state);
    await eventually('the hold', async () => statesOf(states).find((state) => state.holds.length > 0));

    const skip = command(groupId, topic);
    await sendCommand(prefix, skip, KEY);
    const commandTopic = await follow(controlTopicNames(prefix).commands);
    const [ack] = await eventually('the ack', async () => {
      const acks = acksOf(commandTopic);
      return acks.length > 0 ? acks : undefined;
    });
    expect(ack).toMatchObject({
      commandId: skip.id,
      groupId,
      topic,
      partition: 0,
      instanceId: consumer.control?.instanceId,
      status: 'done',
    });
    const ackMessage = commandTopic.find(({ value }) => value?.toString().includes('"type":"ack"'));
    expect(ackMessage?.key).toBe(`${groupId}/${topic}/0`);
    expect(ackMessage?.headers[SIGNATURE_HEADER]?.toString()).toBe(signControlMessage(ackMessage!.value!, KEY));

    await produce(topic, [{ value: 'order 3' }]);
    await eventually('the commit past the skipped record', async () =>
      (await committedOffsets(admin, groupId, topic)).get(0) === '4' ? true : undefined,
    );
    expect(handled).toEqual(['0@0', '0@2', '0@3']);
    const [copy] = await readTopic(kafka, dlq, 1);
    expect(copy?.value).toBe('poison 1');
    const outcome = await eventually('the outcome in the state', async () =>
      statesOf(states)
        .flatMap((state) => state.outcomes)
        .find((o) => o.commandId === skip.id),
    );
    expect(outcome).toMatchObject({ status: 'done', liftedOffset: '1' });
    expect(outcome.outcome).toMatch(
      /^skipped offset 1 without processing, copied to the dead-letter port; reading continues at 2$/,
    );
    expect(consumer.control?.stats()).toMatchObject({ commandsApplied: 1, acksPublished: 1 });
  });

  it('refuses and reports unsigned, forged, malformed, unknown-version and oversized messages, and keeps consuming', async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 2);
    await produce(topic, [
      { partition: 0, value: 'order 0' },
      { partition: 0, value: 'poison 1' },
    ]);
    const { consumer, handled } = service(groupId, topic, control(prefix, { commandKey: KEY }));
    await consumer.start();
    const states = await follow(controlTopicNames(prefix).state);
    await eventually('the hold', async () => statesOf(states).find((state) => state.holds.length > 0));

    const key = `${groupId}/${topic}/0`;
    const unsigned = command(groupId, topic);
    const forged = command(groupId, topic);
    await sendCommand(prefix, unsigned);
    await sendCommand(prefix, forged, 'not the key');
    await sendCommandBytes(prefix, key, Buffer.from('{"v":1,'), KEY);
    const future = { ...command(groupId, topic), v: 2 };
    await sendCommandBytes(prefix, key, Buffer.from(JSON.stringify(future)), KEY);
    const oversized = command(groupId, topic, { reason: 'x'.repeat(MAX_COMMAND_MESSAGE_BYTES) });
    await sendCommand(prefix, oversized, KEY);

    const reported = await eventually('five refusals in the state', async () =>
      statesOf(states).find((state) => state.refused.count === 5),
    );
    expect(reported.refused.recent.map((r) => [r.commandId, r.reason])).toEqual([
      [unsigned.id, 'unsigned (no warden-signature header)'],
      [forged.id, 'signature does not match'],
      [null, 'not JSON'],
      [future.id, 'protocol version 2; this reader speaks 1'],
      [oversized.id, expect.stringMatching(/bytes, over the 16384-byte limit$/)],
    ]);
    expect(reported.holds.map((h) => h.offset)).toEqual(['1']);
    expect(consumer.core.snapshot().partitions.find((p) => p.partition === 0)?.quarantine?.offset).toBe('1');

    await produce(topic, [{ partition: 1, value: 'order on 1' }]);
    await eventually('the other partition still consumed', async () => (handled.includes('1@0') ? true : undefined));
    expect(consumer.control?.stats().commandsApplied).toBe(0);
  });

  it('keeps a command for a partition nobody owns waiting, and the instance that comes to own it applies it', async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 1);
    await produce(topic, [{ value: 'order 0' }, { value: 'poison 1' }, { value: 'order 2' }]);
    expect(await ensureControlTopics(admin, prefix)).toBe('created');
    expect(await ensureControlTopics(admin, prefix)).toBe('existed');
    const skip = command(groupId, topic);
    // Sent while no instance of the group runs: nobody owns the partition.
    await sendCommand(prefix, skip);
    const commandTopic = await follow(controlTopicNames(prefix).commands);
    await eventually('the command on its topic', async () => (commandTopic.length === 1 ? true : undefined));

    const { consumer, handled } = service(groupId, topic, control(prefix));
    await consumer.start();
    await eventually('the ack of the instance that came to own it', async () =>
      acksOf(commandTopic).find((ack) => ack.commandId === skip.id && ack.status === 'done'),
    );
    await eventually('records after the skipped one handled', async () => (handled.includes('0@2') ? true : undefined));
    expect(handled).toEqual(['0@0', '0@2']);
  });

  it('with two instances, only the owner applies, and the same command re-sent is not applied again', async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 2);
    await produce(topic, [
      { partition: 0, value: 'poison 0' },
      { partition: 1, value: 'poison 0' },
    ]);
    const a = service(groupId, topic, control(prefix, { instanceId: 'a' }));
    const b = service(groupId, topic, control(prefix, { instanceId: 'b' }));
    await Promise.all([a.consumer.start(), b.consumer.start()]);
    const states = await follow(controlTopicNames(prefix).state);
    // Each instance holds the partition it owns; wait until the two holds are reported by different instances.
    const holders = await eventually(
      'each partition held by one instance',
      async () => {
        const newest = new Map<string, TInstanceState>();
        for (const state of statesOf(states)) newest.set(state.instanceId, state);
        const byPartition = new Map<number, string[]>();
        for (const state of newest.values())
          for (const h of state.holds)
            byPartition.set(h.partition, [...(byPartition.get(h.partition) ?? []), state.instanceId]);
        const single = [...byPartition.values()].every((holders) => holders.length === 1);
        const owners = new Set([...byPartition.values()].flat());
        return byPartition.size === 2 && single && owners.size === 2
          ? new Map([...byPartition].map(([partition, [holder]]) => [partition, holder!]))
          : undefined;
      },
      60_000,
    );
    const owner = holders.get(1)!;
    const instances = { a, b };
    const ownerService = instances[owner as 'a' | 'b'];

    const skip = command(groupId, topic, { partition: 1, quarantineOffset: '0' });
    await sendCommand(prefix, skip);
    const commandTopic = await follow(controlTopicNames(prefix).commands);
    await eventually('the ack', async () => acksOf(commandTopic).find((ack) => ack.commandId === skip.id));
    expect(acksOf(commandTopic).map((ack) => [ack.instanceId, ack.status])).toEqual([[owner, 'done']]);

    // The partition holds a new record; a second application of the same command would be acknowledged again
    // ('rejected': held at another offset).
    await produce(topic, [{ partition: 1, value: 'poison 1' }]);
    await eventually('the new hold', async () =>
      ownerService.consumer.core.snapshot().partitions.find((p) => p.partition === 1)?.quarantine?.offset === '1'
        ? true
        : undefined,
    );
    const readBefore = [a, b].map((s) => s.consumer.control!.stats().commandMessagesRead);
    await sendCommand(prefix, skip);
    await eventually('both instances read the re-sent command', async () =>
      [a, b].every((s, i) => s.consumer.control!.stats().commandMessagesRead > readBefore[i]!) ? true : undefined,
    );
    // One state interval for anything it would have triggered.
    await new Promise((resolve) => setTimeout(resolve, STATE_INTERVAL_MS * 2));
    expect(acksOf(commandTopic)).toHaveLength(1);
    expect(a.consumer.control!.stats().commandsApplied + b.consumer.control!.stats().commandsApplied).toBe(1);
    expect(ownerService.consumer.core.snapshot().partitions.find((p) => p.partition === 1)?.quarantine?.offset).toBe(
      '1',
    );
  });

  it('with control off, creates no topic and publishes nothing', async () => {
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 1);
    await produce(topic, [{ value: 'order 0' }]);
    const before = new Set(await admin.listTopics());
    const { consumer, handled } = service(groupId, topic, undefined);
    await consumer.start();
    await eventually('the record handled', async () => (handled.length === 1 ? true : undefined));
    await consumer.stop(2_000);
    running.splice(running.indexOf(consumer), 1);
    expect(consumer.control).toBeNull();
    const after = (await admin.listTopics()).filter((name) => !before.has(name));
    expect(after).toEqual([]);
  });

  it("deletes its command reader's group on stop and publishes a stopped state", async () => {
    const prefix = uniqueName('ctl');
    const topic = uniqueName('control-orders');
    const groupId = uniqueName('control-group');
    await createTopic(admin, topic, 1);
    const { consumer } = service(groupId, topic, control(prefix));
    await consumer.start();
    const states = await follow(controlTopicNames(prefix).state);
    await eventually('a running state', async () => statesOf(states).find((state) => state.status === 'running'));
    const readerGroup = consumer.control!.readerGroupId;
    expect(readerGroup.startsWith(`${prefix}.commands.${groupId}.`)).toBe(true);
    await eventually('the reader group listed', async () =>
      (await admin.listGroups()).groups.some((g) => g.groupId === readerGroup) ? true : undefined,
    );
    await consumer.stop(2_000);
    running.splice(running.indexOf(consumer), 1);
    await eventually('the stopped state', async () => statesOf(states).find((state) => state.status === 'stopped'));
    expect((await admin.listGroups()).groups.some((g) => g.groupId === readerGroup)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from '../core/testing/fake-clock.js';
import { createHarness, makeRecord, tp } from '../core/testing/harness.js';
import type { ConsumerLogger, Readiness } from '../kafkajs/consumer-types.js';
import { resolveControlSettings } from './control-options.js';
import { ControlPlane, READINESS_CHECK_MS, STATE_COALESCE_MS, controlSurfaceOf } from './control-plane.js';
import {
  CONTROL_PROTOCOL_VERSION,
  decodeControlMessage,
  encodeControlMessage,
  MAX_COMMAND_MESSAGE_BYTES,
  MAX_STATE_MESSAGE_BYTES,
  SIGNATURE_HEADER,
  ZCommandAck,
  ZInstanceState,
  type TCommandAck,
  type TOperatorCommand,
} from './protocol.js';
import { signControlMessage, verifyControlSignature } from './signing.js';
import { FakeControlKafka } from './testing/fake-control-kafka.js';

// The control plane over a fake kafkajs and the harness's manual clock, with the real (pure) consumer core.
// The real broker's side is packages/consumer/test/control-plane.it.ts.

const PREFIX = 'ctl';
const STATE_TOPIC = 'ctl.state';
const COMMAND_TOPIC = 'ctl.commands';
const KEY = 'shared-secret';

interface SetupOptions {
  commandKey?: string;
  createTopics?: boolean;
  stateIntervalMs?: number;
  /** The dead-letter write a skip makes first. Default: records the record and resolves. */
  deadLetterWrite?: () => Promise<void>;
}

function setup({ deadLetterWrite, ...options }: SetupOptions = {}) {
  const kafka = new FakeControlKafka();
  const admin = kafka.admin();
  let plane: ControlPlane | null = null;
  const h = createHarness({ ordering: 'partition', onEvent: (event) => plane?.onCoreEvent(event) });
  const logs: Array<{ level: string; obj: object; msg: string }> = [];
  const at = (level: string) => (obj: object, msg?: string) => logs.push({ level, obj, msg: msg ?? '' });
  const logger: ConsumerLogger = { info: at('info'), warn: at('warn'), error: at('error') };
  let readiness: Readiness = { ready: true, detail: 'consuming' };
  const dlq: string[] = [];
  plane = new ControlPlane({
    kafka,
    admin,
    settings: resolveControlSettings(
      { topicPrefix: PREFIX, instanceId: 'svc-1', stateIntervalMs: options.stateIntervalMs ?? 5_000, ...options },
      { groupId: 'g', host: 'box', pid: 7 },
    ),
    groupId: 'g',
    topics: ['events'],
    clock: h.clock,
    logger,
    core: h.core,
    readiness: () => readiness,
    assignment: () => h.core.snapshot().partitions.map(({ topic, partition }) => ({ topic, partition })),
    deadLetter: {
      name: 'events.dlq',
      write: async (record) => {
        dlq.push(`${record.partition}@${record.offset}`);
        await deadLetterWrite?.();
      },
    },
    newId: () => 'uuid-1',
  });
  const producer = () => kafka.producers[0]!;
  const reader = () => kafka.consumerOf(`${PREFIX}.commands.`);
  const states = () =>
    producer()
      .messages(STATE_TOPIC)
      .map((m) => {
        const decoded = decodeControlMessage(m.value as Buffer, ZInstanceState, MAX_STATE_MESSAGE_BYTES);
        if (!decoded.ok) throw new Error(decoded.reason);
        expect(m.key).toBe('g/svc-1');
        return decoded.message;
      });
  const acks = () =>
    producer()
      .messages(COMMAND_TOPIC)
      .map((m) => {
        const decoded = decodeControlMessage(m.value as Buffer, ZCommandAck, MAX_COMMAND_MESSAGE_BYTES);
        if (!decoded.ok) throw new Error(decoded.reason);
        return { ack: decoded.message, key: m.key, signature: m.headers?.[SIGNATURE_HEADER] as string | undefined };
      });
  const send = (
    ...messages: Array<{ value: Buffer | null; key?: string; signature?: string | null; signWith?: string }>
  ) =>
    reader()
      .deliverMessages(
        COMMAND_TOPIC,
        messages.map(({ value, key, signature, signWith }) => {
          const header = signature ?? (signWith && value ? signControlMessage(value, signWith) : null);
          return {
            key: key === undefined ? Buffer.from('g/events/0') : Buffer.from(key),
            value,
            headers: header === null ? {} : { [SIGNATURE_HEADER]: header },
          };
        }),
      )
      .then(async (resolved) => {
        await flushMicrotasks();
        return resolved;
      });
  const start = async () => {
    plane!.start();
    await flushMicrotasks();
  };
  return {
    h,
    kafka,
    admin,
    plane: plane as ControlPlane,
    logs,
    dlq,
    producer,
    reader,
    states,
    acks,
    send,
    start,
    setReadiness: (value: Readiness) => {
      readiness = value;
    },
  };
}

function command(overrides: Partial<TOperatorCommand> = {}): TOperatorCommand {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'command',
    id: 'cmd-1',
    groupId: 'g',
    topic: 'events',
    partition: 0,
    action: 'skip',
    quarantineOffset: '0',
    seekOffset: null,
    seekTimestampMs: null,
    reason: 'poison',
    requestedBy: 'alice',
    requestedAtMs: 1_000,
    expiresAtMs: 1_000 + 15 * 60_000,
    ...overrides,
  };
}

function ack(overrides: Partial<TCommandAck> = {}): TCommandAck {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'ack',
    commandId: 'cmd-1',
    groupId: 'g',
    topic: 'events',
    partition: 0,
    instanceId: 'peer',
    status: 'done',
    atMs: 1_000,
    ...overrides,
  };
}

const bytes = (message: object) => encodeControlMessage(message as TOperatorCommand);

/** Holds partition 0 at offset 0 (its record fails admission). */
function hold(s: ReturnType<typeof setup>, offset = 0, partition = 0) {
  s.h.core.deliver([makeRecord(offset, { invalid: true, partition })]);
}

describe('ControlPlane: topics, producer, reader', () => {
  it('creates the two topics, connects a producer with one request in flight, and reads commands in a group of its own', async () => {
    const s = setup();
    await s.start();
    expect(s.admin.createdTopics).toEqual([
      {
        topic: STATE_TOPIC,
        numPartitions: 6,
        replicationFactor: -1,
        configEntries: [{ name: 'cleanup.policy', value: 'compact' }],
      },
      {
        topic: COMMAND_TOPIC,
        numPartitions: 1,
        replicationFactor: -1,
        configEntries: [
          { name: 'cleanup.policy', value: 'delete' },
          { name: 'retention.ms', value: '86400000' },
        ],
      },
    ]);
    expect(s.producer().config).toMatchObject({ maxInFlightRequests: 1, allowAutoTopicCreation: false });
    expect(s.reader().config).toMatchObject({ groupId: 'ctl.commands.g.uuid-1', allowAutoTopicCreation: false });
    expect(s.reader().subscriptions).toEqual([{ topic: COMMAND_TOPIC, fromBeginning: true }]);
    expect(s.plane.readerGroupId).toBe('ctl.commands.g.uuid-1');
    expect(s.reader().commits).toEqual([]);
  });

  it('leaves existing topics alone and creates none with createTopics off', async () => {
    const s = setup();
    s.admin.topics.add(STATE_TOPIC).add(COMMAND_TOPIC);
    await s.start();
    expect(s.admin.createdTopics).toEqual([]);
    const off = setup({ createTopics: false });
    await off.start();
    expect(off.admin.createdTopics).toEqual([]);
    expect(off.states()).toHaveLength(1);
  });

  it('logs a refused topic creation once, does not retry it, and keeps working', async () => {
    const s = setup({ stateIntervalMs: 1_000 });
    s.admin.createTopicsError = Object.assign(new Error('denied'), { type: 'TOPIC_AUTHORIZATION_FAILED' });
    await s.start();
    await s.h.clock.tick(3_000);
    expect(s.logs.filter((l) => l.msg.startsWith('not allowed to create the control topics'))).toHaveLength(1);
    expect(s.states().length).toBeGreaterThan(1);
  });

  it('retries a producer that could not connect on the next tick', async () => {
    const s = setup({ stateIntervalMs: 1_000 });
    const producer = () => s.kafka.producers[0]!;
    // The producer exists from construction; make its first connect fail.
    producer().connectError = new Error('broker away');
    await s.start();
    expect(s.logs.some((l) => l.msg.includes('the producer could not connect'))).toBe(true);
    expect(producer().sent).toEqual([]);
    producer().connectError = null;
    await s.h.clock.tick(1_000);
    expect(s.states().length).toBeGreaterThan(0);
  });

  it('starts a new reader on the next tick after kafkajs gave up on the old one', async () => {
    const s = setup({ stateIntervalMs: 1_000 });
    await s.start();
    const first = s.reader();
    await first.crash(new Error('coordinator gone'), { retriable: false });
    await s.h.clock.tick(1_000);
    expect(s.kafka.consumers).toHaveLength(2);
    expect(s.reader()).not.toBe(first);
    expect(s.reader().config.groupId).toBe(first.config.groupId);
    expect(first.disconnected).toBe(true);
  });
});

describe('ControlPlane: state', () => {
  it('publishes on connect, every interval, and soon after a hold, coalescing changes', async () => {
    const s = setup({ stateIntervalMs: 5_000 });
    await s.start();
    expect(s.states()).toHaveLength(1);
    expect(s.states()[0]).toMatchObject({ groupId: 'g', instanceId: 'svc-1', status: 'running', holds: [] });
    hold(s);
    s.plane.onAssignment();
    await s.h.clock.tick(STATE_COALESCE_MS);
    expect(s.states()).toHaveLength(2);
    expect(s.states()[1]!.holds.map((h) => h.offset)).toEqual(['0']);
    await s.h.clock.tick(5_000 - STATE_COALESCE_MS);
    expect(s.states()).toHaveLength(3);
    expect(s.plane.stats()).toMatchObject({ statesPublished: 3, published: 3 });
    expect(s.plane.stats().publishedBytes).toBeGreaterThan(0);
  });

  it('reports measured rebalance stops and a readiness turn promptly', async () => {
    const s = setup({ stateIntervalMs: 60_000 });
    await s.start();
    s.plane.onRebalance({
      groupId: 'g',
      memberId: 'm',
      leaderId: 'm',
      isLeader: true,
      groupProtocol: 'RoundRobinAssigner',
      cause: 'join',
      startedAtMs: 900,
      endedAtMs: 1_000,
      assignmentBefore: [],
      assignmentAfter: [tp(0)],
    });
    await s.h.clock.tick(STATE_COALESCE_MS);
    expect(s.states().at(-1)!.rebalances).toHaveLength(1);
    const before = s.states().length;
    await s.h.clock.tick(READINESS_CHECK_MS);
    s.setReadiness({ ready: false, detail: 'no progress' });
    await s.h.clock.tick(READINESS_CHECK_MS + STATE_COALESCE_MS);
    expect(s.states()).toHaveLength(before + 1);
    expect(s.states().at(-1)).toMatchObject({ ready: false, readinessDetail: 'no progress' });
  });

  it('keeps consuming and retries on the next tick when a send fails', async () => {
    const s = setup({ stateIntervalMs: 1_000 });
    await s.start();
    s.producer().sendError = new Error('not enough replicas');
    await s.h.clock.tick(3_000);
    expect(s.plane.stats().publishFailures).toBe(3);
    expect(s.logs.filter((l) => l.msg.includes('publishing the state failed'))).toHaveLength(1);
    s.producer().sendError = null;
    await s.h.clock.tick(1_000);
    expect(s.states()).toHaveLength(2);
  });
});

describe('ControlPlane: commands', () => {
  it('applies a signed command on the partition it holds, acknowledges it signed, and reports the outcome', async () => {
    const s = setup({ commandKey: KEY });
    await s.start();
    hold(s);
    const resolved = await s.send({ value: bytes(command()), signWith: KEY });
    expect(resolved).toEqual(['0']);
    expect(s.h.partitionSnapshot().quarantine).toBeNull();
    expect(s.dlq).toEqual(['0@0']);
    const [sent] = s.acks();
    expect(sent?.ack).toMatchObject({
      commandId: 'cmd-1',
      groupId: 'g',
      topic: 'events',
      partition: 0,
      instanceId: 'svc-1',
      status: 'done',
    });
    expect(sent?.key).toBe('g/events/0');
    const value = encodeControlMessage(sent!.ack);
    expect(verifyControlSignature(value, sent?.signature, KEY)).toBeNull();
    await s.h.clock.tick(STATE_COALESCE_MS);
    expect(s.states().at(-1)!.outcomes).toEqual([
      {
        commandId: 'cmd-1',
        action: 'skip',
        topic: 'events',
        partition: 0,
        status: 'done',
        outcome: 'skipped offset 0 without processing, copied to events.dlq; reading continues at 1',
        liftedOffset: '0',
        appliedAtMs: s.h.clock.now() - STATE_COALESCE_MS,
      },
    ]);
    expect(s.plane.stats()).toMatchObject({ commandsApplied: 1, commandOutcomes: 1, acksPublished: 1 });
  });

  it('sends unsigned acknowledgements and accepts unsigned commands without a key', async () => {
    const s = setup();
    await s.start();
    hold(s);
    await s.send({ value: bytes(command({ action: 'resume' })) });
    expect(s.acks().map((a) => [a.ack.status, a.signature])).toEqual([['done', undefined]]);
  });

  it('refuses and reports an unsigned or forged command, and goes on with the next message', async () => {
    const s = setup({ commandKey: KEY });
    await s.start();
    hold(s);
    await s.send(
      { value: bytes(command({ id: 'unsigned' })) },
      { value: bytes(command({ id: 'forged' })), signWith: 'another key' },
      { value: bytes(command({ id: 'odd-scheme' })), signature: 'v0=abc' },
    );
    expect(s.h.partitionSnapshot().quarantine?.offset).toBe('0');
    expect(s.acks()).toEqual([]);
    await s.h.clock.tick(STATE_COALESCE_MS);
    expect(s.states().at(-1)!.refused).toEqual({
      count: 3,
      recent: [
        {
          atMs: s.h.clock.now() - STATE_COALESCE_MS,
          commandId: 'unsigned',
          reason: 'unsigned (no warden-signature header)',
        },
        { atMs: s.h.clock.now() - STATE_COALESCE_MS, commandId: 'forged', reason: 'signature does not match' },
        {
          atMs: s.h.clock.now() - STATE_COALESCE_MS,
          commandId: 'odd-scheme',
          reason: 'signature in an unknown scheme (expected v1=<hex>)',
        },
      ],
    });
    expect(s.logs.some((l) => l.msg === 'control plane: refused a message on the command topic')).toBe(true);
    await s.send({ value: bytes(command({ id: 'good' })), signWith: KEY });
    expect(s.acks().map((a) => a.ack.commandId)).toEqual(['good']);
    expect(s.plane.stats()).toMatchObject({ refused: 3, commandMessagesRead: 4 });
  });

  it('refuses a malformed, unknown-version or oversized message, with its id when readable', async () => {
    const s = setup();
    await s.start();
    await s.send(
      { value: Buffer.from('not json') },
      { value: bytes({ ...command({ id: 'future' }), v: 2 }) },
      { value: bytes({ ...command({ id: 'bad-shape' }), partition: -1 }) },
      { value: bytes({ ...command({ id: 'huge' }), reason: 'x'.repeat(MAX_COMMAND_MESSAGE_BYTES) }) },
      { value: bytes({ v: 1, type: 'order', id: 'odd-type' }) },
      { value: null },
    );
    await s.h.clock.tick(STATE_COALESCE_MS);
    const { refused } = s.states().at(-1)!;
    expect(refused.count).toBe(6);
    expect(refused.recent.map((r) => [r.commandId, r.reason])).toEqual([
      [null, 'not JSON'],
      ['future', 'protocol version 2; this reader speaks 1'],
      ['bad-shape', 'not a valid message (partition: Too small: expected number to be >=0)'],
      [
        'huge',
        `${bytes({ ...command({ id: 'huge' }), reason: 'x'.repeat(MAX_COMMAND_MESSAGE_BYTES) }).length} bytes, over the 16384-byte limit`,
      ],
      ['odd-type', expect.stringMatching(/^not a valid message \(type: /)],
      [null, 'no value'],
    ]);
  });

  it("leaves other groups' messages to them: neither applied nor reported", async () => {
    const s = setup({ commandKey: KEY });
    await s.start();
    hold(s);
    await s.send(
      { value: bytes(command({ groupId: 'other' })), key: 'other/events/0' },
      { value: Buffer.from('garbage'), key: 'other/events/0' },
    );
    expect(s.h.partitionSnapshot().quarantine?.offset).toBe('0');
    expect(s.plane.stats().refused).toBe(0);
    expect(s.acks()).toEqual([]);
  });

  it('lets a command for a partition it does not own wait, and applies it once the partition is assigned and held', async () => {
    const s = setup();
    await s.start();
    await s.send({ value: bytes(command({ partition: 1 })), key: 'g/events/1' });
    expect(s.acks()).toEqual([]);
    expect(s.plane.stats().waitingCommands).toBe(1);
    s.h.core.onAssignment([tp(0), tp(1)]);
    s.plane.onAssignment();
    await flushMicrotasks();
    // Owned now, but the held record is not reached yet: it keeps waiting.
    expect(s.acks()).toEqual([]);
    hold(s, 0, 1);
    await flushMicrotasks();
    expect(s.acks().map((a) => [a.ack.commandId, a.ack.partition, a.ack.status])).toEqual([['cmd-1', 1, 'done']]);
    expect(s.h.partitionSnapshot(1).quarantine).toBeNull();
  });

  it('rejects a waiting command once the commit passes its record', async () => {
    const s = setup();
    await s.start();
    await s.send({ value: bytes(command({ quarantineOffset: '1' })) });
    s.h.core.deliver([makeRecord(0), makeRecord(1), makeRecord(2)]);
    for (const offset of [0, 1, 2]) await s.h.succeed(offset);
    await s.h.core.commitNow();
    await flushMicrotasks();
    expect(s.acks().map((a) => a.ack.status)).toEqual(['rejected']);
  });

  it("never applies a command a peer acknowledged, or one re-sent with the same id, and ignores a forged peer's ack", async () => {
    const s = setup({ commandKey: KEY });
    const resent = command({ id: 'forged-ack', partition: 1, quarantineOffset: null });
    await s.start();
    await s.send(
      { value: bytes(command({ id: 'peer-done', partition: 1 })), key: 'g/events/1', signWith: KEY },
      { value: bytes(ack({ commandId: 'peer-done', partition: 1 })), key: 'g/events/1', signWith: KEY },
      { value: bytes(resent), key: 'g/events/1', signWith: KEY },
      { value: bytes(ack({ commandId: 'forged-ack', partition: 1 })), key: 'g/events/1' },
    );
    s.h.core.onAssignment([tp(0), tp(1)]);
    hold(s, 0, 1);
    await flushMicrotasks();
    expect(s.acks().map((a) => a.ack.commandId)).toEqual(['forged-ack']);
    expect(s.h.partitionSnapshot(1).quarantine).toBeNull();
    expect(s.logs.some((l) => l.msg === 'control plane: ignored an acknowledgement that is not validly signed')).toBe(
      true,
    );
    // The same command again (a relay that re-sent it) while the partition holds another record.
    hold(s, 1, 1);
    await s.send({ value: bytes(resent), key: 'g/events/1', signWith: KEY });
    expect(s.acks().map((a) => a.ack.commandId)).toEqual(['forged-ack']);
    expect(s.h.partitionSnapshot(1).quarantine?.offset).toBe('1');
  });

  it('drops an expired command silently', async () => {
    const s = setup();
    await s.start();
    await s.send({ value: bytes(command({ partition: 1, expiresAtMs: s.h.clock.now() + 1_000 })), key: 'g/events/1' });
    expect(s.plane.stats().waitingCommands).toBe(1);
    await s.h.clock.tick(1_000);
    s.h.core.onAssignment([tp(0), tp(1)]);
    hold(s, 0, 1);
    await flushMicrotasks();
    expect(s.acks()).toEqual([]);
    expect(s.plane.stats()).toMatchObject({ waitingCommands: 0, refused: 0 });
    expect(s.h.partitionSnapshot(1).quarantine?.offset).toBe('0');
  });

  it('retries an acknowledgement that could not be sent', async () => {
    const s = setup({ stateIntervalMs: 1_000 });
    await s.start();
    hold(s);
    s.producer().sendError = new Error('broker away');
    await s.send({ value: bytes(command()) });
    expect(s.h.partitionSnapshot().quarantine).toBeNull();
    expect(s.acks()).toEqual([]);
    s.producer().sendError = null;
    await s.h.clock.tick(1_000);
    expect(s.acks().map((a) => a.ack.commandId)).toEqual(['cmd-1']);
  });
});

describe('ControlPlane: stop', () => {
  it('applies nothing after beginStop, then sends a last stopped state, leaves, deletes its group and disconnects', async () => {
    const s = setup();
    await s.start();
    hold(s);
    s.plane.beginStop();
    await s.send({ value: bytes(command()) });
    expect(s.h.partitionSnapshot().quarantine?.offset).toBe('0');
    await s.plane.stop();
    expect(s.states().at(-1)).toMatchObject({ status: 'stopped', ready: false });
    expect(s.reader().disconnected).toBe(true);
    expect(s.admin.deletedGroups).toEqual(['ctl.commands.g.uuid-1']);
    expect(s.producer().connected).toBe(false);
    expect(s.h.clock.pendingTimers).toBe(0);
  });

  it('sends the acknowledgement of a command being applied before the stopped state', async () => {
    let release!: () => void;
    const s = setup({ deadLetterWrite: () => new Promise<void>((resolve) => (release = resolve)) });
    await s.start();
    hold(s);
    await s.send({ value: bytes(command()) });
    const stopping = s.plane.stop();
    release();
    await stopping;
    const order = s.producer().sent.map((record) => record.topic);
    expect(order.slice(-2)).toEqual([COMMAND_TOPIC, STATE_TOPIC]);
    expect(
      s
        .states()
        .at(-1)!
        .outcomes.map((o) => o.status),
    ).toEqual(['done']);
  });

  it('logs a group it could not delete and still disconnects', async () => {
    const s = setup();
    await s.start();
    s.admin.deleteGroupsError = new Error('GROUP_ID_NOT_FOUND');
    await s.plane.stop();
    expect(s.logs.some((l) => l.msg === 'control plane: could not delete the command reader group')).toBe(true);
    expect(s.producer().connected).toBe(false);
  });
});

describe('controlSurfaceOf', () => {
  it('names what a client without a producer or the admin calls lacks', () => {
    expect(() =>
      controlSurfaceOf(
        { consumer: () => ({}) as never, admin: () => ({}) as never },
        {
          connect: async () => undefined,
          disconnect: async () => undefined,
          fetchOffsets: async () => [],
        },
      ),
    ).toThrow(
      'the control option needs a kafkajs Kafka client and admin; missing kafka.producer(), admin.createTopics(), admin.listTopics(), admin.deleteGroups(), admin.fetchTopicOffsets(), admin.fetchTopicOffsetsByTimestamp()',
    );
  });
});

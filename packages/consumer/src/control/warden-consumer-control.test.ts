import { describe, expect, it } from 'vitest';
import { flushMicrotasks, ManualClock } from '../core/testing/fake-clock.js';
import type { SourceRecord } from '../core/index.js';
import { FakeKafka } from '../kafkajs/testing/fake-kafkajs.js';
import { createConsumer, type WardenConsumerOptions } from '../kafkajs/warden-consumer.js';
import {
  CONTROL_PROTOCOL_VERSION,
  decodeControlMessage,
  encodeControlMessage,
  MAX_STATE_MESSAGE_BYTES,
  ZInstanceState,
  type TOperatorCommand,
} from './protocol.js';
import { FakeControlKafka } from './testing/fake-control-kafka.js';

// The `control` option of createConsumer over a fake kafkajs: off means not one extra client; on, the hooks
// reach the control plane and the stop order ends with the 'stopped' state after the last commit.

const TOPIC = 'in';

function setup(overrides: Partial<WardenConsumerOptions<string>> = {}) {
  const clock = new ManualClock(1_000_000);
  const kafka = new FakeControlKafka();
  const consumer = createConsumer<string>({
    kafka,
    groupId: 'g',
    topics: [TOPIC],
    clock,
    admit: (record: SourceRecord) =>
      record.offset === '1'
        ? { ok: false, reason: 'poison', errorClass: 'invalid' }
        : { ok: true, value: record.offset, orderingKey: null },
    handle: () => Promise.resolve(),
    control: { topicPrefix: 'ctl', instanceId: 'i-1' },
    ...overrides,
  });
  const main = () => kafka.consumerOf('g');
  const states = () =>
    (kafka.producers[0]?.messages('ctl.state') ?? []).map((m) => {
      const decoded = decodeControlMessage(m.value as Buffer, ZInstanceState, MAX_STATE_MESSAGE_BYTES);
      if (!decoded.ok) throw new Error(decoded.reason);
      return decoded.message;
    });
  return { clock, kafka, consumer, main, states };
}

describe('createConsumer with control', () => {
  it('is off without the option: no producer, no extra consumer, no topic, and control is null', async () => {
    const kafka = new FakeKafka();
    const consumer = createConsumer<string>({
      kafka,
      groupId: 'g',
      topics: [TOPIC],
      clock: new ManualClock(0),
      admit: (record) => ({ ok: true, value: record.offset, orderingKey: null }),
      handle: () => Promise.resolve(),
    });
    await consumer.start();
    expect(consumer.control).toBeNull();
    expect(kafka.consumers).toHaveLength(1);
    await consumer.stop(1_000);

    const s = setup({ control: undefined });
    await s.consumer.start();
    expect(s.kafka.producers).toEqual([]);
    expect(s.kafka.consumers).toHaveLength(1);
    expect(s.kafka.adminClient.createdTopics).toEqual([]);
    await s.consumer.stop(1_000);
  });

  it('refuses at construction a client without a producer, and settings it cannot honour', () => {
    const base = {
      groupId: 'g',
      topics: [TOPIC],
      admit: (record: SourceRecord) => ({ ok: true as const, value: record.offset, orderingKey: null }),
      handle: () => Promise.resolve(),
    };
    expect(() => createConsumer({ ...base, kafka: new FakeKafka(), control: { topicPrefix: 'ctl' } })).toThrow(
      /missing kafka.producer\(\)/,
    );
    expect(() =>
      createConsumer({ ...base, kafka: new FakeControlKafka(), control: { topicPrefix: 'ctl', stateIntervalMs: 5 } }),
    ).toThrow(RangeError);
  });

  it('publishes holds and assignment, applies a command, and names itself', async () => {
    const s = setup();
    await s.consumer.start();
    await flushMicrotasks();
    expect(s.consumer.control?.instanceId).toBe('i-1');
    s.main().join({ [TOPIC]: [0] });
    s.main().deliver({ topic: TOPIC, partition: 0, offsets: [0, 1, 2] });
    await s.clock.tick(100);
    const state = s.states().at(-1)!;
    expect(state.assignment).toEqual([{ topic: TOPIC, partition: 0 }]);
    expect(state.holds.map((h) => [h.offset, h.reason, h.value])).toEqual([['1', 'poison', 'value-1']]);
    expect(state.rebalances).toHaveLength(1);

    const command: TOperatorCommand = {
      v: CONTROL_PROTOCOL_VERSION,
      type: 'command',
      id: 'c-1',
      groupId: 'g',
      topic: TOPIC,
      partition: 0,
      action: 'skip',
      quarantineOffset: '1',
      seekOffset: null,
      seekTimestampMs: null,
      reason: 'poison',
      requestedBy: 'alice',
      requestedAtMs: s.clock.now(),
      expiresAtMs: s.clock.now() + 60_000,
    };
    await s.kafka
      .consumerOf('ctl.commands.g.')
      .deliverMessages('ctl.commands', [{ key: Buffer.from('g/in/0'), value: encodeControlMessage(command) }]);
    await flushMicrotasks();
    expect(s.consumer.core.snapshot().partitions[0]?.quarantine).toBeNull();
    expect(s.consumer.control?.stats()).toMatchObject({ commandsApplied: 1, acksPublished: 1 });
    // No dead-letter port: the skip copies nothing.
    await s.clock.tick(100);
    expect(s.states().at(-1)!.outcomes[0]?.outcome).toBe('skipped offset 1 without processing; reading continues at 2');
    await s.consumer.stop(1_000);
  });

  it('stops fetching, drains and commits, then sends the stopped state, then disconnects', async () => {
    const s = setup();
    await s.consumer.start();
    await flushMicrotasks();
    s.main().join({ [TOPIC]: [0] });
    s.main().deliver({ topic: TOPIC, partition: 0, offsets: [2, 3] });
    await flushMicrotasks();
    const order: string[] = [];
    const producer = s.kafka.producers[0]!;
    const send = producer.send.bind(producer);
    producer.send = (record) => {
      order.push(`send ${record.topic}`);
      return send(record);
    };
    const main = s.main();
    const commit = main.commitOffsets.bind(main);
    main.commitOffsets = (offsets) => {
      order.push('commit');
      return commit(offsets);
    };
    const disconnect = main.disconnect.bind(main);
    main.disconnect = () => {
      order.push('disconnect consumer');
      return disconnect();
    };
    await s.consumer.stop(1_000);
    expect(order).toEqual(['commit', 'send ctl.state', 'disconnect consumer']);
    expect(s.states().at(-1)?.status).toBe('stopped');
    expect(s.kafka.consumerOf('ctl.commands.g.').disconnected).toBe(true);
    expect(s.clock.pendingTimers).toBe(0);
  });

  it('stops the control plane again when the start fails', async () => {
    const s = setup();
    s.kafka.connectError = new Error('broker away');
    await expect(s.consumer.start()).rejects.toThrow('broker away');
    expect(s.kafka.producers[0]?.connected).toBe(false);
    expect(s.clock.pendingTimers).toBe(0);
  });
});

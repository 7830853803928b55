import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { committedOffsets, createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import type { CoreEvent, SourceRecord } from '@warden/consumer';
import { createConsumer, type WardenConsumer } from '@warden/consumer';

// Backpressure through the kafkajs adapter on the real broker. Every fetch batch here is larger than the
// pending budget, so every partition is paused at once after each fetch, the case where the adapter holds
// eachBatch until the first resume instead of letting kafkajs sleep. A paused partition resumes only after
// its expedited commit, so finishing shows pause → commit → resume → fetch keeps cycling; the interval
// commit only carries the last records, which stay under the budget.

const kafka = testKafka('backpressure-it');
let admin: Admin;
const running: WardenConsumer<number>[] = [];

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
});

afterAll(async () => {
  await Promise.all(running.map((consumer) => consumer.stop(2_000)));
  await admin.disconnect();
});

async function produce(topic: string, partitions: number, perPartition: number): Promise<void> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  // Ten records per send: the broker hands out whole record batches, so small batches plus a small fetch
  // size make several fetches per partition, each still larger than the pending budget.
  for (let first = 0; first < perPartition; first += 10) {
    const messages = Array.from({ length: partitions * 10 }, (_, index) => ({
      partition: Math.floor(index / 10),
      value: `{"n":${first + (index % 10)}}`,
    }));
    await producer.send({ topic, acks: -1, messages });
  }
  await producer.disconnect();
}

function start(topic: string, groupId: string, options: { poisonPartition?: number } = {}) {
  const handled = new Map<string, number>();
  const events: CoreEvent[] = [];
  const consumer = createConsumer<number>({
    kafka,
    groupId,
    topics: [topic],
    ordering: 'unordered',
    maxPendingPerPartition: 20,
    commitIntervalMs: 500,
    kafkaConsumerConfig: { maxBytesPerPartition: 4_096 },
    admit: (record: SourceRecord) =>
      record.partition === options.poisonPartition && record.offset === '0'
        ? { ok: false, reason: 'poison', errorClass: 'malformed' }
        : { ok: true, value: Number(record.offset), orderingKey: null },
    handle: async (_value, record) => {
      const id = `${record.partition}@${record.offset}`;
      handled.set(id, (handled.get(id) ?? 0) + 1);
    },
    onEvent: (event) => events.push(event),
  });
  running.push(consumer);
  return { consumer, handled, events };
}

describe('backpressure through the kafkajs adapter', () => {
  it('pauses every partition after each fetch and still consumes and commits everything exactly once', async () => {
    const topic = uniqueName('bp');
    const groupId = uniqueName('bp-group');
    await createTopic(admin, topic, 3);
    await produce(topic, 3, 300);
    const { consumer, handled, events } = start(topic, groupId);
    await consumer.start();

    await eventually('every partition committed to its end', async () => {
      const offsets = await committedOffsets(admin, groupId, topic);
      return [0, 1, 2].every((partition) => offsets.get(partition) === '300') ? true : undefined;
    });
    expect(handled.size).toBe(900);
    expect([...handled.values()].every((count) => count === 1)).toBe(true);
    for (const partition of [0, 1, 2]) {
      const pauses = events.filter(
        (event) => event.type === 'backpressure' && event.partition === partition && event.paused,
      );
      expect(pauses.length, `partition ${partition} paused`).toBeGreaterThan(1);
    }
    const resumes = events.filter((event) => event.type === 'backpressure' && !event.paused);
    expect(resumes.length).toBeGreaterThan(2);
  });

  it('cycles a hot partition next to caught-up ones (the fetcher is held for its resume) and still takes their new records', async () => {
    const topic = uniqueName('bp-hot');
    const groupId = uniqueName('bp-hot-group');
    await createTopic(admin, topic, 3);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      for (let first = 0; first < 300; first += 10) {
        await producer.send({
          topic,
          acks: -1,
          messages: Array.from({ length: 10 }, (_, i) => ({ partition: 0, value: `{"n":${first + i}}` })),
        });
      }
      const { consumer, handled, events } = start(topic, groupId);
      await consumer.start();
      await eventually('the hot partition paused at least once', async () =>
        events.some((event) => event.type === 'backpressure' && event.partition === 0 && event.paused)
          ? true
          : undefined,
      );
      // Partitions 1 and 2 are caught up (empty) while 0 cycles; records arriving on them meanwhile must flow.
      for (let n = 0; n < 5; n++) {
        await producer.send({
          topic,
          acks: -1,
          messages: [1, 2].map((partition) => ({ partition, value: `{"late":${n}}` })),
        });
      }
      await eventually('every partition committed to its end', async () => {
        const offsets = await committedOffsets(admin, groupId, topic);
        return offsets.get(0) === '300' && offsets.get(1) === '5' && offsets.get(2) === '5' ? true : undefined;
      });
      expect(handled.size).toBe(310);
      expect([...handled.values()].every((count) => count === 1)).toBe(true);
      const hotPauses = events.filter(
        (event) => event.type === 'backpressure' && event.partition === 0 && event.paused,
      );
      expect(hotPauses.length).toBeGreaterThan(1);
    } finally {
      await producer.disconnect();
    }
  });

  it('keeps the healthy partitions flowing while a quarantine holds one paused, and stops cleanly', async () => {
    const topic = uniqueName('bp-q');
    const groupId = uniqueName('bp-q-group');
    await createTopic(admin, topic, 2);
    await produce(topic, 2, 200);
    const { consumer, handled } = start(topic, groupId, { poisonPartition: 1 });
    await consumer.start();

    await eventually('the healthy partition committed to its end', async () =>
      (await committedOffsets(admin, groupId, topic)).get(0) === '200' ? true : undefined,
    );
    expect(consumer.core.snapshot().partitions.find((partition) => partition.partition === 1)?.quarantine?.offset).toBe(
      '0',
    );
    expect([...handled.keys()].some((id) => id.startsWith('1@'))).toBe(false);
    await consumer.stop(2_000);
    expect((await committedOffsets(admin, groupId, topic)).get(1) ?? '-1').toBe('-1');
  });
});

import { describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
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
import { InjectedTransientError } from '../pipeline/fault-injection';

// The consumer core's rules on the real broker and Postgres, through the default document pipeline.

const kafka = testKafka('warden-consumer-it');
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

describe('the poison-record regression: one bad record never stalls healthy partitions', () => {
  it('holds A/0 at the poison record, finishes A/1 and B, and answers a permanent store failure with a failed result', async () => {
    const prefix = uniqueName('s0');
    const topicA = `${prefix}-a`;
    const topicB = `${prefix}-b`;
    const results = `${prefix}-results`;
    const groupId = `${prefix}-group`;
    await createTopic(admin, topicA, 2);
    await createTopic(admin, topicB, 1);
    await createTopic(admin, results, 1);

    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const { resultKey: _none, ...poisonFields } = JSON.parse(event(`${prefix}-poison`)) as Record<string, unknown>;
    await producer.send({
      topic: topicA,
      acks: -1,
      messages: [
        { partition: 0, value: event(`${prefix}-a0-0`) },
        { partition: 0, value: event(`${prefix}-a0-1`) },
        { partition: 0, value: JSON.stringify(poisonFields) }, // offset 2: no result key
        { partition: 0, value: event(`${prefix}-a0-3`) },
        { partition: 0, value: event(`${prefix}-a0-4`) },
        ...Array.from({ length: 5 }, (_, i) => ({ partition: 1, value: event(`${prefix}-a1-${i}`) })),
        // Valid and keyed, but Postgres jsonb rejects \u0000: a permanent store failure.
        { partition: 1, value: event(`${prefix}-a1-nul`, { payload: { text: 'bad\u0000byte' } }) },
      ],
    });
    await producer.send({
      topic: topicB,
      acks: -1,
      messages: Array.from({ length: 5 }, (_, i) => ({ value: event(`${prefix}-b-${i}`) })),
    });
    await producer.disconnect();

    const pipeline = await startPipelineConsumer({
      kafka,
      db,
      groupId,
      topics: [topicA, topicB],
      resultsTopic: results,
    });
    try {
      await eventually('A/1 and B committed to their ends', async () => {
        const a = await committedOffsets(admin, groupId, topicA);
        const b = await committedOffsets(admin, groupId, topicB);
        return a.get(1) === '6' && b.get(0) === '5' ? true : undefined;
      });
      const quarantine = await eventually('the quarantine row', () =>
        db.partitionQuarantine
          .findFirst({ where: { groupId, topic: topicA, partition: 0 } })
          .then((q) => q ?? undefined),
      );
      expect(quarantine).toMatchObject({ offset: 2n, errorClass: 'missing-result-key', attempts: 0 });
      expect(quarantine.recordPreview).toContain(`${prefix}-poison`);

      // Give A/0 every chance to move on wrongly, then check it did not.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await committedOffsets(admin, groupId, topicA)).get(0)).toBe('2');
      const snapshot = pipeline.consumer.core.snapshot();
      expect(snapshot.partitions.find((p) => p.topic === topicA && p.partition === 0)?.quarantine?.offset).toBe('2');

      const stored = await db.storedDocument.findMany({
        where: { businessId: { startsWith: prefix } },
        select: { businessId: true },
      });
      const storedIds = new Set(stored.map((d) => d.businessId));
      expect(storedIds.has(`${prefix}-a0-0`) && storedIds.has(`${prefix}-a0-1`)).toBe(true);
      expect(storedIds.has(`${prefix}-a0-3`) || storedIds.has(`${prefix}-a0-4`)).toBe(false);
      expect(storedIds.has(`${prefix}-a1-nul`)).toBe(false);
      expect(stored).toHaveLength(2 + 5 + 5);

      const resultMessages = await readTopic(kafka, results, 13);
      const byKey = new Map(
        resultMessages.map((m) => [m.key, JSON.parse(m.value!) as { status: string; error?: { message: string } }]),
      );
      expect(byKey.get(`res-${prefix}-a1-nul`)).toMatchObject({ status: 'failed' });
      expect(byKey.get(`res-${prefix}-a1-nul`)?.error?.message).toMatch(/Unicode/i);
      expect(byKey.get(`res-${prefix}-b-4`)).toMatchObject({ status: 'stored' });
      expect([...byKey.values()].filter((r) => r.status === 'stored')).toHaveLength(12);
    } finally {
      await pipeline.stop();
    }
  });
});

describe('key mode under injected transient errors', () => {
  it('retries in place and keeps every key in order while other keys flow', async () => {
    const prefix = uniqueName('order');
    const topic = `${prefix}-in`;
    const results = `${prefix}-results`;
    await createTopic(admin, topic, 3);
    await createTopic(admin, results, 1);
    const keys = 8;
    const perKey = 40;
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const messages = [];
    for (let sequence = 0; sequence < perKey; sequence++) {
      for (let k = 0; k < keys; k++) {
        messages.push({
          key: `key-${k}`,
          value: event(`${prefix}-${k}-${sequence}`, { sequence, businessId: `${prefix}-${k}-${sequence}` }),
        });
      }
    }
    await producer.send({ topic, acks: -1, messages });
    await producer.disconnect();

    const processed = new Map<string, number[]>();
    let injected = 0;
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pipeline = await startPipelineConsumer({
      kafka,
      db,
      groupId: `${prefix}-group`,
      topics: [topic],
      resultsTopic: results,
      consumer: { ordering: 'key' },
      beforeStore: async ({ event: e }, record) => {
        if (random() < 0.2) {
          injected += 1;
          throw new InjectedTransientError();
        }
        const key = record.key!.toString();
        processed.set(key, [...(processed.get(key) ?? []), e.sequence!]);
      },
    });
    try {
      await eventually(
        'every record processed',
        async () => {
          const total = [...processed.values()].reduce((sum, list) => sum + list.length, 0);
          return total >= keys * perKey ? true : undefined;
        },
        60_000,
      );
      expect(injected).toBeGreaterThan(20);
      for (const [, sequences] of processed) {
        expect(sequences).toEqual(Array.from({ length: perKey }, (_, i) => i));
      }
      expect(pipeline.consumer.core.snapshot().counters.retries).toBeGreaterThanOrEqual(injected);
      await eventually('all committed', async () => {
        const offsets = await committedOffsets(admin, `${prefix}-group`, topic);
        const total = [...offsets.values()].reduce((sum, o) => sum + Number(o), 0);
        return total === keys * perKey ? true : undefined;
      });
    } finally {
      await pipeline.stop();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin, Consumer, Producer } from 'kafkajs';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';

// Proves kafkajs 2.2.4 works against the bundled Kafka 4.x broker for everything Warden relies on:
// produce with acks=all, consume in a group with manual resolve and commit, admin offsets, describeGroups.
describe('kafkajs against the local broker', () => {
  const kafka = testKafka();
  const topic = uniqueName('compat');
  const groupId = uniqueName('compat-group');
  let admin: Admin;
  let producer: Producer;
  let consumer: Consumer;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    await createTopic(admin, topic, 2);
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
  });

  afterAll(async () => {
    await consumer?.disconnect();
    await producer?.disconnect();
    await admin?.disconnect();
  });

  it('produces, consumes in a group, commits, and reads offsets and group state back', async () => {
    const messages = Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 4}`, value: `v${i}`, partition: i % 2 }));
    await producer.send({ topic, acks: -1, messages });

    consumer = kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen: string[] = [];
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset }) => {
        for (const message of batch.messages) {
          seen.push(message.value!.toString());
          resolveOffset(message.offset);
        }
        const last = batch.messages.at(-1);
        if (last) {
          await consumer.commitOffsets([
            {
              topic,
              partition: batch.partition,
              offset: (BigInt(last.offset) + 1n).toString(),
              metadata: 'w1:test',
            } as never,
          ]);
        }
      },
    });

    await eventually('all 20 records consumed', async () => (seen.length >= 20 ? true : undefined));
    expect(new Set(seen)).toEqual(new Set(messages.map((m) => m.value)));

    const [committed] = await eventually('committed offsets', async () => {
      const offsets = await admin.fetchOffsets({ groupId, topics: [topic] });
      const total = offsets[0]?.partitions.reduce((sum, p) => sum + Number(p.offset), 0);
      return total === 20 ? offsets : undefined;
    });
    expect(committed?.partitions.map((p) => p.offset).sort()).toEqual(['10', '10']);
    expect(committed?.partitions.map((p) => p.metadata)).toEqual(['w1:test', 'w1:test']);

    const watermarks = await admin.fetchTopicOffsets(topic);
    expect(watermarks.map((w) => w.high).sort()).toEqual(['10', '10']);

    const { groups } = await admin.describeGroups([groupId]);
    expect(groups[0]?.state).toBe('Stable');
    expect(groups[0]?.members).toHaveLength(1);
    const listed = await admin.listGroups();
    expect(listed.groups.map((g) => g.groupId)).toContain(groupId);
  });
});

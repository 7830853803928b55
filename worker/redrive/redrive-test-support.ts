import type { Kafka, Producer } from 'kafkajs';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import { REDRIVE_HEADERS } from '../../lib/schemas/dead-letters';
import { eventually, uniqueName } from '../../test-support/integration';

// Shared by the redrive integration tests: dead letters as the worker writes them, and what a read_committed
// consumer of a redrive's target sees.

const SENTINEL_HEADER = 'redrive-test-sentinel';

/** `count` dead letters, the i-th of `origin` partition `i % 3` in `dlq` partition `i % dlqPartitions`, in chunks of 1,000. */
export async function writeDeadLetters(
  producer: Producer,
  dlq: string,
  origin: string,
  count: number,
  dlqPartitions = 1,
): Promise<void> {
  for (let start = 0; start < count; start += 1_000) {
    await producer.send({
      topic: dlq,
      acks: -1,
      messages: Array.from({ length: Math.min(1_000, count - start) }, (_, j) => {
        const i = start + j;
        return {
          partition: i % dlqPartitions,
          key: `k${i}`,
          value: `v${i}`,
          headers: {
            [DEAD_LETTER_HEADERS.topic]: origin,
            [DEAD_LETTER_HEADERS.partition]: String(i % 3),
            [DEAD_LETTER_HEADERS.offset]: String(i),
            [DEAD_LETTER_HEADERS.errorClass]: 'permanent',
          },
        };
      }),
    });
  }
}

/**
 * The `warden-redrive-of` header of every redriven record of `topic` a read_committed consumer (a throwaway
 * group, from the beginning) receives, with repeats. Complete: a sentinel record is appended to each partition
 * after the call starts and reading ends when every sentinel arrived, so every transaction committed before
 * the call has been read (a read_committed consumer receives a partition's records in offset order).
 */
export async function readCommitted(kafka: Kafka, producer: Producer, topic: string): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  const partitions = (await admin.fetchTopicOffsets(topic)).length;
  await admin.disconnect();
  await producer.send({
    topic,
    acks: -1,
    messages: Array.from({ length: partitions }, (_, partition) => ({
      partition,
      value: 'sentinel',
      headers: { [SENTINEL_HEADER]: '1' },
    })),
  });
  const consumer = kafka.consumer({ groupId: uniqueName('read-committed'), readUncommitted: false });
  const ofs: string[] = [];
  const sentinels = new Set<number>();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        if (message.headers?.[SENTINEL_HEADER] !== undefined) sentinels.add(partition);
        else ofs.push(String(message.headers?.[REDRIVE_HEADERS.of]));
      },
    });
    await eventually(
      `every sentinel of ${topic}`,
      async () => (sentinels.size === partitions ? true : undefined),
      30_000,
    );
    return ofs;
  } finally {
    await consumer.disconnect();
  }
}

/** The `warden-redrive-of` names of the dead letters writeDeadLetters wrote, sorted. */
export function expectedOfs(dlq: string, count: number, dlqPartitions = 1): string[] {
  return Array.from({ length: count }, (_, i) => `${dlq}/${i % dlqPartitions}/${Math.floor(i / dlqPartitions)}`).sort();
}

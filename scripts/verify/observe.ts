import type { Admin, Kafka } from 'kafkajs';
import type { Database } from '../../lib/db';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';
import { uniqueName } from '../../test-support/unique-name';
import type { Observation, StoredRecord } from './verdict';

/** Reads every message of `topic` up to its current end with a throwaway group. */
export async function readWholeTopic(
  kafka: Kafka,
  admin: Admin,
  topic: string,
  withValues = false,
): Promise<Array<{ partition: number; offset: string; headers: Record<string, string>; value?: string }>> {
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, BigInt(p.high)]));
  const remaining = new Set([...ends].filter(([, high]) => high > 0n).map(([p]) => p));
  const seen: Array<{ partition: number; offset: string; headers: Record<string, string>; value?: string }> = [];
  if (remaining.size === 0) return seen;
  const consumer = kafka.consumer({ groupId: uniqueName('verify-reader'), maxBytes: 50 * 1024 * 1024 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reading ${topic} timed out`)), 120_000);
      void consumer.run({
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            seen.push({
              partition: batch.partition,
              offset: message.offset,
              headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
              ...(withValues ? { value: message.value?.toString() } : {}),
            });
          }
          if (BigInt(batch.highWatermark) - 1n <= BigInt(batch.lastOffset())) remaining.delete(batch.partition);
          if (remaining.size === 0) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

export async function observe(options: {
  kafka: Kafka;
  admin: Admin;
  db: Database;
  runId: string;
  groupId: string;
  inputTopic: string;
  dlqTopic: string;
  /** Read the results topic too (expensive on big runs: done once, for the final verdict). */
  resultsTopic?: string;
}): Promise<Observation> {
  const { kafka, admin, db } = options;
  // Committed offsets first: what was stored can only grow after, so a commit is never judged against
  // an older view of the store than the one it was made with.
  const [offsets] = await admin.fetchOffsets({ groupId: options.groupId, topics: [options.inputTopic] });
  const committed = new Map(
    (offsets?.partitions ?? []).filter((p) => p.offset !== '-1').map((p) => [p.partition, BigInt(p.offset)] as const),
  );
  const rows = await db.storedDocument.findMany({
    where: { businessId: { startsWith: `${options.runId}-` } },
    select: { businessId: true, firstStoreSeq: true, writeCount: true },
  });
  const stored = new Map<string, StoredRecord>(
    rows.map((r) => [r.businessId, { id: r.businessId, firstStoreSeq: r.firstStoreSeq, writeCount: r.writeCount }]),
  );
  const dead = await readWholeTopic(kafka, admin, options.dlqTopic);
  const deadLettered = new Set(
    dead
      .filter((m) => m.headers[DEAD_LETTER_HEADERS.topic] === options.inputTopic)
      .map((m) => `${m.headers[DEAD_LETTER_HEADERS.partition]}/${m.headers[DEAD_LETTER_HEADERS.offset]}`),
  );
  const quarantines = await db.partitionQuarantine.findMany({
    where: { groupId: options.groupId, topic: options.inputTopic },
  });
  const quarantined = new Map(quarantines.map((q) => [q.partition, q.offset] as const));
  const storedResults = options.resultsTopic ? await readStoredResults(kafka, admin, options.resultsTopic) : null;
  return { stored, deadLettered, quarantined, committed, storedResults };
}

async function readStoredResults(kafka: Kafka, admin: Admin, topic: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const message of await readWholeTopic(kafka, admin, topic, true)) {
    const result = JSON.parse(message.value ?? '{}') as { eventId?: string; status?: string };
    if (result.status === 'stored' && result.eventId) ids.add(result.eventId);
  }
  return ids;
}

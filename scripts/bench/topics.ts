import type { Admin, Producer } from 'kafkajs';
import { eventually } from '../../test-support/eventually';
import { layoutRecords, partitionCounts, topicName, type TopicLayout } from './records';

// Pre-produced topics. A topic is reused across runs only when it holds exactly what its layout
// produces (every partition starting at 0 and ending at the layout's count); anything else (a run
// interrupted while producing, a compacted or truncated log) is deleted and produced again.

export interface PreparedTopic {
  layout: TopicLayout;
  topic: string;
  /** End offset (= record count) per partition, the commit position that means "all consumed". */
  endOffsets: number[];
  reused: boolean;
  produceMs: number;
}

/** Records per send; at ~230 bytes each one partition's batch stays under the broker's 1 MB message limit. */
const PRODUCE_CHUNK = 3_000;

/** How long a restarted broker may take to load its partitions (the bench's broker home keeps hundreds). */
const LEADERS_LOADING_MS = 120_000;

/**
 * Runs `operation`, retrying retriable errors for up to LEADERS_LOADING_MS. Right after a restart the bench's
 * broker is still loading hundreds of stored partitions: its metadata already names leaders, but reads and
 * topic creation fail meanwhile (NOT_LEADER_OR_FOLLOWER, UNKNOWN_TOPIC_OR_PARTITION) for longer than
 * kafkajs's own retries last. Other errors are thrown at once.
 */
export function whileBrokerLoads<R>(what: string, operation: () => Promise<R>): Promise<R> {
  return eventually(what, operation, LEADERS_LOADING_MS, {
    rethrow: (error) => (error as { retriable?: boolean }).retriable !== true,
  });
}

/** "low-high" per partition, or null when the topic does not exist. */
async function offsetRanges(admin: Admin, topic: string): Promise<string[] | null> {
  if (!(await admin.listTopics()).includes(topic)) return null;
  const offsets = await whileBrokerLoads(`the offsets of ${topic}`, () => admin.fetchTopicOffsets(topic));
  return offsets.sort((a, b) => a.partition - b.partition).map((o) => `${o.low}-${o.high}`);
}

function holdsExactly(ranges: string[] | null, counts: number[]): boolean {
  return ranges !== null && ranges.length === counts.length && ranges.every((range, p) => range === `0-${counts[p]}`);
}

async function deleteIfPresent(admin: Admin, topic: string): Promise<void> {
  if (!(await admin.listTopics()).includes(topic)) return;
  await admin.deleteTopics({ topics: [topic], timeout: 30_000 });
  // Deletion is asynchronous on the broker; creating the same name too early fails.
  for (let attempt = 0; attempt < 100 && (await admin.listTopics()).includes(topic); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Makes sure the layout's topic exists with exactly its records, producing them if needed. `producer` must
 * be idempotent, or a retried send could write a chunk twice.
 */
export async function prepareTopic(
  admin: Admin,
  producer: Producer,
  layout: TopicLayout,
  log: (line: string) => void,
): Promise<PreparedTopic> {
  const topic = topicName(layout);
  const counts = partitionCounts(layout);
  if (holdsExactly(await offsetRanges(admin, topic), counts))
    return { layout, topic, endOffsets: counts, reused: true, produceMs: 0 };

  await deleteIfPresent(admin, topic);
  // Replication factor -1: the cluster's default (1 on the bundled broker).
  await whileBrokerLoads(`creating ${topic}`, () =>
    admin.createTopics({
      topics: [{ topic, numPartitions: layout.partitions, replicationFactor: -1 }],
      waitForLeaders: true,
    }),
  );
  const total = counts.reduce((sum, n) => sum + n, 0);
  log(`producing ${total.toLocaleString('en-US')} records into ${topic}`);
  const started = performance.now();
  for (const chunk of layoutRecords(layout, PRODUCE_CHUNK)) {
    await producer.send({
      topic,
      acks: -1,
      messages: chunk.map((record) => ({ partition: record.partition, key: record.key, value: record.value })),
    });
  }
  const produceMs = performance.now() - started;
  const ranges = await offsetRanges(admin, topic);
  if (!holdsExactly(ranges, counts)) {
    throw new Error(
      `${topic} should hold offsets ${counts.map((n) => `0-${n}`).join(', ')} after producing, but holds ${ranges?.join(', ') ?? 'nothing'}`,
    );
  }
  return { layout, topic, endOffsets: counts, reused: false, produceMs };
}

import type { Admin } from 'kafkajs';
import { loadTestConfig } from './test-config';
import { createKafka, kafkaSecurityFrom } from '../lib/kafka/client';
import { eventually } from './eventually';
import { uniqueName } from './unique-name';

export { eventually, uniqueName };

// Shared by integration and e2e tests (kept free of the Prisma client, which Playwright's loader cannot
// load; integration tests get the database from test-support/database.ts). `npm test` points KAFKA_BROKERS and DATABASE_URL at the broker
// it started and at the fresh test database; each test names its own topics and groups.

export function testKafka(clientId = 'warden-test') {
  // Silent: tests assert on outcomes, and kafkajs's retry chatter during fault injection buries them.
  const config = loadTestConfig();
  return createKafka({ brokers: config.kafkaBrokers, clientId, logLevel: 'nothing', ...kafkaSecurityFrom(config) });
}

/**
 * Creates a topic and waits until every partition has a leader. (kafkajs's waitForLeaders gives up with
 * UNKNOWN_TOPIC_OR_PARTITION when the broker's metadata lags behind the creation, as on a busy machine.)
 */
export async function createTopic(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor: 1 }], waitForLeaders: false });
  await eventually(`leaders for ${topic}`, async () => {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = topics[0]?.partitions ?? [];
    return partitions.length === numPartitions && partitions.every((p) => p.leader >= 0) ? true : undefined;
  });
}

/** Every message of `topic` from the beginning, read by a throwaway group until `count` arrived. */
export async function readTopic(
  kafka: ReturnType<typeof testKafka>,
  topic: string,
  count: number,
  timeoutMs = 30_000,
): Promise<
  Array<{
    partition: number;
    offset: string;
    key: string | null;
    value: string | null;
    headers: Record<string, string>;
  }>
> {
  const consumer = kafka.consumer({ groupId: uniqueName('reader') });
  const seen: Array<{
    partition: number;
    offset: string;
    key: string | null;
    value: string | null;
    headers: Record<string, string>;
  }> = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        seen.push({
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? null,
          headers: Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)])),
        });
      },
    });
    await eventually(`${count} messages on ${topic}`, async () => (seen.length >= count ? true : undefined), timeoutMs);
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

/** The group's committed offset per partition of `topic` ("-1" when none). */
export async function committedOffsets(admin: Admin, groupId: string, topic: string): Promise<Map<number, string>> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return new Map((offsets?.partitions ?? []).map((p) => [p.partition, p.offset]));
}

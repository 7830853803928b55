import { createKafka } from '../../lib/kafka/client';
import { DEAD_LETTER_HEADERS } from '../../lib/dead-letters/dead-letter-record';

// Dead letters for measuring the Dead letters page (npm run lighthouse): records as the worker's dead-letter
// writer leaves them (Warden's headers beside the original ones), from three source partitions, with the
// error classes a pipeline meets, on a topic of the measurement's own broker. The topic is written once: a
// later seed finds it and leaves it as it is, so every run measures the same page.

export const LIGHTHOUSE_DLQ_TOPIC = 'warden.lighthouse.dlq';
const RECORDS = 60;
const PARTITIONS = 3;
const ERRORS = [
  { errorClass: 'malformed-json', message: "record value is not JSON: Expected property name or '}' in JSON" },
  { errorClass: 'missing-result-key', message: 'a document.upsert event must carry resultKey' },
  { errorClass: 'permanent', message: 'document rejected by the store: schema version 1 is no longer accepted' },
] as const;

export async function seedDeadLetters(brokers: string[], log: (line: string) => void): Promise<void> {
  const kafka = createKafka({ brokers, clientId: 'warden-lighthouse-seed' });
  const admin = kafka.admin();
  await admin.connect();
  try {
    if ((await admin.listTopics()).includes(LIGHTHOUSE_DLQ_TOPIC)) {
      log(`dead letters: ${LIGHTHOUSE_DLQ_TOPIC} already seeded`);
      return;
    }
    await admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic: LIGHTHOUSE_DLQ_TOPIC, numPartitions: PARTITIONS, replicationFactor: 1 }],
    });
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const startMs = Date.now() - RECORDS * 60_000;
    await producer.send({
      topic: LIGHTHOUSE_DLQ_TOPIC,
      acks: -1,
      messages: Array.from({ length: RECORDS }, (_, i) => {
        const error = ERRORS[i % ERRORS.length]!;
        const partition = i % PARTITIONS;
        return {
          partition,
          key: `order-${1000 + i}`,
          value:
            error.errorClass === 'malformed-json'
              ? `{ "eventId": "e-${i}", "type": "document.upsert", "body": `
              : JSON.stringify({ eventId: `e-${i}`, type: 'document.upsert', body: { orderId: 1000 + i, lines: 3 } }),
          timestamp: String(startMs + i * 60_000),
          headers: {
            'origin-note': 'lighthouse seed',
            [DEAD_LETTER_HEADERS.topic]: 'orders',
            [DEAD_LETTER_HEADERS.partition]: String(partition),
            [DEAD_LETTER_HEADERS.offset]: String(5_000 + i),
            [DEAD_LETTER_HEADERS.errorClass]: error.errorClass,
            [DEAD_LETTER_HEADERS.message]: error.message,
            [DEAD_LETTER_HEADERS.attempts]: error.errorClass === 'permanent' ? '1' : '0',
          },
        };
      }),
    });
  } finally {
    await producer.disconnect();
  }
  log(`dead letters: ${RECORDS} on ${LIGHTHOUSE_DLQ_TOPIC}`);
}

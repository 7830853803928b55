import type { Admin, Kafka, Producer } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../lib/db';
import { connectRecordSource, type RecordSource } from '../lib/kafka/partition-records';
import { testDatabase } from './database';

/**
 * Registers the usual integration-test hooks: before the file, an admin client connected to the test broker
 * and the test database, handed to `receive`; after it, both closed (an admin already gone is ignored).
 */
export function connectKafkaAndDatabase(
  kafka: Kafka,
  receive: (handles: { admin: Admin; db: Database }) => void,
): void {
  let admin: Admin | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    receive({ admin, db });
  });
  afterAll(async () => {
    await admin?.disconnect().catch(() => undefined);
    await db?.$disconnect();
  });
}

export interface KafkaDatabaseAndRecords {
  admin: Admin;
  db: Database;
  /** Reads records by offset, as the API's routes do (lib/kafka/partition-records.ts). */
  source: RecordSource;
  /** Idempotent with one request in flight: a send the client retries is neither duplicated nor reordered. */
  producer: Producer;
}

/**
 * connectKafkaAndDatabase plus a record source and an idempotent producer on the same client, all handed to
 * `receive` once connected and closed after the file (a producer already gone is ignored).
 */
export function connectKafkaDatabaseAndRecords(
  kafka: Kafka,
  receive: (handles: KafkaDatabaseAndRecords) => void,
): void {
  let base: { admin: Admin; db: Database } | undefined;
  let source: RecordSource | undefined;
  let producer: Producer | undefined;
  connectKafkaAndDatabase(kafka, (handles) => (base = handles));
  beforeAll(async () => {
    if (!base) throw new Error('the admin client and the database were not connected');
    source = await connectRecordSource(kafka);
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    receive({ ...base, source, producer });
  });
  afterAll(async () => {
    await producer?.disconnect().catch(() => undefined);
    await source?.close();
  });
}

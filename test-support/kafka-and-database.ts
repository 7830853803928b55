import type { Admin, Kafka } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../lib/db';
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

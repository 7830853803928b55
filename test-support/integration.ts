import { randomUUID } from 'node:crypto';
import type { Admin } from 'kafkajs';
import { loadConfig } from '../lib/config';
import { createKafka } from '../worker/kafka/client';

// Shared by integration and e2e tests (kept free of the Prisma client, which Playwright's loader cannot
// load; integration tests get the database from test-support/database.ts). `npm test` points KAFKA_BROKERS and DATABASE_URL at the broker
// it started and at the fresh test database; each test names its own topics and groups.

export function testKafka(clientId = 'warden-test') {
  return createKafka({ brokers: loadConfig().kafkaBrokers, clientId });
}

/** A name no other test uses, so tests never see each other's topics or groups. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

export async function createTopic(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor: 1 }], waitForLeaders: true });
}

/** Polls `probe` until it returns a value other than undefined, or fails with `what` after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

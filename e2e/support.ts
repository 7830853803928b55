import type { Admin } from 'kafkajs';
import { createTopic, eventually } from '../test-support/integration';

/**
 * createTopic, retried: right after a fresh broker starts, its metadata can briefly answer "This server does
 * not host this topic-partition" while waiting for the new topic's leaders. A retry of an existing topic is a
 * no-op, so this only ever waits, it never creates twice.
 */
export async function createTopicWhenReady(admin: Admin, topic: string, partitions: number): Promise<void> {
  await eventually(`topic ${topic} with its leaders`, () => createTopic(admin, topic, partitions).then(() => true), 60_000);
}

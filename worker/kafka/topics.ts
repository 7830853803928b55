import type { Admin } from 'kafkajs';

/**
 * Creates the topics that do not exist yet, with their topic configs when given; existing topics are left
 * exactly as they are (their configs included).
 */
export async function ensureTopics(
  admin: Admin,
  topics: Array<{ topic: string; numPartitions: number; configEntries?: Array<{ name: string; value: string }> }>,
): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((t) => !existing.has(t.topic));
  if (missing.length === 0) return;
  try {
    await admin.createTopics({
      topics: missing.map((t) => ({ ...t, replicationFactor: -1 })),
      waitForLeaders: true,
    });
  } catch (error) {
    // Another process may have created them in between; anything else is a real failure.
    const names = new Set(await admin.listTopics());
    if (!missing.every((t) => names.has(t.topic))) throw error;
  }
}

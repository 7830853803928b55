import type { Admin } from 'kafkajs';
import { eventually } from '../../../test-support/integration';

/**
 * Tests only: creates a topic and waits until every partition has a leader. (kafkajs's waitForLeaders gives up
 * with UNKNOWN_TOPIC_OR_PARTITION when the broker's metadata lags behind the creation, as on a busy machine.)
 */
export async function createTopicWithLeaders(admin: Admin, topic: string, numPartitions: number): Promise<void> {
  await admin.createTopics({ topics: [{ topic, numPartitions, replicationFactor: 1 }], waitForLeaders: false });
  await eventually(`leaders for ${topic}`, async () => {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const partitions = topics[0]?.partitions ?? [];
    return partitions.length === numPartitions && partitions.every((p) => p.leader >= 0) ? true : undefined;
  });
}

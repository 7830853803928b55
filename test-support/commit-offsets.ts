import type { Kafka } from 'kafkajs';
import { createInternalCluster, type InternalCluster } from '../lib/kafka/internal-cluster';
import { createTopic, eventually } from './integration';

/** The kafkajs internal cluster with the group coordinator's OffsetCommit (pinned by cluster-reader.it.ts). */
export type CoordinatorCluster = InternalCluster & {
  findGroupCoordinator(args: { groupId: string }): Promise<{
    offsetCommit(request: {
      groupId: string;
      groupGenerationId: number;
      memberId: string;
      retentionTime?: number;
      topics: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>;
    }): Promise<unknown>;
  }>;
};

const COORDINATOR_NOT_READY = [
  'NOT_COORDINATOR_FOR_GROUP',
  'GROUP_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
];

/**
 * Tests only: commits offsets for a group with no running members in one OffsetCommit request, as an admin
 * tool does. (kafkajs's admin.setOffsets joins the group with a throwaway consumer: about 5 s per call.)
 * Retries while the group coordinator is not ready (a freshly started broker), for up to 30 s.
 */
export async function commitOffsets(
  kafka: Kafka,
  groupId: string,
  topic: string,
  partitions: Array<{ partition: number; offset: string }>,
): Promise<void> {
  const cluster = createInternalCluster(kafka) as CoordinatorCluster;
  await cluster.connect();
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      try {
        const coordinator = await cluster.findGroupCoordinator({ groupId });
        await coordinator.offsetCommit({
          groupId,
          groupGenerationId: -1,
          memberId: '',
          retentionTime: -1,
          topics: [{ topic, partitions }],
        });
        return;
      } catch (error) {
        const type = (error as { type?: string }).type ?? '';
        if (!COORDINATOR_NOT_READY.includes(type) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    await cluster.disconnect();
  }
}

/**
 * Tests only: a one-partition `topic` with `produced` records and `groupId` committed at `committed` (a lag
 * of produced - committed), on the cluster of `kafka`. Creating the topic is retried while a freshly started
 * broker's metadata still says it does not host it (a retry of an existing topic is a no-op).
 */
export async function groupWithLag(
  kafka: Kafka,
  topic: string,
  groupId: string,
  lag: { produced: number; committed: number },
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await eventually(`topic ${topic}`, () => createTopic(admin, topic, 1).then(() => true), 60_000);
  } finally {
    await admin.disconnect();
  }
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: lag.produced }, (_, i) => ({ value: `r${i}` })),
    });
  } finally {
    await producer.disconnect();
  }
  await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: String(lag.committed) }]);
}

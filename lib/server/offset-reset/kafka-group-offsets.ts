import type { Kafka } from 'kafkajs';
import { createInternalCluster, type InternalCluster } from '../../kafka/internal-cluster';
import type { PartitionLog } from './plan-offset-reset';

// What an offset reset needs from the cluster, on kafkajs. One short-lived admin connection per reset (resets
// are rare, and a kafkajs admin keeps refreshing metadata for every topic it was ever asked about).
//
// The write is an admin offset commit: OffsetCommit with generation -1 and no member id, sent to the group's
// coordinator. The broker accepts it only while the group has no members, so a consumer that joins between
// our describeGroups check and the write makes the broker refuse it (GroupNotEmptyError), instead of the reset
// racing a live member. kafkajs's own admin.setOffsets cannot promise that: it joins the group as a member to
// commit. kafkajs's public API has no such commit, hence the internal Cluster (lib/kafka/internal-cluster.ts;
// proven on the real broker by lib/server/reset-group-offsets.it.ts).

export interface GroupOffsetsPort {
  describeGroup(groupId: string): Promise<{ state: string; members: number }>;
  /** Every partition's log start and end; null when the topic does not exist. */
  topicLogs(topic: string): Promise<PartitionLog[] | null>;
  /** Per partition, the first offset at or after the time (the log end where there is none). */
  offsetsAtTime(topic: string, timestampMs: number): Promise<Map<number, string>>;
  /** Per partition, the group's committed offset (null when none). */
  committedOffsets(groupId: string, topic: string): Promise<Map<number, string | null>>;
  /** Admin commit; throws GroupNotEmptyError when the broker refuses it because the group has members. */
  commitOffsets(groupId: string, topic: string, offsets: Array<{ partition: number; offset: string }>): Promise<void>;
  close(): Promise<void>;
}

/** The broker refused an admin commit because the group is not empty (a member joined). */
export class GroupNotEmptyError extends Error {
  constructor(readonly brokerError: string) {
    super(`the broker refused the reset because the group has members now (${brokerError})`);
    this.name = 'GroupNotEmptyError';
  }
}

/** Broker errors that mean "this group has members; only they may commit". */
const GROUP_BUSY_ERRORS = new Set([
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'FENCED_INSTANCE_ID',
  'STALE_MEMBER_EPOCH',
]);

const COORDINATOR_NOT_READY = new Set([
  'NOT_COORDINATOR_FOR_GROUP',
  'NOT_COORDINATOR',
  'GROUP_LOAD_IN_PROGRESS',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'GROUP_COORDINATOR_NOT_AVAILABLE',
  'COORDINATOR_NOT_AVAILABLE',
]);
const COORDINATOR_WAIT_MS = 10_000;

interface CoordinatorBroker {
  offsetCommit(request: {
    groupId: string;
    groupGenerationId: number;
    memberId: string;
    topics: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>;
  }): Promise<unknown>;
}

type CoordinatorCluster = InternalCluster & {
  findGroupCoordinator(args: { groupId: string }): Promise<CoordinatorBroker>;
};

export async function connectGroupOffsets(kafka: Kafka): Promise<GroupOffsetsPort> {
  const admin = kafka.admin();
  await admin.connect();
  let cluster: CoordinatorCluster | null = null;

  const coordinatorCluster = async (): Promise<CoordinatorCluster> => {
    if (cluster) return cluster;
    const created = createInternalCluster(kafka) as CoordinatorCluster;
    if (typeof created.findGroupCoordinator !== 'function')
      throw new Error('kafkajs internals changed: Cluster has no findGroupCoordinator()');
    await created.connect();
    cluster = created;
    return created;
  };

  return {
    async describeGroup(groupId) {
      const { groups } = await admin.describeGroups([groupId]);
      const group = groups.find((g) => g.groupId === groupId);
      return { state: group?.state ?? 'Dead', members: group?.members.length ?? 0 };
    },
    async topicLogs(topic) {
      const topics = await admin.listTopics();
      if (!topics.includes(topic)) return null;
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets.map((o) => ({ partition: o.partition, low: o.low, high: o.high }));
    },
    async offsetsAtTime(topic, timestampMs) {
      const offsets = await admin.fetchTopicOffsetsByTimestamp(topic, timestampMs);
      return new Map(offsets.map((o) => [o.partition, o.offset]));
    },
    async committedOffsets(groupId, topic) {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return new Map((offsets?.partitions ?? []).map((p) => [p.partition, p.offset === '-1' ? null : p.offset]));
    },
    async commitOffsets(groupId, topic, offsets) {
      const deadline = Date.now() + COORDINATOR_WAIT_MS;
      for (;;) {
        try {
          const coordinator = await (await coordinatorCluster()).findGroupCoordinator({ groupId });
          await coordinator.offsetCommit({
            groupId,
            groupGenerationId: -1,
            memberId: '',
            topics: [{ topic, partitions: offsets }],
          });
          return;
        } catch (error) {
          const type = (error as { type?: string }).type ?? '';
          if (GROUP_BUSY_ERRORS.has(type)) throw new GroupNotEmptyError(type);
          // The coordinator moved or is loading the group: nothing was written; ask again, briefly.
          if (!COORDINATOR_NOT_READY.has(type) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    async close() {
      await Promise.allSettled([admin.disconnect(), cluster?.disconnect()]);
    },
  };
}

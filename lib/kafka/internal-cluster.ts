import type { Kafka } from 'kafkajs';

// Access to kafkajs 2.2.4's internal Cluster, which its public API does not expose. The sampler needs two
// things the public Admin cannot do cheaply or safely:
// - watermarks of many topics in one ListOffsets request per broker (Admin.fetchTopicOffsets sends two
//   requests per topic, and adds every topic it is asked about to a set it refreshes metadata for forever:
//   once such a topic is deleted, every later metadata refresh of that admin fails);
// - a plain Fetch of a few bytes at a given offset, without joining a consumer group (kafkajs consumers can
//   only read inside a group), to read the timestamp of the record at a committed offset.
// The Cluster is built by the Kafka instance's own private factory, so it shares its brokers, TLS, SASL,
// retry and logging settings. kafkajs is pinned (2.2.4, in maintenance); cluster-reader.it.ts proves these
// calls on every test run, and createInternalCluster fails loudly if the internals ever change.

export interface InternalPartitionMetadata {
  partitionId: number;
  leader: number | null;
}

export interface InternalFetchedRecord {
  offset: string;
  timestamp: string;
  isControlRecord?: boolean;
}

export interface InternalFetchResponse {
  responses: Array<{
    topicName: string;
    partitions: Array<{
      partition: number;
      errorCode: number;
      highWatermark: string;
      messages: InternalFetchedRecord[];
    }>;
  }>;
}

export interface InternalBroker {
  fetch(request: {
    replicaId?: number;
    isolationLevel: number;
    maxWaitTime: number;
    minBytes: number;
    maxBytes: number;
    topics: Array<{ topic: string; partitions: Array<{ partition: number; fetchOffset: string; maxBytes: number }> }>;
  }): Promise<InternalFetchResponse>;
}

export interface InternalCluster {
  /** Topics whose metadata refreshMetadata() loads; replaced every round so deleted topics drop out. */
  targetTopics: Set<string>;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  refreshMetadata(): Promise<void>;
  findTopicPartitionMetadata(topic: string): InternalPartitionMetadata[];
  findLeaderForPartitions(topic: string, partitions: number[]): Record<string, number[]>;
  findBroker(args: { nodeId: string }): Promise<InternalBroker>;
  fetchTopicsOffset(
    topics: Array<{ topic: string; partitions: Array<{ partition: number }>; fromBeginning: boolean }>,
  ): Promise<Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>>;
}

type ClusterFactory = (options: {
  metadataMaxAge?: number;
  allowAutoTopicCreation?: boolean;
  isolationLevel?: number;
}) => InternalCluster;

/** A new, unconnected kafkajs Cluster configured like `kafka`'s own clients; never creates topics. */
export function createInternalCluster(kafka: Kafka): InternalCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const factory = symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol];
  if (typeof factory !== 'function') {
    throw new Error(
      'kafkajs internals changed: Kafka has no private createCluster factory (the sampler needs kafkajs 2.2.x)',
    );
  }
  const cluster = (factory as ClusterFactory)({ allowAutoTopicCreation: false });
  for (const method of [
    'connect',
    'disconnect',
    'refreshMetadata',
    'findTopicPartitionMetadata',
    'findLeaderForPartitions',
    'findBroker',
    'fetchTopicsOffset',
  ] as const) {
    if (typeof cluster[method] !== 'function') throw new Error(`kafkajs internals changed: Cluster has no ${method}()`);
  }
  if (!(cluster.targetTopics instanceof Set))
    throw new Error('kafkajs internals changed: Cluster has no targetTopics set');
  return cluster;
}

import { loadDashboardConfig } from '../dashboard-config';
import { createClusterKafka } from '../../kafka/client';
import { DEFAULT_CLUSTER } from '../../schemas/values';
import { ApiError } from '../api-error';
import type { Kafka } from 'kafkajs';
import { connectGroupOffsets, type GroupOffsetsPort } from './kafka-group-offsets';

/**
 * Runs `work` with a fresh connection to the named configured cluster and closes it afterwards. A cluster
 * that cannot be reached is a 503 naming the brokers; errors of `work` pass through.
 */
export function withGroupOffsets<T>(cluster: string, work: (kafka: GroupOffsetsPort) => Promise<T>): Promise<T> {
  return withServerKafka(connectGroupOffsets, work, cluster);
}

/**
 * Runs `work` with a port `connect` opens on a fresh client of a configured cluster (the default one unless
 * named; 503 when it cannot be reached), then closes it. The route checked the name (requestedCluster): one
 * that is not configured here is a bug, not a request to answer.
 */
export async function withServerKafka<P extends { close(): Promise<void> }, T>(
  connect: (kafka: Kafka) => Promise<P>,
  work: (port: P) => Promise<T>,
  clusterName = DEFAULT_CLUSTER,
): Promise<T> {
  const config = loadDashboardConfig();
  const cluster = config.clusters.find((c) => c.name === clusterName);
  if (!cluster) throw new Error(`cluster "${clusterName}" is not configured`);
  const kafka = createClusterKafka(cluster, `${config.KAFKA_CLIENT_ID}-dashboard`);
  let port: P;
  try {
    port = await connect(kafka);
  } catch (error) {
    throw new ApiError(
      503,
      `the Kafka cluster${clusterName === DEFAULT_CLUSTER ? '' : ` "${clusterName}"`} (${cluster.brokers.join(',')}) cannot be reached: ${(error as Error).message}`,
    );
  }
  try {
    return await work(port);
  } finally {
    await port.close();
  }
}

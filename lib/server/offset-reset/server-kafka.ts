import { loadDashboardConfig } from '../../config';
import { createKafka, kafkaSecurityFrom } from '../../kafka/client';
import { ApiError } from '../api-error';
import type { Kafka } from 'kafkajs';
import { connectGroupOffsets, type GroupOffsetsPort } from './kafka-group-offsets';

/**
 * Runs `work` with a fresh connection to the configured cluster and closes it afterwards. A cluster that
 * cannot be reached is a 503 naming the brokers; errors of `work` pass through.
 */
export function withGroupOffsets<T>(work: (kafka: GroupOffsetsPort) => Promise<T>): Promise<T> {
  return withServerKafka(connectGroupOffsets, work);
}

/** Runs `work` with a port `connect` opens on a fresh client of the configured cluster (503 when it cannot), then closes it. */
export async function withServerKafka<P extends { close(): Promise<void> }, T>(
  connect: (kafka: Kafka) => Promise<P>,
  work: (port: P) => Promise<T>,
): Promise<T> {
  const config = loadDashboardConfig();
  // The cluster's TLS and SASL settings apply here as to every other client (KAFKA_SSL*, KAFKA_SASL_*).
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: `${config.KAFKA_CLIENT_ID}-dashboard`,
    ...kafkaSecurityFrom(config),
  });
  let port: P;
  try {
    port = await connect(kafka);
  } catch (error) {
    throw new ApiError(
      503,
      `the Kafka cluster (${config.kafkaBrokers.join(',')}) cannot be reached: ${(error as Error).message}`,
    );
  }
  try {
    return await work(port);
  } finally {
    await port.close();
  }
}

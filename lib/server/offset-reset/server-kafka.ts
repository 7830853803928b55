import { loadDashboardConfig } from '../../config';
import { createKafka, kafkaSecurityFrom } from '../../kafka/client';
import { ApiError } from '../api-error';
import { connectGroupOffsets, type GroupOffsetsPort } from './kafka-group-offsets';

/**
 * Runs `work` with a fresh connection to the configured cluster and closes it afterwards. A cluster that
 * cannot be reached is a 503 naming the brokers; errors of `work` pass through.
 */
export async function withGroupOffsets<T>(work: (kafka: GroupOffsetsPort) => Promise<T>): Promise<T> {
  const config = loadDashboardConfig();
  // The cluster's TLS and SASL settings apply here as to every other client (KAFKA_SSL*, KAFKA_SASL_*).
  const kafka = createKafka({
    brokers: config.kafkaBrokers,
    clientId: `${config.KAFKA_CLIENT_ID}-dashboard`,
    ...kafkaSecurityFrom(config),
  });
  let port: GroupOffsetsPort;
  try {
    port = await connectGroupOffsets(kafka);
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

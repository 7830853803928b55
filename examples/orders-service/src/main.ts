import type { Server } from 'node:http';
import { Kafka, logLevel } from 'kafkajs';
import { Pool } from 'pg';
import { createConsumer } from '@warden/consumer';
import { ConfigError, readConfig, type ServiceConfig } from './config';
import { errorFields, jsonLogger } from './logger';
import { admitOrder, type Order } from './orders';
import { classifyOrderError, OrderStore } from './order-store';
import { startReadinessServer } from './readiness-server';
import { publishAccepted } from './results';

// The orders service: reads JSON orders, stores each in Postgres and answers it on the results topic. A
// record completes (and may be committed) only once both are done. A malformed order stops its partition at
// that record (the other partitions flow on) until an operator resumes, skips or seeks in Warden's dashboard.
// SIGTERM or SIGINT drains running work for up to 15 s, commits, and exits 0.

const SHUTDOWN_DRAIN_MS = 15_000;

/** The settings, or exit 2 naming every invalid variable. */
function configOrExit(): ServiceConfig {
  try {
    return readConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = jsonLogger(config.groupId);
  const kafka = new Kafka({ clientId: config.groupId, brokers: config.kafkaBrokers, logLevel: logLevel.WARN });
  const pool = new Pool({ connectionString: config.databaseUrl, max: 10 });
  pool.on('error', (error) => logger.warn(errorFields(error), 'idle Postgres connection lost'));
  const store = new OrderStore(pool);
  await store.ensureTable();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();

  const consumer = createConsumer<Order>({
    kafka,
    groupId: config.groupId,
    topics: [config.ordersTopic],
    logger,
    admit: admitOrder,
    handle: async (order, record) => {
      await store.upsert(order, record);
      await publishAccepted(producer, config.resultsTopic, order);
    },
    classifyError: classifyOrderError,
    ordering: 'key',
    quarantinePolicy: 'pause',
    onQuarantine: (hold) =>
      logger.warn(
        { topic: hold.topic, partition: hold.partition, offset: hold.offset, reason: hold.reason },
        'partition quarantined: an operator decides in Warden (Resume, Skip or Seek)',
      ),
    onFatal: (reason) => {
      logger.error({ reason }, 'consumer stopped for good; exiting so the service is restarted');
      void shutdown(1);
    },
    control: {
      topicPrefix: config.controlTopicPrefix,
      ...(config.controlSigningKey === null ? {} : { commandKey: config.controlSigningKey }),
    },
  });

  let stopping = false;
  const server: Server = await startReadinessServer(config.port, () =>
    stopping ? { ready: false, detail: 'shutting down' } : consumer.readiness(),
  );

  /** Drains and commits, closes every connection, then exits; a second signal exits at once. */
  async function shutdown(exitCode: number): Promise<void> {
    if (stopping) return;
    stopping = true;
    try {
      await consumer.stop(SHUTDOWN_DRAIN_MS);
      await producer.disconnect();
      await pool.end();
      server.close();
      logger.info({ exitCode }, 'stopped');
      process.exit(exitCode);
    } catch (error) {
      logger.error(errorFields(error), 'shutdown failed');
      process.exit(1);
    }
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting without waiting for the drain');
        process.exit(1);
      }
      logger.info({ signal, drainMs: SHUTDOWN_DRAIN_MS }, 'stopping');
      void shutdown(0);
    });
  }

  await consumer.start();
  logger.info(
    { topic: config.ordersTopic, results: config.resultsTopic, port: config.port, control: config.controlTopicPrefix },
    'consuming',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'failed to start', ...errorFields(error) })}\n`);
  process.exit(1);
});

import type { Kafka } from 'kafkajs';
import type { WorkerConfig } from '../../lib/config';
import { createDatabase } from '../../lib/db';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { offsetsReaderGroupId } from '../offsets-topic/create-offsets-topic-reader';
import { LeaderLock } from './leader-lock';
import { LagSampler, type RoundOutcome } from './lag-sampler';
import type { ConsumerLogger } from '../shared/worker-types';
import { workerInstanceId } from '../shared/worker-types';

export interface LagSamplerHandle {
  sampler: LagSampler;
  start(): void;
  /** Stops sampling, releases the lock, disconnects its Kafka and Postgres clients. */
  stop(): Promise<void>;
}

/**
 * The sampler as the worker runs it: its own Kafka connections, its own two-connection Prisma pool and the
 * advisory-lock session, so nothing it does can take a connection the pipeline needs.
 */
export function createLagSampler(options: {
  config: WorkerConfig;
  kafka: Kafka;
  logger?: ConsumerLogger;
  lockName?: string;
  onRound?: (outcome: RoundOutcome) => void;
}): LagSamplerHandle {
  const { config, kafka, logger } = options;
  const db = createDatabase(config.DATABASE_URL, 2);
  const lock = new LeaderLock({
    connectionString: config.DATABASE_URL,
    name: options.lockName,
    onLost: (error) => logger?.warn({ err: error }, 'sampler leader lock session lost'),
  });
  const sampler = new LagSampler({
    reader: new ClusterReader({
      kafka,
      ownGroupId: config.WARDEN_GROUP_ID,
      include: config.SAMPLER_GROUP_INCLUDE,
      exclude: config.SAMPLER_GROUP_EXCLUDE,
      hiddenGroupIds: [offsetsReaderGroupId(config)],
    }),
    db,
    lock,
    instanceId: workerInstanceId(config.KAFKA_CLIENT_ID),
    intervalMs: config.SAMPLE_INTERVAL_MS,
    idleStoreMs: config.SAMPLE_IDLE_STORE_MS,
    maxBackoffMs: config.SAMPLER_MAX_BACKOFF_MS,
    state: {
      timeLagPoints: config.SAMPLER_TIME_LAG_POINTS,
      timeLagSpacingMs: config.SAMPLER_TIME_LAG_SPACING_MS,
      rateWindowMs: config.SAMPLER_RATE_WINDOW_MS,
      exactTimeLagIntervalMs: config.SAMPLER_EXACT_TIME_LAG_INTERVAL_MS,
      exactTimeLagMaxPartitions: config.SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS,
    },
    retention: { rawDays: config.SAMPLER_RETENTION_DAYS, rollupDays: config.SAMPLER_ROLLUP_RETENTION_DAYS },
    logger,
    onRound: options.onRound,
  });
  return {
    sampler,
    start: () => sampler.start(),
    stop: async () => {
      await sampler.stop();
      await db.$disconnect();
    },
  };
}

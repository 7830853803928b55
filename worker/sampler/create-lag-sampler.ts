import type { Kafka } from 'kafkajs';
import type { WorkerConfig } from '../config';
import { createDatabase } from '../../lib/db';
import { createClusterKafka } from '../../lib/kafka/client';
import { DEFAULT_CLUSTER, type ClusterConnection } from '../../lib/kafka/cluster-settings';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { controlGroupPrefix, offsetsReaderGroupId } from '../shared/internal-groups';
import { LeaderLock, SAMPLER_LOCK_NAME } from './leader-lock';
import { LagSampler, type LeaderLockPort, type RoundOutcome, type SamplerStats } from './lag-sampler';
import { PgShardLocks } from './pg-shard-locks';
import { ShardLeases } from './shard-leases';
import type { ConsumerLogger } from '../shared/worker-types';
import { workerInstanceId } from '../shared/worker-types';

export interface LagSamplerHandle {
  /** The default cluster's sampler (the worker's metrics and alerts follow it). */
  sampler: LagSampler;
  /** One sampler per configured cluster, `default` first. */
  samplers: ReadonlyArray<{ cluster: string; sampler: LagSampler }>;
  start(): void;
  /** Stops every sampler, releases their locks, disconnects their Kafka and Postgres clients. */
  stop(): Promise<void>;
}

/**
 * The leader lock name of `cluster`'s sampler: each cluster is led on its own, so one instance may sample
 * `default` while another samples `prod-eu`. The default cluster keeps the name it had before clusters.
 */
export function samplerLockName(cluster: string): string {
  return cluster === DEFAULT_CLUSTER ? SAMPLER_LOCK_NAME : `${SAMPLER_LOCK_NAME}:${cluster}`;
}

/**
 * The samplers as the worker runs them: one per configured cluster, each with its own Kafka connections
 * (the worker's client for `default`, a client built from the cluster's brokers, TLS and SASL otherwise), its
 * own leader lock and its own loop, so a cluster that cannot be read backs off and records its own gap while
 * the others keep their interval. They share one small Prisma pool apart from the pipeline's. Only the
 * default cluster's sampler runs rollups and retention, which cover every cluster's rows (sharded: the
 * instance holding the default cluster's shard 0).
 */
export function createLagSampler(options: {
  config: WorkerConfig;
  /** The worker's client of the default cluster. */
  kafka: Kafka;
  logger?: ConsumerLogger;
  /** Told after every round of each cluster's sampler, with that sampler's stats after the round. */
  onRound?: (cluster: string, outcome: RoundOutcome, stats: SamplerStats) => void;
}): LagSamplerHandle {
  const { config, kafka, logger } = options;
  const db = createDatabase(config.DATABASE_URL, Math.max(2, config.clusters.length + 1));
  const samplers = config.clusters.map((cluster: ClusterConnection) => {
    const isDefault = cluster.name === DEFAULT_CLUSTER;
    const clusterLogger = logger ? withCluster(logger, cluster.name) : undefined;
    const lock = samplerLock(config, cluster.name, clusterLogger);
    const clusterKafka = isDefault ? kafka : createClusterKafka(cluster, config.KAFKA_CLIENT_ID);
    const sampler = new LagSampler({
      cluster: cluster.name,
      reader: new ClusterReader({
        kafka: clusterKafka,
        ownGroupId: config.WARDEN_GROUP_ID,
        include: config.SAMPLER_GROUP_INCLUDE,
        exclude: config.SAMPLER_GROUP_EXCLUDE,
        hiddenGroupIds: isDefault ? [offsetsReaderGroupId(config)] : [],
        hiddenGroupPrefixes: [controlGroupPrefix(config)],
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
      runsMaintenance: isDefault,
      logger: clusterLogger,
      onRound: options.onRound && ((outcome) => options.onRound!(cluster.name, outcome, sampler.stats())),
    });
    return { cluster: cluster.name, sampler };
  });
  return {
    sampler: samplers[0]!.sampler,
    samplers,
    start: () => samplers.forEach((s) => s.sampler.start()),
    stop: async () => {
      await Promise.all(samplers.map((s) => s.sampler.stop()));
      await db.$disconnect();
    },
  };
}

/**
 * One cluster's sampler lock: the leader lock (one instance samples every group), or with SAMPLER_SHARDS > 1
 * the cluster's shard leases (each instance samples its fair share of the shards' groups).
 */
function samplerLock(config: WorkerConfig, cluster: string, logger: ConsumerLogger | undefined): LeaderLockPort {
  const name = samplerLockName(cluster);
  if (config.SAMPLER_SHARDS === 1) {
    return new LeaderLock({
      connectionString: config.DATABASE_URL,
      name,
      onLost: (error) => logger?.warn({ err: error }, 'sampler leader lock session lost'),
    });
  }
  return new ShardLeases({
    session: new PgShardLocks({ connectionString: config.DATABASE_URL, lockName: name }),
    shardCount: config.SAMPLER_SHARDS,
    onChange: ({ kind, message }) =>
      logger?.warn(
        { shardCount: config.SAMPLER_SHARDS },
        `sampler shards ${kind === 'lost' ? 'lost' : 'not taken'}: ${message}`,
      ),
  });
}

/** `logger` with the cluster on every line. */
function withCluster(logger: ConsumerLogger, cluster: string): ConsumerLogger {
  return {
    info: (obj, msg) => logger.info({ cluster, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ cluster, ...obj }, msg),
    error: (obj, msg) => logger.error({ cluster, ...obj }, msg),
  };
}

import { ensureControlTopics } from '@warden/consumer';
import type { Admin, Kafka } from 'kafkajs';
import type { WorkerConfig } from '../config';
import type { Database } from '../../lib/db';
import { createClusterKafka } from '../../lib/kafka/client';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import type { ConsumerLogger } from '../shared/worker-types';
import { CommandExpiry } from './command-expiry';
import { CommandRelay } from './command-relay';
import { ControlIngester } from './control-ingester';
import type { RecordedOutcome } from './ingest-instance-state';
import { OperatorActionListener } from './operator-action-listener';
import type { MemberIdentity } from './state-rows';

/** Asks a cluster's group coordinator how it names a member (describeGroups); null when it does not list it. */
export type IdentifyMember = (
  admin: Pick<Admin, 'describeGroups'>,
  groupId: string,
  memberId: string,
) => Promise<MemberIdentity | null>;

export interface ClusterControlOptions {
  cluster: string;
  /** A client of that cluster (its brokers, TLS and SASL). */
  kafka: Kafka;
  db: Database;
  topicPrefix: string;
  /** WARDEN_CONTROL_SIGNING_KEY: commands are signed with it when set. */
  signingKey?: string;
  /** COMMAND_POLL_INTERVAL_MS: the relay's round interval. */
  pollIntervalMs: number;
  /** COMMAND_EXPIRE_AFTER_MS. */
  expireAfterMs: number;
  identify?: IdentifyMember;
  logger?: ConsumerLogger;
  onRecorded?: (outcome: RecordedOutcome) => void;
  /** Only these groups' actions are relayed (tests sharing one database); absent: every group. */
  groupIds?: readonly string[];
  /** The ingester's write backoff (control-ingester.ts). */
  ingestRetry?: { baseMs: number; maxMs: number };
}

export interface ClusterControl {
  cluster: string;
  ingester: ControlIngester;
  relay: CommandRelay;
  /** Stops the relay, then the ingester, then disconnects the cluster's clients. */
  stop(): Promise<void>;
}

/**
 * The worker's side of one cluster's control plane: its two topics ensured (a refusal, such as no permission
 * to create topics, is logged: they may exist, or the services create them), the state ingester and the
 * command relay.
 * Throws when the cluster cannot be reached (its admin or producer does not connect); what was connected is
 * closed first.
 */
export async function startClusterControl(options: ClusterControlOptions): Promise<ClusterControl> {
  const { cluster, kafka, logger } = options;
  const admin = kafka.admin();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  try {
    await admin.connect();
    // Never throws: a refusal (no permission to create topics) is logged; whoever runs the cluster creates them.
    await ensureControlTopics(admin, options.topicPrefix, logger);
    await producer.connect();
  } catch (error) {
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    throw error;
  }
  const identify = options.identify;
  const ingester = new ControlIngester({
    kafka,
    db: options.db,
    cluster,
    topicPrefix: options.topicPrefix,
    identify: identify && ((groupId, memberId) => identify(admin, groupId, memberId)),
    logger,
    onRecorded: options.onRecorded,
    retry: options.ingestRetry,
  });
  const relay = new CommandRelay({
    db: options.db,
    cluster,
    topicPrefix: options.topicPrefix,
    producer,
    signingKey: options.signingKey,
    expireAfterMs: options.expireAfterMs,
    intervalMs: options.pollIntervalMs,
    groupIds: options.groupIds,
    onError: (error) =>
      logger?.warn({ err: error, cluster }, 'operator commands not relayed; the next round tries again'),
  });
  await ingester.start();
  relay.start();
  return {
    cluster,
    ingester,
    relay,
    stop: async () => {
      await relay.stop();
      await ingester.stop();
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
    },
  };
}

/** A cluster whose control plane could not start is tried again after this long. */
const RESTART_AFTER_MS = 30_000;

export interface ControlHandle {
  /** The clusters whose control plane runs now. */
  readonly clusters: readonly ClusterControl[];
  stop(): Promise<void>;
}

/**
 * The control plane's worker side for every configured cluster (config.clusters): per cluster the ingester
 * and the relay (startClusterControl); one NOTIFY listener that wakes every relay when the API records an
 * action; one expiry loop over every cluster's actions, which also forgets instances silent for a week.
 * A cluster that cannot be reached is logged and tried again every 30 s; the others and the worker go on.
 * Stop it before the pipeline consumer (which stops its own side of the control plane inside consumer.stop).
 */
export async function startControl(options: {
  config: WorkerConfig;
  /** The worker's client of the default cluster. */
  kafka: Kafka;
  db: Database;
  /** This worker instance (recorded on the actions it expires). */
  instanceId: string;
  identify?: IdentifyMember;
  logger: ConsumerLogger;
  onRecorded?: (outcome: RecordedOutcome) => void;
  onExpired?: (row: { action: string }) => void;
}): Promise<ControlHandle> {
  const { config, logger } = options;
  const running: ClusterControl[] = [];
  let stopped = false;
  const retries = new Set<NodeJS.Timeout>();
  const starting = new Set<Promise<void>>();

  const startCluster = async (cluster: WorkerConfig['clusters'][number]): Promise<void> => {
    if (stopped) return;
    try {
      const control = await startClusterControl({
        cluster: cluster.name,
        kafka: cluster.name === DEFAULT_CLUSTER ? options.kafka : createClusterKafka(cluster, config.KAFKA_CLIENT_ID),
        db: options.db,
        topicPrefix: config.WARDEN_CONTROL_TOPIC_PREFIX,
        signingKey: config.WARDEN_CONTROL_SIGNING_KEY?.reveal(),
        pollIntervalMs: config.COMMAND_POLL_INTERVAL_MS,
        expireAfterMs: config.COMMAND_EXPIRE_AFTER_MS,
        identify: options.identify,
        logger: withCluster(logger, cluster.name),
        onRecorded: options.onRecorded,
      });
      if (stopped) return await control.stop();
      running.push(control);
    } catch (error) {
      logger.warn(
        { err: error, cluster: cluster.name },
        'control plane of the cluster did not start; it is tried again in 30 s',
      );
      const timer = setTimeout(() => {
        retries.delete(timer);
        const attempt = startCluster(cluster).finally(() => starting.delete(attempt));
        starting.add(attempt);
      }, RESTART_AFTER_MS);
      retries.add(timer);
    }
  };
  await Promise.all(config.clusters.map((cluster) => startCluster(cluster)));

  const listener = new OperatorActionListener({
    databaseUrl: config.DATABASE_URL,
    onNotify: () => running.forEach((control) => control.relay.kick()),
    onError: (error) => logger.warn({ err: error }, 'operator action listener lost its connection; polling continues'),
  });
  await listener
    .start()
    .catch((error: Error) => logger.warn({ err: error }, 'operator action listener did not start; polling only'));
  const expiry = new CommandExpiry({
    db: options.db,
    clusters: config.clusters.map((c) => c.name),
    topicPrefix: config.WARDEN_CONTROL_TOPIC_PREFIX,
    expireAfterMs: config.COMMAND_EXPIRE_AFTER_MS,
    intervalMs: config.COMMAND_POLL_INTERVAL_MS,
    instanceId: options.instanceId,
    onExpired: (row) => {
      logger.info({ ...row, status: 'expired' }, 'operator action');
      options.onExpired?.(row);
    },
    onError: (error) => logger.warn({ err: error }, 'operator action expiry failed; the next round runs on schedule'),
  });
  expiry.start();

  return {
    clusters: running,
    stop: async () => {
      stopped = true;
      for (const timer of retries) clearTimeout(timer);
      retries.clear();
      await Promise.all(starting);
      await listener.stop();
      await expiry.stop();
      await Promise.all(running.splice(0).map((control) => control.stop()));
    },
  };
}

/** `logger` with the cluster on every line. */
function withCluster(logger: ConsumerLogger, cluster: string): ConsumerLogger {
  return {
    info: (obj, msg) => logger.info({ cluster, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ cluster, ...obj }, msg),
    error: (obj, msg) => logger.error({ cluster, ...obj }, msg),
  };
}

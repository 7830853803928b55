import type { Admin, Producer } from 'kafkajs';
import type { WorkerConfig } from './config';
import { createDatabase, nodePostgresPool, type Database } from '../lib/db';
import { WorkerServer } from './http/worker-server';
import { WorkerMetrics } from './metrics/worker-metrics';
import { createKafka, kafkaSecurityFrom } from '../lib/kafka/client';
import { createRenewingProducer } from './kafka/renewing-producer';
import { checkKafkaAtStartup, startupContextFrom } from './kafka/startup-check';
import { ensureTopics } from './kafka/topics';
import { createConsumer, type HandlerModule, type WardenConsumer } from '@warden/consumer';
import type { Logger } from './logger';
import type { AdmittedEvent } from './pipeline/events';
import { loadHandlerModule } from './hosted-handler';
import { createDeadLetterWriter } from './pipeline/dead-letter';
import { createDocumentPipeline } from './pipeline/document-pipeline';
import { createFaultInjector } from './pipeline/fault-injection';
import { logCoreEvent } from './log-core-event';
import { createOffsetsTopicReader } from './offsets-topic/create-offsets-topic-reader';
import type { OffsetsTopicReader } from './offsets-topic/offsets-topic-reader';
import { createLagSampler, type LagSamplerHandle } from './sampler/create-lag-sampler';
import { groupMemberIdentity } from './kafka/group-member-identity';
import { startControl, type ControlHandle } from './control/start-control';
import { startRedrive } from './redrive/start-redrive';
import { workerInstanceId } from './shared/worker-types';
import { startAlerts, type AlertsHandle } from './alerts/start-alerts';

import { stopObserver } from './stop-observer';

/** How long each shutdown step but the drain (observers, disconnects) may take. */
const STOP_STEP_LIMIT_MS = 5_000;

/**
 * The worker process: the document pipeline on a WardenConsumer, the lag sampler, the control plane's worker
 * side and the HTTP port. Start order: database and producer first (a record must be able to complete before
 * one is fetched), then the consumer, then the sampler, the control plane and the health port. Stop order is
 * the reverse of what depends on what: readiness goes false, the observers and the control plane's ingest and
 * relay stop, the consumer drains and commits (and stops its own control plane, publishing its last state),
 * then the producer (its last results must be acknowledged) and the database close.
 *
 * Warden's own consumer reports over the control plane like any service that embeds @warden/consumer: its
 * quarantines, commit prefix and rebalance stops reach Postgres through the ingester, and operator actions
 * reach it as commands relayed from operator_action. One path for every consumer.
 */
export class WardenWorker {
  private db: Database | null = null;
  private admin: Admin | null = null;
  private producer: Producer | null = null;
  private consumer: WardenConsumer<unknown> | null = null;
  private sampler: LagSamplerHandle | null = null;
  /** Every commit from __consumer_offsets for the statuses; null with SAMPLER_COMMIT_SOURCE=sampled. */
  private offsetsReader: OffsetsTopicReader | null = null;
  /**
   * The control plane's worker side on every cluster: ingests consumers' states, relays and expires operator
   * actions. Stopped before the consumer, so the consumer's last state (a clean stop) is still written by a
   * peer worker's ingester, or by this one when it starts again.
   */
  private control: ControlHandle | null = null;
  private redrive: { stop: () => Promise<void> } | null = null;
  private server: WorkerServer | null = null;
  /** What the shutdown is doing now: 'running' until stop(), for the log line of a shutdown that hangs. */
  private shutdownStep = 'running';
  /** Heartbeat, alert evaluation after the leading sampler's rounds, and the outbox sender. */
  private alerts: AlertsHandle | null = null;
  private stopping = false;
  private readonly metrics: WorkerMetrics;

  constructor(
    private readonly config: WorkerConfig,
    private readonly logger: Logger,
  ) {
    this.metrics = new WorkerMetrics({
      snapshot: () => this.consumer?.core.snapshot() ?? null,
      samplerLeaders: () =>
        config.clusters.map(({ name }) => ({
          cluster: name,
          leader: this.sampler?.samplers.find((s) => s.cluster === name)?.sampler.isLeader ?? false,
        })),
      ready: () => this.readiness().ready,
      timeLagObjectiveSec: config.TIME_LAG_OBJECTIVE_MS === 0 ? null : config.TIME_LAG_OBJECTIVE_MS / 1_000,
    });
  }

  async start(): Promise<void> {
    const { config, logger } = this;
    // A team's handler module is checked before anything connects: a wrong one stops the start at once.
    const hosted = config.WARDEN_HANDLER_MODULE ? await loadHandlerModule(config.WARDEN_HANDLER_MODULE) : null;
    if (hosted) logger.info({ module: config.WARDEN_HANDLER_MODULE }, 'hosting a handler module');
    // Every client below (consumer, producer, admin, sampler, control plane) comes from this one kafkajs
    // instance, so all of them use the configured TLS and SASL. The check first proves they will connect:
    // wrong credentials or certificates stop the start here with a KafkaStartupError naming the setting,
    // instead of a consumer retrying forever.
    const client = { brokers: config.kafkaBrokers, clientId: config.KAFKA_CLIENT_ID, ...kafkaSecurityFrom(config) };
    const { tls, sasl } = config.kafkaSecurity;
    const cluster = await checkKafkaAtStartup({
      client,
      context: startupContextFrom(config),
      logger,
      secrets: sasl ? [sasl.password.reveal()] : [],
    });
    logger.info({ ...cluster, tls: tls !== null, sasl: sasl?.mechanism ?? null }, 'Kafka reachable');
    if (sasl?.mechanism === 'plain' && !tls)
      logger.warn('KAFKA_SASL_MECHANISM=plain without KAFKA_SSL sends the password unencrypted');
    const kafka = createKafka({ ...client, logLevel: 'error' });
    this.db = createDatabase(config.DATABASE_URL);
    this.admin = kafka.admin();
    await this.admin.connect();
    await ensureTopics(this.admin, [
      { topic: config.WARDEN_INPUT_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS },
      // A hosted handler publishes its own results, wherever it likes.
      ...(hosted ? [] : [{ topic: config.WARDEN_RESULTS_TOPIC, numPartitions: config.WARDEN_INPUT_PARTITIONS }]),
      { topic: config.WARDEN_DLQ_TOPIC, numPartitions: 1 },
    ]);
    // Renewed on a lost idempotence state (out-of-order sequence), which kafkajs never recovers from.
    this.producer = createRenewingProducer({
      create: () => kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false }),
      onRenew: (cause) => logger.warn({ err: cause }, 'producer renewed after it lost its idempotence state'),
    });
    await this.producer.connect();

    const work = (hosted ?? this.documentPipeline(this.db, this.producer)) as HandlerModule<unknown>;
    const instanceId = workerInstanceId(config.KAFKA_CLIENT_ID);
    this.consumer = createConsumer<unknown>({
      kafka,
      admin: this.admin,
      groupId: config.WARDEN_GROUP_ID,
      topics: [config.WARDEN_INPUT_TOPIC],
      fromBeginning: true,
      logger,
      batchSize: config.WARDEN_BATCH_SIZE,
      batchLingerMs: config.WARDEN_BATCH_LINGER_MS,
      // A heartbeat every tenth of the session, the ratio of kafkajs's own defaults (30 s, 3 s).
      kafkaConsumerConfig: {
        sessionTimeout: config.WARDEN_SESSION_TIMEOUT_MS,
        heartbeatInterval: Math.round(config.WARDEN_SESSION_TIMEOUT_MS / 10),
      },
      deadLetter: createDeadLetterWriter(this.producer, config.WARDEN_DLQ_TOPIC),
      // Holds, commit prefix, rebalance stops and command outcomes go out on `<prefix>.state`; operator actions
      // come in on `<prefix>.commands` (a skip copies the record to the dead-letter writer above first).
      control: {
        topicPrefix: config.WARDEN_CONTROL_TOPIC_PREFIX,
        clientId: config.KAFKA_CLIENT_ID,
        instanceId,
        stateIntervalMs: config.WARDEN_CONTROL_STATE_INTERVAL_MS,
        commandKey: config.WARDEN_CONTROL_SIGNING_KEY?.reveal(),
        deadLetterName: config.WARDEN_DLQ_TOPIC,
      },
      onEvent: (event) => {
        logCoreEvent(logger, event);
        this.metrics.onCoreEvent(event);
      },
      onStalls: (stalls) => {
        // A quarantined record was logged once when it was quarantined and waits for an operator by design;
        // repeating it at every stall check would bury the stalls nobody knows about.
        for (const stall of stalls) {
          if (stall.state !== 'quarantined')
            logger.warn({ ...stall, event: 'stalled' }, 'oldest unfinished record is stuck past the stall threshold');
        }
      },
      onFatal: (reason) => this.onFatal(reason),
      onRebalance: (timing) => this.metrics.onRebalance(timing),
      ordering: config.WARDEN_ORDERING,
      quarantinePolicy: config.WARDEN_QUARANTINE_POLICY,
      maxInFlight: config.WARDEN_MAX_IN_FLIGHT,
      maxInFlightPerPartition: config.WARDEN_MAX_IN_FLIGHT_PER_PARTITION,
      maxPendingPerPartition: config.WARDEN_MAX_PENDING_PER_PARTITION,
      commitIntervalMs: config.WARDEN_COMMIT_INTERVAL_MS,
      // 0 bytes disables the completed-above metadata: every commit is a plain offset.
      metadataMaxBytes: config.WARDEN_COMMIT_METADATA ? 4_000 : 0,
      stallThresholdMs: config.WARDEN_STALL_THRESHOLD_MS,
      stallDeadLetterAfterMs: config.WARDEN_STALL_DEAD_LETTER_MS ?? null,
      // The handler and its policies: a hosted module's policies win over the WARDEN_* settings above.
      ...work,
    });
    this.server = new WorkerServer({
      port: config.WORKER_PORT,
      host: config.WORKER_HOST,
      readiness: () => this.readiness(),
      metrics: this.metrics,
    });
    await this.server.start();
    await this.consumer.start();

    // The cluster sampler runs on its own Kafka connections, Postgres pool and leader lock (one sampler among
    // all worker instances); the own-consumer state is written by every instance, since only it can see it.
    this.alerts = startAlerts({
      config,
      db: this.db,
      instanceId,
      readiness: () => this.readiness(),
      logger,
    });
    const alerts = this.alerts;
    this.sampler = createLagSampler({
      config,
      kafka,
      logger,
      onRound: (cluster, outcome, stats) => {
        this.metrics.onSamplerRound(cluster, outcome);
        alerts.onSamplerRound(cluster, outcome, stats);
      },
    });
    this.sampler.start();
    // Reads every commit for the statuses; a topic it cannot read only makes them rest on the samples.
    this.offsetsReader = createOffsetsTopicReader({ config, kafka, db: this.db, logger });
    await this.offsetsReader?.start();
    // Every worker instance ingests a share of the consumers' states and relays what it can: the ingest group
    // splits the state topic, and a relayed or expired row is claimed by one instance.
    this.control = await startControl({
      config,
      kafka,
      db: this.db,
      instanceId,
      identify: groupMemberIdentity,
      logger,
      onRecorded: (outcome) => this.metrics.onOperatorAction(outcome.action, outcome.status),
      onExpired: (row) => this.metrics.onOperatorAction(row.action, 'expired'),
    });
    // Redrive jobs run on transactional producers of their own (one per job); a stop hands a running job back.
    this.redrive = await startRedrive({
      config,
      kafka,
      db: this.db,
      instanceId,
      logger,
    });
    logger.info(
      { groupId: config.WARDEN_GROUP_ID, topic: config.WARDEN_INPUT_TOPIC, port: config.WORKER_PORT },
      'worker started',
    );
  }

  /** The default handler: the document pipeline (docs/operating/worker.md). */
  private documentPipeline(db: Database, producer: Producer): HandlerModule<AdmittedEvent> {
    const { config } = this;
    const pipeline = createDocumentPipeline({
      sql: nodePostgresPool(db),
      producer,
      resultsTopic: config.WARDEN_RESULTS_TOPIC,
      beforeStore: createFaultInjector({
        rate: config.WARDEN_FAULT_TRANSIENT_RATE,
        maxLatencyMs: config.WARDEN_FAULT_LATENCY_MS,
      }),
    });
    return {
      admit: pipeline.admit,
      ...(config.WARDEN_HANDLER === 'batch'
        ? { handleBatch: pipeline.handleBatch }
        : { handle: (value, record) => pipeline.handle(value, record) }),
      onPermanentFailure: (value, record, error) => pipeline.onPermanentFailure(value, record, error),
      classifyError: pipeline.classifyError,
    };
  }

  /**
   * The core cannot go on (a pause, seek, resume or commit failed for good). The consumer has stopped
   * fetching and reports not ready; the process exits non-zero so its supervisor restarts it from the
   * last commit, which never passes unfinished work.
   */
  private onFatal(reason: string): void {
    this.logger.fatal({ reason }, 'consumer core is fatal; stopping the worker');
    void this.stop(5_000).finally(() => process.exit(1));
  }

  currentShutdownStep(): string {
    return this.shutdownStep;
  }

  private readiness() {
    if (this.stopping) return { ready: false, detail: 'shutting down' };
    return this.consumer?.readiness() ?? { ready: false, detail: 'starting' };
  }

  async stop(deadlineMs: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // Every step but the drain is bounded: one that fails or hangs is logged and left behind (stop-observer.ts).
    // Observers first (none holds work to drain), then the drain and last commit, then the disconnects.
    const bounded = async (part: string, step: { stop(): Promise<unknown> } | null) => {
      this.shutdownStep = part;
      await stopObserver(part, step, STOP_STEP_LIMIT_MS, this.logger);
    };
    const { sampler, alerts, offsetsReader, control, redrive, producer, admin, db, server } = this;
    await bounded('sampler', sampler);
    await bounded('alerts', alerts);
    await bounded('offsets-topic reader', offsetsReader);
    // The control plane's ingest and relay stop before the consumer: no command is relayed to a draining
    // consumer by this instance, and the ingest group hands its partitions to the other workers.
    await bounded('control plane', control);
    await bounded('redrive', redrive);
    // The consumer's own control plane (its state publisher and command reader) stops inside consumer.stop,
    // after the drain, with a last 'stopped' state.
    this.shutdownStep = 'consumer drain and commit';
    await this.consumer?.stop(deadlineMs);
    await bounded('producer', producer && { stop: () => producer.disconnect() });
    await bounded('admin', admin && { stop: () => admin.disconnect() });
    await bounded('database', db && { stop: () => db.$disconnect() });
    await bounded('http server', server);
    this.shutdownStep = 'stopped';
    this.logger.info({ counters: this.consumer?.core.snapshot().counters }, 'worker stopped');
  }
}

import { randomUUID } from 'node:crypto';
import { controlTopicConfigs, controlTopicNames, DEFAULT_STATE_INTERVAL_MS } from '@warden/consumer';
import type { Admin, ITopicConfig, Kafka } from 'kafkajs';
import { ensureDatabase, migrateDatabase } from '../lib/database';
import { prepareApiSeed, type ApiSeed } from './api-seed';
import { prepareBenchDatabase } from './bench-database';
import { ensureDashboardBuild } from './dashboard-build';
import {
  CONTROL_TRAFFIC_PARTITIONS,
  CONTROL_TRAFFIC_PRODUCE_PER_SEC,
  PARTITIONS,
  SAMPLER_GROUPS,
  SCALE_BUSY_SHARE,
  SCALE_PARTITIONS,
  SAMPLER_PARTITIONS,
  SAMPLER_TOPICS,
  KEYED_RETRY_KEYS,
  KEYED_RETRY_PRODUCE_CHUNK,
  KEYED_RETRY_BACKOFF,
  KEYED_RETRY_ERROR_RATE,
  type BenchSizes,
  type LayoutId,
  type WorkloadPlan,
} from './plan';
import { runParallelConsumer } from './parallel-consumer-runs';
import { epochNowMs, type ChildSpec, type Measurement } from './protocol';
import { regularRecord } from './records';
import { runChild } from './runner';
import { whileBrokerLoads, type PreparedTopic } from './topics';

// The orchestrator's side of each workload: the child's spec, and for keyed-retries and the full pipeline the
// topics (and the producer) that live only for one run.

export interface Services {
  brokers: string[];
  /** null when only workloads that need no broker run. */
  kafka: Kafka | null;
  admin: Admin | null;
  topics: Map<LayoutId, PreparedTopic>;
  databaseUrl: string;
  sizes: BenchSizes;
  commitIntervalMs: number;
  cpuProfileDir?: string;
  /** Per workload id, the topic made for this bench run alone (see createRunTopics). */
  runTopics: Map<string, string>;
  /** Per workload id, the control prefix made for this bench run alone (see createRunTopics). */
  controlPrefixes: Map<string, string>;
  /** The configured DATABASE_URL; (11) derives its own database from it. */
  baseDatabaseUrl: string;
  /** SAMPLE_IDLE_STORE_MS: how often an unchanged group is stored (10s). */
  samplerIdleStoreMs: number;
  /** (10) samples with the configured sampler settings; (11) analyses with the configured advisor settings. */
  samplerState: NonNullable<ChildSpec['sampler']>['state'];
  analysis: { timeLagObjectiveMs: number | null; rateWindowMs: number };
  /** (11o): the port the built dashboard listens on (WARDEN_BENCH_PORT_BASE + 200). */
  overviewPort: number;
  /** (12), (13): the worker's COMMAND_POLL_INTERVAL_MS (from config). */
  commandPollIntervalMs: number;
  /** (13): the port the example service answers /readyz on (WARDEN_BENCH_PORT_BASE + 250). */
  servicePort: number;
  /** (14): the bundled broker, for kafka-log-dirs; null when KAFKA_BROKERS names another. */
  bundledBroker: { home: string; port: number; controllerPort: number } | null;
  log: (line: string) => void;
}

/** The topics made for one bench run (see createRunTopics), and the control prefixes among them. */
export interface RunTopics {
  /** Per workload id (and `<id>.<role>` for a second one), a topic name; every one is deleted at the end. */
  topics: Map<string, string>;
  /** Per workload id, the control prefix whose two topics were created for it (they are in `topics` too). */
  controlPrefixes: Map<string, string>;
}

/**
 * Topics that live for one bench run: keyed-retries' input (it produces while it consumes), the full
 * pipeline's results topic, the action workloads' topics and the control plane's topics of (13)-(15). Created
 * up front, because a topic created (or deleted) moments before a producer needs it can stay unknown to the
 * producer's metadata for longer than kafkajs retries on a busy machine ("This server does not host this
 * topic-partition"); the control topics with the settings the package creates them with.
 */
export async function createRunTopics(admin: Admin, plans: readonly WorkloadPlan[]): Promise<RunTopics> {
  const run = randomUUID().slice(0, 8);
  const topics = new Map<string, string>();
  const controlPrefixes = new Map<string, string>();
  const configs: ITopicConfig[] = [];
  const add = (key: string, topic: string, numPartitions = PARTITIONS) => {
    topics.set(key, topic);
    configs.push({ topic, numPartitions, replicationFactor: -1 });
  };
  const addControl = (id: string) => {
    const prefix = `warden-bench.control.${run}.${id}`;
    const names = controlTopicNames(prefix);
    controlPrefixes.set(id, prefix);
    topics.set(`${id}.control-state`, names.state);
    topics.set(`${id}.control-commands`, names.commands);
    configs.push(...controlTopicConfigs(prefix));
  };
  for (const plan of plans) {
    if (plan.kind === 'keyed-retries') add(plan.id, `warden-bench.keyed-retries.${run}.${plan.id}`);
    if (plan.kind === 'pipeline' || plan.kind === 'raw-pipeline')
      add(plan.id, `warden-bench.results.${run}.${plan.id}`);
    if (plan.kind === 'action-round-trip') {
      add(plan.id, `warden-bench.actions.${run}.${plan.id}`);
      add(`${plan.id}.dlq`, `warden-bench.actions-dlq.${run}.${plan.id}`);
    }
    if (plan.kind === 'service-action-round-trip') {
      add(plan.id, `warden-bench.orders.${run}.${plan.id}`);
      add(`${plan.id}.results`, `warden-bench.orders-results.${run}.${plan.id}`);
      addControl(plan.id);
    }
    if (plan.kind === 'control-traffic') {
      add(plan.id, `warden-bench.traffic.${run}.${plan.id}`, CONTROL_TRAFFIC_PARTITIONS);
      addControl(plan.id);
    }
    if (plan.kind === 'control-throughput') addControl(plan.id);
    if (plan.kind === 'redrive') {
      add(`${plan.id}.dlq`, `warden-bench.redrive-dlq.${run}.${plan.id}`);
      add(plan.id, `warden-bench.redrive-target.${run}.${plan.id}`);
    }
  }
  if (configs.length > 0) {
    await whileBrokerLoads('creating the run topics', () =>
      admin.createTopics({ topics: configs, waitForLeaders: true }),
    );
  }
  return { topics, controlPrefixes };
}

export async function deleteRunTopics(admin: Admin, topics: Map<string, string>): Promise<void> {
  if (topics.size > 0) await admin.deleteTopics({ topics: [...topics.values()] });
}

function needed<T>(client: T | null, plan: WorkloadPlan): T {
  if (client === null) throw new Error(`workload ${plan.id}: no Kafka client (the bench started no broker)`);
  return client;
}

function runTopic(services: Services, plan: WorkloadPlan, role?: string): string {
  const topic = services.runTopics.get(role === undefined ? plan.id : `${plan.id}.${role}`);
  if (!topic)
    throw new Error(`workload ${plan.id}: its run topic${role === undefined ? '' : ` (${role})`} was not created`);
  return topic;
}

function controlPrefix(services: Services, plan: WorkloadPlan): string {
  const prefix = services.controlPrefixes.get(plan.id);
  if (!prefix) throw new Error(`workload ${plan.id}: its control topics were not created`);
  return prefix;
}

function specFor(plan: WorkloadPlan, services: Services, topic: string, endOffsets: number[]): ChildSpec {
  return {
    workload: plan.id,
    kind: plan.kind,
    brokers: services.brokers,
    topic,
    endOffsets,
    watchedPartitions: plan.watchedPartitions,
    handlerMs: plan.handlerMs,
    rawPartitionsConcurrently: plan.rawPartitionsConcurrently,
    warden: plan.ordering
      ? {
          ordering: plan.ordering,
          maxInFlight: plan.maxInFlight,
          maxInFlightPerPartition: plan.maxInFlightPerPartition,
          maxPendingPerPartition: plan.maxPendingPerPartition,
          batchSize: plan.batchSize,
          commitIntervalMs: services.commitIntervalMs,
          retry: plan.kind === 'keyed-retries' ? KEYED_RETRY_BACKOFF : undefined,
        }
      : undefined,
    timeoutMs: services.sizes.timeoutMs,
  };
}

/** keyed-retries: a fresh topic, the consumer started first, then the producer (paced or not) in this process. */
async function runKeyedRetries(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  const topic = runTopic(services, plan);
  const records = services.sizes.keyedRetryRecords;
  const spec: ChildSpec = {
    ...specFor(plan, services, topic, new Array<number>(PARTITIONS).fill(0)),
    keyedRetries: {
      records,
      keys: KEYED_RETRY_KEYS,
      transientErrorRate: plan.transientErrorRate ?? KEYED_RETRY_ERROR_RATE,
    },
  };
  let firstProduceEpochMs: number | null = null;
  let produceMs = 0;
  const measurement = await runChild(spec, {
    cpuProfileDir: services.cpuProfileDir,
    onReady: async () => {
      const produced = await produceSeed(needed(services.kafka, plan), topic, records, plan.paceRecordsPerSec ?? null);
      firstProduceEpochMs = produced.firstEpochMs;
      produceMs = produced.durationMs;
    },
  });
  if (firstProduceEpochMs === null) throw new Error('the producer never started');
  return {
    ...measurement,
    startEpochMs: firstProduceEpochMs,
    details: { ...measurement.details, produceMs: Math.round(produceMs) },
  };
}

/**
 * Produces the keyed-retries records, as fast as possible in chunks or paced at `ratePerSec` (1 ms ticks), with a
 * producer of its own that is connected before the first record's clock starts.
 */
async function produceSeed(
  kafka: Kafka,
  topic: string,
  records: number,
  ratePerSec: number | null,
): Promise<{ firstEpochMs: number; durationMs: number }> {
  const layout = { name: 'keyed-retries', partitions: PARTITIONS, records, keys: KEYED_RETRY_KEYS };
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    const firstEpochMs = epochNowMs();
    const started = performance.now();
    let sent = 0;
    while (sent < records) {
      const due =
        ratePerSec === null
          ? records
          : Math.min(records, Math.floor(((performance.now() - started) * ratePerSec) / 1000) + 1);
      const count = Math.min(due - sent, KEYED_RETRY_PRODUCE_CHUNK);
      if (count <= 0) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      const messages = [];
      for (let i = sent; i < sent + count; i++) {
        const record = regularRecord(layout, i, 's');
        messages.push({ partition: record.partition, key: record.key, value: record.value });
      }
      await producer.send({ topic, acks: -1, messages });
      sent += count;
    }
    return { firstEpochMs, durationMs: performance.now() - started };
  } finally {
    await producer.disconnect();
  }
}

async function runPipelineWorkload(
  plan: WorkloadPlan,
  services: Services,
  prepared: PreparedTopic,
): Promise<Measurement> {
  const resultsTopic = runTopic(services, plan);
  await prepareBenchDatabase(services.databaseUrl);
  const admin = needed(services.admin, plan);
  const before = await admin.fetchTopicOffsets(resultsTopic);
  const measurement = await runChild(
    {
      ...specFor(plan, services, prepared.topic, prepared.endOffsets),
      pipeline: { databaseUrl: services.databaseUrl, resultsTopic },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
  const after = await admin.fetchTopicOffsets(resultsTopic);
  const resultsPublished =
    after.reduce((sum, o) => sum + Number(o.high), 0) - before.reduce((sum, o) => sum + Number(o.high), 0);
  return { ...measurement, details: { ...measurement.details, resultsPublished } };
}

/** (10): the bench database migrated; the child prepares topics and groups and times the rounds. */
async function runSamplerWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  await migrateDatabase(services.databaseUrl);
  return runChild(
    {
      ...specFor(plan, services, '', []),
      // Creating and filling 5,000 partitions comes first: minutes on a busy 2-core machine.
      timeoutMs: Math.max(services.sizes.timeoutMs, 900_000),
      sampler: {
        databaseUrl: services.databaseUrl,
        groups: plan.sampler?.groups ?? SAMPLER_GROUPS,
        topics: plan.sampler?.topics ?? SAMPLER_TOPICS,
        partitions: SAMPLER_PARTITIONS,
        rounds: plan.sampler ? services.sizes.samplerReadRounds : services.sizes.samplerRounds,
        intervalMs: services.sizes.samplerIntervalMs,
        state: services.samplerState,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/** (10s), (10h): the sampler's compute and write path over a generated fleet (10h: sharded), against the bench database. */
async function runSamplerScaleWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  await migrateDatabase(services.databaseUrl);
  return runChild(
    {
      ...specFor(plan, services, '', []),
      // 100,000-row rounds take a minute each when the shared machine is at a load of 40.
      timeoutMs: Math.max(services.sizes.timeoutMs, 1_800_000),
      samplerScale: {
        databaseUrl: services.databaseUrl,
        groups: services.sizes.scaleGroups,
        partitions: SCALE_PARTITIONS,
        busyShare: SCALE_BUSY_SHARE,
        rounds: services.sizes.scaleRounds,
        intervalMs: services.sizes.samplerIntervalMs,
        idleStoreMs: services.samplerIdleStoreMs,
        state: services.samplerState,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

let apiSeed: Promise<ApiSeed> | null = null;

/** (11a), (11b): the seeded API bench database (seeded once per bench run at most), then the timed reads. */
async function runApiReadsWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  if (!plan.read) throw new Error(`workload ${plan.id}: which read is not set`);
  apiSeed ??= prepareApiSeed(services.baseDatabaseUrl, services.log);
  const seed = await apiSeed;
  const measurement = await runChild(
    {
      ...specFor(plan, services, '', []),
      apiReads: {
        databaseUrl: seed.databaseUrl,
        groupId: seed.groupId,
        read: plan.read,
        iterations: services.sizes.apiIterations,
        ...services.analysis,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
  return {
    ...measurement,
    details: {
      ...measurement.details,
      seededLagSampleRows: seed.lagSampleRows,
      seededRollupRows: seed.rollupRows,
      seededTenMinuteRollupRows: seed.tenMinuteRollupRows,
      seedReused: seed.reused,
      seedMs: Math.round(seed.seedMs),
    },
  };
}

/** (11o)'s database beside the configured one (`warden` → `warden_bench_overview`): it empties its tables. */
function overviewDatabaseUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `${url.pathname}_bench_overview`;
  return url.toString();
}

/** (11o): its database migrated and the dashboard built, then the child seeds, evaluates and times the pages. */
async function runOverviewWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  const databaseUrl = overviewDatabaseUrl(services.baseDatabaseUrl);
  await migrateDatabase(databaseUrl);
  await ensureDashboardBuild(services.log);
  return runChild(
    {
      ...specFor(plan, services, '', []),
      overview: {
        databaseUrl,
        groups: services.sizes.scaleGroups,
        partitions: SCALE_PARTITIONS,
        port: services.overviewPort,
        iterations: services.sizes.apiIterations,
        ...services.analysis,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/** (16), (16u): the bench database migrated, the run's dead-letter and target topics, then the timed job. */
async function runRedriveWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  await prepareBenchDatabase(services.databaseUrl);
  if (plan.redriveRatePerSec === undefined) throw new Error(`workload ${plan.id}: its redrive rate is not set`);
  return runChild(
    {
      ...specFor(plan, services, '', []),
      redrive: {
        databaseUrl: services.databaseUrl,
        dlqTopic: runTopic(services, plan, 'dlq'),
        targetTopic: runTopic(services, plan),
        partitions: PARTITIONS,
        records: services.sizes.redriveRecords,
        ratePerSec: plan.redriveRatePerSec,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/** (12): the bench database migrated, the run's input and dead-letter topics, then the timed actions. */
async function runActionRoundTripWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  await prepareBenchDatabase(services.databaseUrl);
  const dlqTopic = services.runTopics.get(`${plan.id}.dlq`);
  if (!dlqTopic) throw new Error(`workload ${plan.id}: its dead-letter topic was not created`);
  return runChild(
    {
      ...specFor(plan, services, runTopic(services, plan), new Array<number>(PARTITIONS).fill(0)),
      actions: {
        databaseUrl: services.databaseUrl,
        dlqTopic,
        actions: services.sizes.actionRounds,
        pollIntervalMs: services.commandPollIntervalMs,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/** (13)'s example service keeps its orders in a database of its own, beside the bench's (`…_bench` → `…_bench_orders`). */
function serviceDatabaseUrl(benchDatabaseUrl: string): string {
  const url = new URL(benchDatabaseUrl);
  url.pathname = `${url.pathname}_orders`;
  return url.toString();
}

/**
 * (13): the bench database migrated and the service's created, then the child builds the example from the
 * packed tarball, runs it and times the actions. The build (pack, install when not cached, tsc) can take
 * minutes on a busy machine: it gets time of its own.
 */
async function runServiceActionWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  await prepareBenchDatabase(services.databaseUrl);
  const serviceDatabase = serviceDatabaseUrl(services.databaseUrl);
  await ensureDatabase(serviceDatabase);
  return runChild(
    {
      ...specFor(plan, services, runTopic(services, plan), new Array<number>(PARTITIONS).fill(0)),
      timeoutMs: services.sizes.timeoutMs + 600_000,
      serviceActions: {
        databaseUrl: services.databaseUrl,
        serviceDatabaseUrl: serviceDatabase,
        ordersTopic: runTopic(services, plan),
        resultsTopic: runTopic(services, plan, 'results'),
        topicPrefix: controlPrefix(services, plan),
        servicePort: services.servicePort,
        actions: services.sizes.actionRounds,
        pollIntervalMs: services.commandPollIntervalMs,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/** (14): one instance on its run topic (CONTROL_TRAFFIC_PARTITIONS partitions), measured in the child. */
async function runControlTrafficWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  const { sizes } = services;
  const intervalsMs = (sizes.controlTrafficWindowStates + 2) * DEFAULT_STATE_INTERVAL_MS;
  return runChild(
    {
      ...specFor(plan, services, runTopic(services, plan), new Array<number>(CONTROL_TRAFFIC_PARTITIONS).fill(0)),
      // The warm-up, the window, and two kafka-log-dirs runs (a JVM each) besides the usual budget.
      timeoutMs: sizes.timeoutMs + sizes.controlTrafficWarmupMs + intervalsMs + 120_000,
      controlTraffic: {
        topicPrefix: controlPrefix(services, plan),
        producePerSec: CONTROL_TRAFFIC_PRODUCE_PER_SEC,
        warmupMs: sizes.controlTrafficWarmupMs,
        windowStates: sizes.controlTrafficWindowStates,
        logDirsBroker: services.bundledBroker,
      },
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

/**
 * (15): (2)'s configuration four times back to back, control plane off, on, on, off (its topics exist, every
 * control setting at its default): two pairs per round, one with each order, so neither side always runs second
 * and a drift across the round weighs on both alike. The row is the first 'on' run; the other three runs' windows
 * and records travel in its details (off1 pairs with it, on2 with off2).
 */
async function runControlThroughputWorkload(
  plan: WorkloadPlan,
  services: Services,
  prepared: PreparedTopic,
): Promise<Measurement> {
  const off: ChildSpec = { ...specFor(plan, services, prepared.topic, prepared.endOffsets), kind: 'warden' };
  const on: ChildSpec = { ...off, control: { topicPrefix: controlPrefix(services, plan) } };
  const hooks = { cpuProfileDir: services.cpuProfileDir };
  const off1 = await runChild(off, hooks);
  const on1 = await runChild(on, hooks);
  const on2 = await runChild(on, hooks);
  const off2 = await runChild(off, hooks);
  const window = (prefix: string, run: Measurement) => ({
    [`${prefix}Records`]: run.records,
    [`${prefix}StartEpochMs`]: run.startEpochMs,
    [`${prefix}EndEpochMs`]: run.endEpochMs,
  });
  return {
    ...on1,
    details: {
      ...on1.details,
      ...window('off1', off1),
      ...window('on2', on2),
      ...window('off2', off2),
      on2StatesPublished: on2.details.controlStatesPublished ?? null,
      offPeakRssBytes: Math.max(off1.peakRssBytes, off2.peakRssBytes),
    },
  };
}

/** Runs one workload once in a child process of its own. */
export async function runWorkload(plan: WorkloadPlan, services: Services): Promise<Measurement> {
  if (plan.kind === 'keyed-retries') return runKeyedRetries(plan, services);
  if (plan.kind === 'sampler-round') return runSamplerWorkload(plan, services);
  if (plan.kind === 'sampler-scale' || plan.kind === 'sampler-shards') return runSamplerScaleWorkload(plan, services);
  if (plan.kind === 'api-reads') return runApiReadsWorkload(plan, services);
  if (plan.kind === 'action-round-trip') return runActionRoundTripWorkload(plan, services);
  if (plan.kind === 'redrive') return runRedriveWorkload(plan, services);
  if (plan.kind === 'service-action-round-trip') return runServiceActionWorkload(plan, services);
  if (plan.kind === 'control-traffic') return runControlTrafficWorkload(plan, services);
  if (plan.kind === 'overview-http') return runOverviewWorkload(plan, services);
  const prepared = services.topics.get(plan.layout!);
  if (!prepared) throw new Error(`workload ${plan.id}: topic ${plan.layout} was not prepared`);
  if (plan.kind === 'pipeline' || plan.kind === 'raw-pipeline') return runPipelineWorkload(plan, services, prepared);
  if (plan.kind === 'control-throughput') return runControlThroughputWorkload(plan, services, prepared);
  if (plan.kind === 'parallel-consumer')
    return runParallelConsumer(
      plan,
      {
        brokers: services.brokers,
        commitIntervalMs: services.commitIntervalMs,
        timeoutMs: services.sizes.timeoutMs,
        log: services.log,
      },
      prepared,
    );
  return runChild(
    {
      ...specFor(plan, services, prepared.topic, prepared.endOffsets),
      memory: plan.kind === 'memory' ? { observeMs: services.sizes.memoryObserveMs, blockedPartition: 0 } : undefined,
    },
    { cpuProfileDir: services.cpuProfileDir },
  );
}

import type { OrderingMode } from '@warden/consumer';
import type { WorkloadKind } from './protocol';
import type { TopicLayout } from './records';

// What the bench runs, as data: the topics to pre-produce and the workloads, in a full and a quick size.
// Every setting the workloads depend on is decided here, in one place, and printed with the table.

export type BenchMode = 'full' | 'quick';

export interface BenchSizes {
  /** Records of the throughput topics (workloads 1-4 and 7). */
  throughputRecords: number;
  /** Records of the simulated-I/O topic (workload 6) and how many of them the raw companion reads. */
  ioRecords: number;
  rawIoRecords: number;
  keyedRetryRecords: number;
  /** Records behind the blocker in workload 8, and healthy records in each other partition. */
  memoryBacklog: number;
  memoryHealthyPerPartition: number;
  memoryObserveMs: number;
  pipelineRecords: number;
  /** Sampler rounds measured by (10) (the first, which connects, is reported apart) and their spacing. */
  samplerRounds: number;
  samplerIntervalMs: number;
  /** Rounds measured by (10r), the read path at its largest size. */
  samplerReadRounds: number;
  /** (10s): groups of the generated fleet (x SCALE_PARTITIONS) and the rounds measured (the first is reported apart). */
  scaleGroups: number;
  scaleRounds: number;
  /** Timed calls of each read in (11a) and (11b), after a few untimed warm-up calls. */
  apiIterations: number;
  /** Operator actions timed by (12) and (13). */
  actionRounds: number;
  /** Dead letters redriven by (16) and (16u). */
  redriveRecords: number;
  /** (14): time the instance runs before its window, and the window in state intervals (60 s at the default 5 s). */
  controlTrafficWarmupMs: number;
  controlTrafficWindowStates: number;
  /** Rounds of the throughput workloads; each row reports the median round. */
  repeat: number;
  /** Per-workload child timeout. */
  timeoutMs: number;
}

export const SIZES: Record<BenchMode, BenchSizes> = {
  full: {
    throughputRecords: 200_000,
    ioRecords: 40_000,
    rawIoRecords: 3_000,
    keyedRetryRecords: 50_000,
    memoryBacklog: 1_000_000,
    memoryHealthyPerPartition: 10_000,
    memoryObserveMs: 20_000,
    pipelineRecords: 60_000,
    samplerRounds: 31,
    samplerIntervalMs: 5_000,
    samplerReadRounds: 11,
    scaleGroups: 2_000,
    scaleRounds: 21,
    apiIterations: 300,
    actionRounds: 20,
    redriveRecords: 20_000,
    controlTrafficWarmupMs: 20_000,
    controlTrafficWindowStates: 12,
    repeat: 5,
    timeoutMs: 300_000,
  },
  quick: {
    throughputRecords: 10_000,
    ioRecords: 4_000,
    rawIoRecords: 600,
    keyedRetryRecords: 10_000,
    memoryBacklog: 50_000,
    memoryHealthyPerPartition: 1_000,
    memoryObserveMs: 1_000,
    pipelineRecords: 2_000,
    samplerRounds: 3,
    samplerIntervalMs: 250,
    samplerReadRounds: 3,
    scaleGroups: 100,
    scaleRounds: 3,
    apiIterations: 10,
    actionRounds: 3,
    redriveRecords: 4_000,
    controlTrafficWarmupMs: 5_000,
    controlTrafficWindowStates: 2,
    repeat: 1,
    timeoutMs: 60_000,
  },
};

export const PARTITIONS = 6;
/**
 * (9): the batch pipeline's budgets. A batch's fixed costs (one upsert statement, one produce request, its
 * share of a commit) are paid per batch, so batches the size of a fetch or more (raw kafkajs hands (9r) about
 * 2,500–3,300 records per call here) cost per record what (9r) pays; one batch per partition in flight. The pending
 * bound (delivered, not yet committed) holds a second fetch beside the batch in flight: below the in-flight
 * budget, every partition pauses after each fetch until its batch completed and committed, and fetch, store,
 * publish and commit run one after another. At two batches of 5,000 it holds a whole partition of this topic
 * (docs/decisions/0025-batch-pipeline-throughput.md has the measurements).
 */
export const PIPELINE_BATCH_SIZE = 5_000;
export const PIPELINE_IN_FLIGHT = 30_000;
export const PIPELINE_IN_FLIGHT_PER_PARTITION = 5_000;
export const PIPELINE_PENDING_PER_PARTITION = 2 * PIPELINE_IN_FLIGHT_PER_PARTITION;
/** (9)'s targets: records/s, and its share of (9r) measured in the same run. */
export const PIPELINE_TARGET_RECORDS_PER_SEC = 10_000;
export const PIPELINE_TARGET_OF_CEILING = 0.8;
/** Commit interval of every Warden workload (the library default is 1000 ms). */
export const BENCH_COMMIT_INTERVAL_MS = 1_000;
export const KEYED_RETRY_KEYS = 10;
export const KEYED_RETRY_ERROR_RATE = 0.1;
/**
 * Backoff of the keyed-retries workload: full jitter, base 2 ms, so a first retry draws 0 or 1 ms and later
 * ones 0–3, 0–7 ms…, up to 1 s. Each key is a serial lane and every record behind a retrying one waits with
 * it, so the time a retry holds its lane sets the latency
 * (docs/decisions/0003-transient-or-permanent-and-where-failures-go.md has the measurements behind the base).
 */
export const KEYED_RETRY_BACKOFF = { baseMs: 2, maxMs: 1_000 };
export const KEYED_RETRY_PACED_RATE = 10_000;
/** Records per produce request of the keyed-retries producer (unpaced it sends one request after the other). */
export const KEYED_RETRY_PRODUCE_CHUNK = 1_000;
export const IO_MS = 5;
export const IO_CONCURRENCY = 100;
/** (6)'s target: its share of IO_CONCURRENCY x 1000 / IO_MS records/s, first fetch to last commit. */
export const IO_TARGET_OF_IDEAL = 0.9;
/** The published figures of the per-key ordering system the keyed-retries workload reproduces, on its own hardware. */
export const PUBLISHED_FIGURES = { recordsPerSec: 14_027, p50Ms: 11.7 };

/**
 * (10): the sampler's target size: 100 groups, each committed on all partitions of a 50-partition
 * topic, sharing SAMPLER_TOPICS topics (workloads/sampler-round.ts says why not 100).
 */
export const SAMPLER_GROUPS = 100;
export const SAMPLER_PARTITIONS = 50;
export const SAMPLER_TOPICS = 10;
/**
 * (10r): the sampler's Kafka reads (listGroups, describeGroups, committed offsets, ListOffsets) on the real
 * broker at a size chosen as the largest this machine's broker should start (not yet confirmed by a run):
 * ten times (10)'s groups on twice its topics
 * (workloads/sampler-round.ts says why). Rounds: samplerReadRounds (every round commits for every group).
 */
export const SAMPLER_READ_GROUPS = 1_000;
export const SAMPLER_READ_TOPICS = 20;
/** (10): a round must take under this much sampler time. */
export const SAMPLER_ROUND_TARGET_MS = 1_000;
/**
 * (10s): the fleet-scale sampler round from a generated cluster state: 2,000 groups x 50 partitions in full
 * mode, each group on its own topic, a tenth of the groups busy in any one round (workloads/generated-cluster.ts).
 */
export const SCALE_PARTITIONS = 50;
export const SCALE_BUSY_SHARE = 0.1;
/** (10s): the round (compute + write) must stay inside the 5 s interval, and under this at p95. */
export const SCALE_ROUND_TARGET_MS = 2_500;
export const SCALE_ROUND_LIMIT_MS = 5_000;
/** (11): seeded history: 7 days of 5-second samples of one group's 50 partitions, with rollups. */
export const API_SEED = { days: 7, intervalMs: 5_000, partitions: 50 };
/** (11): each read must answer within this at p95. */
export const API_READ_TARGET_MS = 100;
/** (12): an action's outcome must be visible through the API within this at p95 (the UI polls every 500 ms on top). */
export const ACTION_ROUND_TRIP_TARGET_MS = 500;
/** (13): an action to the example service must be visible through the API within this at p95. */
export const SERVICE_ACTION_ROUND_TRIP_TARGET_MS = 1_000;
/** (14): the instance's partitions, the records per second produced to them meanwhile, and the traffic target. */
export const CONTROL_TRAFFIC_PARTITIONS = 12;
export const CONTROL_TRAFFIC_PRODUCE_PER_SEC = 500;
export const CONTROL_TRAFFIC_TARGET_BYTES_PER_SEC = 1_024;
/** (15): records/s with the control plane on over off (the geometric mean of the run's back-to-back pairs' ratios). */
export const CONTROL_THROUGHPUT_TARGET_RATIO = 0.97;
/** (11o): an overview page of the fleet (SIZES.scaleGroups groups x SCALE_PARTITIONS) over HTTP, at p95. */
export const OVERVIEW_PAGE_TARGET_MS = 150;
/** (16): the redrive job's rate, and how far from it its achieved rate (claim to end) may be. */
export const REDRIVE_BENCH_RATE_PER_SEC = 2_000;
export const REDRIVE_RATE_TOLERANCE = 0.1;
/** (16u): the job's rate is REDRIVE_RATE_PER_SEC's maximum, which no batch waits for; records/s at least this. */
export const REDRIVE_UNTHROTTLED_RATE_PER_SEC = 100_000;
export const REDRIVE_UNTHROTTLED_TARGET_RECORDS_PER_SEC = 5_000;

/**
 * Parallel Consumer's maxConcurrency (its worker threads) on the no-op topics: its default. Measured on this machine
 * against 64 (Warden's default maxInFlight) in docs/decisions/0034-parallel-consumer-as-bench-peer.md.
 */
export const PC_NO_OP_CONCURRENCY = 16;
/** Warden ÷ Parallel Consumer targets per shared workload: level at least, 10% ahead on (6). */
export const PC_RATIO_TARGETS: Readonly<Record<string, number>> = { '2': 1.0, '3b': 1.0, '4': 1.0, '6': 1.1 };

export type LayoutId = 'keys10k' | 'keys10kLong' | 'keys10' | 'poison' | 'io' | 'rawIo' | 'memory' | 'pipeline';

export interface WorkloadPlan {
  id: string;
  title: string;
  kind: WorkloadKind;
  /** The pre-produced topic; null for keyed-retries, which produces while it consumes. */
  layout: LayoutId | null;
  handlerMs: number;
  rawPartitionsConcurrently?: number;
  ordering?: OrderingMode;
  maxInFlight?: number;
  maxInFlightPerPartition?: number;
  maxPendingPerPartition?: number;
  batchSize?: number;
  watchedPartitions?: number[];
  /** keyed-retries: records per second of the producer; null = as fast as it can. */
  paceRecordsPerSec?: number | null;
  /** keyed-retries: share of handler attempts failing transiently (default KEYED_RETRY_ERROR_RATE). */
  transientErrorRate?: number;
  /** Run once per round (throughput workloads) rather than once per bench. */
  repeated: boolean;
  /** sampler-round: groups and shared topics other than (10)'s SAMPLER_GROUPS and SAMPLER_TOPICS, run samplerReadRounds rounds. */
  sampler?: { groups: number; topics: number };
  /** api-reads: which server function behind which route. */
  read?: 'group-detail' | 'lag-series-24h';
  /** parallel-consumer: the Warden workload it runs beside, on the same topic and ordering; its ratio is Warden ÷ this. */
  peerOf?: string;
  /** redrive: the job's rate (records/s). */
  redriveRatePerSec?: number;
}

/** Workloads whose records/s compares with (1)'s: every one that counts records but a redrive (a rate it keeps to). */
export function isRatedAgainstRaw(plan: Pick<WorkloadPlan, 'kind'>): boolean {
  return !isTimingWorkload(plan) && plan.kind !== 'redrive';
}

/** Workloads that time operations rather than count records: no records/s, no ratio to (1). */
export function isTimingWorkload(plan: Pick<WorkloadPlan, 'kind'>): boolean {
  return (
    plan.kind === 'sampler-round' ||
    plan.kind === 'sampler-scale' ||
    plan.kind === 'sampler-shards' ||
    plan.kind === 'api-reads' ||
    plan.kind === 'overview-http' ||
    plan.kind === 'action-round-trip' ||
    plan.kind === 'service-action-round-trip' ||
    plan.kind === 'control-traffic'
  );
}

/** (15)'s topic holds this many times (2)'s records. */
export const CONTROL_THROUGHPUT_SCALE = 5;

export function layouts(sizes: BenchSizes): Record<LayoutId, TopicLayout> {
  const n = sizes.throughputRecords;
  return {
    keys10k: { name: 'keys10k', partitions: PARTITIONS, records: n, keys: 10_000 },
    // keys10k's shape, CONTROL_THROUGHPUT_SCALE times as long: each of (15)'s windows lasts seconds, so the
    // control plane's start inside its 'on' windows (its reader joining, its producer connecting) is a small part.
    keys10kLong: { name: 'keys10k-long', partitions: PARTITIONS, records: n * CONTROL_THROUGHPUT_SCALE, keys: 10_000 },
    keys10: { name: 'keys10', partitions: PARTITIONS, records: n, keys: 10 },
    // Partitions 1-5 hold exactly what keys10k's do; partition 0 starts with the poison record.
    poison: { name: 'poison', partitions: PARTITIONS, records: n, keys: 10_000, poisonHeadPartition: 0 },
    io: { name: 'io', partitions: PARTITIONS, records: sizes.ioRecords, keys: 1_000 },
    // Fewer records of the same shape: the raw consumer is an order of magnitude slower at this.
    rawIo: { name: 'io', partitions: PARTITIONS, records: sizes.rawIoRecords, keys: 1_000 },
    memory: {
      name: 'memory',
      partitions: PARTITIONS,
      records: sizes.memoryBacklog,
      keys: 1_000,
      onlyPartition: 0,
      recordsPerOtherPartition: sizes.memoryHealthyPerPartition,
      blockerHeadPartition: 0,
    },
    pipeline: { name: 'pipeline', partitions: PARTITIONS, records: sizes.pipelineRecords, keys: 1_000 },
  };
}

const OTHER_FIVE = [1, 2, 3, 4, 5];

export const WORKLOADS: readonly WorkloadPlan[] = [
  {
    id: '1',
    title: 'raw kafkajs eachBatch, no-op, commit per batch',
    kind: 'raw-kafkajs',
    layout: 'keys10k',
    handlerMs: 0,
    repeated: true,
  },
  {
    id: '2',
    title: 'Warden unordered, no-op',
    kind: 'warden',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'unordered',
    repeated: true,
  },
  {
    id: '3a',
    title: 'Warden key mode, 10 keys, no-op',
    kind: 'warden',
    layout: 'keys10',
    handlerMs: 0,
    ordering: 'key',
    repeated: true,
  },
  {
    id: '3b',
    title: 'Warden key mode, 10,000 keys, no-op',
    kind: 'warden',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'key',
    repeated: true,
  },
  {
    id: '4',
    title: 'Warden partition mode, no-op',
    kind: 'warden',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'partition',
    repeated: true,
  },
  {
    id: '5',
    title: 'keyed retries: 10 keys, 10% transient errors, producing meanwhile',
    kind: 'keyed-retries',
    layout: null,
    handlerMs: 0,
    ordering: 'key',
    paceRecordsPerSec: null,
    repeated: false,
  },
  {
    id: '5p',
    title: `keyed retries, producer paced at ${KEYED_RETRY_PACED_RATE.toLocaleString('en-US')}/s`,
    kind: 'keyed-retries',
    layout: null,
    handlerMs: 0,
    ordering: 'key',
    paceRecordsPerSec: KEYED_RETRY_PACED_RATE,
    repeated: false,
  },
  {
    // The published throughput as a steady rate: its 11.7 ms median was measured while keeping up with it.
    id: '5s',
    title: `keyed retries, producer paced at the published ${PUBLISHED_FIGURES.recordsPerSec.toLocaleString('en-US')}/s`,
    kind: 'keyed-retries',
    layout: null,
    handlerMs: 0,
    ordering: 'key',
    paceRecordsPerSec: PUBLISHED_FIGURES.recordsPerSec,
    repeated: false,
  },
  {
    // The latency floor of (5p): the same producer and consumer without injected failures.
    id: '5z',
    title: `keyed retries, producer paced at ${KEYED_RETRY_PACED_RATE.toLocaleString('en-US')}/s, no failures`,
    kind: 'keyed-retries',
    layout: null,
    handlerMs: 0,
    ordering: 'key',
    paceRecordsPerSec: KEYED_RETRY_PACED_RATE,
    transientErrorRate: 0,
    repeated: false,
  },
  {
    id: '6',
    title: `Warden key mode, 1,000 keys, ${IO_MS} ms I/O, concurrency ${IO_CONCURRENCY}`,
    kind: 'warden',
    layout: 'io',
    handlerMs: IO_MS,
    ordering: 'key',
    maxInFlight: IO_CONCURRENCY,
    maxInFlightPerPartition: IO_CONCURRENCY,
    repeated: true,
  },
  {
    id: '6r',
    title: `raw kafkajs, ${IO_MS} ms I/O, ${PARTITIONS} partitions concurrently`,
    kind: 'raw-kafkajs',
    layout: 'rawIo',
    handlerMs: IO_MS,
    rawPartitionsConcurrently: PARTITIONS,
    repeated: false,
  },
  {
    id: '7',
    title: 'Warden unordered, poison at the head of partition 0',
    kind: 'warden',
    layout: 'poison',
    handlerMs: 0,
    ordering: 'unordered',
    watchedPartitions: OTHER_FIVE,
    repeated: true,
  },
  {
    id: '8',
    title: 'Warden, one partition blocked, backlog waiting',
    kind: 'memory',
    layout: 'memory',
    handlerMs: 0,
    ordering: 'unordered',
    repeated: false,
  },
  {
    id: '9',
    title: `full pipeline: batched Postgres upsert + result publish, key mode, batches of ${PIPELINE_BATCH_SIZE}, ${PIPELINE_IN_FLIGHT} in flight (${PIPELINE_IN_FLIGHT_PER_PARTITION} per partition), ${PIPELINE_PENDING_PER_PARTITION} pending per partition`,
    kind: 'pipeline',
    layout: 'pipeline',
    handlerMs: 0,
    ordering: 'key',
    maxInFlight: PIPELINE_IN_FLIGHT,
    maxInFlightPerPartition: PIPELINE_IN_FLIGHT_PER_PARTITION,
    maxPendingPerPartition: PIPELINE_PENDING_PER_PARTITION,
    batchSize: PIPELINE_BATCH_SIZE,
    repeated: true,
  },
  {
    id: '9r',
    title: 'raw kafkajs + Postgres: the same batched upsert + result publish, no guarantees, commit per batch',
    kind: 'raw-pipeline',
    layout: 'pipeline',
    handlerMs: 0,
    repeated: true,
  },
  {
    id: '2pc',
    title: `Confluent Parallel Consumer unordered, no-op, maxConcurrency ${PC_NO_OP_CONCURRENCY}`,
    kind: 'parallel-consumer',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'unordered',
    maxInFlight: PC_NO_OP_CONCURRENCY,
    peerOf: '2',
    repeated: true,
  },
  {
    id: '3bpc',
    title: `Confluent Parallel Consumer key mode, 10,000 keys, no-op, maxConcurrency ${PC_NO_OP_CONCURRENCY}`,
    kind: 'parallel-consumer',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'key',
    maxInFlight: PC_NO_OP_CONCURRENCY,
    peerOf: '3b',
    repeated: true,
  },
  {
    id: '4pc',
    title: `Confluent Parallel Consumer partition mode, no-op, maxConcurrency ${PC_NO_OP_CONCURRENCY}`,
    kind: 'parallel-consumer',
    layout: 'keys10k',
    handlerMs: 0,
    ordering: 'partition',
    maxInFlight: PC_NO_OP_CONCURRENCY,
    peerOf: '4',
    repeated: true,
  },
  {
    id: '6pc',
    title: `Confluent Parallel Consumer key mode, 1,000 keys, ${IO_MS} ms I/O (Thread.sleep), maxConcurrency ${IO_CONCURRENCY}`,
    kind: 'parallel-consumer',
    layout: 'io',
    handlerMs: IO_MS,
    ordering: 'key',
    maxInFlight: IO_CONCURRENCY,
    peerOf: '6',
    repeated: true,
  },
  {
    id: '10',
    title: `sampler round: ${SAMPLER_GROUPS} groups x ${SAMPLER_PARTITIONS} partitions, real broker and Postgres`,
    kind: 'sampler-round',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '10r',
    title: `sampler read path: ${SAMPLER_READ_GROUPS.toLocaleString('en-US')} groups x ${SAMPLER_PARTITIONS} partitions on ${SAMPLER_READ_TOPICS} topics, real broker, real Postgres`,
    kind: 'sampler-round',
    layout: null,
    handlerMs: 0,
    repeated: false,
    sampler: { groups: SAMPLER_READ_GROUPS, topics: SAMPLER_READ_TOPICS },
  },
  {
    id: '10s',
    title: `sampler round at fleet size: ${SIZES.full.scaleGroups.toLocaleString('en-US')} groups x ${SCALE_PARTITIONS} partitions (quick: ${SIZES.quick.scaleGroups}), generated cluster state, real Postgres`,
    kind: 'sampler-scale',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '10h',
    title: `sharded sampling: a generated state of ${SIZES.full.scaleGroups.toLocaleString('en-US')} groups x ${SCALE_PARTITIONS} partitions (quick: ${SIZES.quick.scaleGroups}) split over two instances (8 shards), then one killed`,
    kind: 'sampler-shards',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '11a',
    title: `GET /api/groups/{id} (server function + JSON), ${API_SEED.days} days x ${API_SEED.partitions} partitions seeded`,
    kind: 'api-reads',
    layout: null,
    handlerMs: 0,
    repeated: false,
    read: 'group-detail',
  },
  {
    id: '11b',
    title: `24-hour lag series (server function + JSON), ${API_SEED.days} days x ${API_SEED.partitions} partitions seeded`,
    kind: 'api-reads',
    layout: null,
    handlerMs: 0,
    repeated: false,
    read: 'lag-series-24h',
  },
  {
    id: '11o',
    title: `GET /api/groups over HTTP against the built dashboard: pages of 100 of ${SIZES.full.scaleGroups.toLocaleString('en-US')} groups x ${SCALE_PARTITIONS} partitions (quick: ${SIZES.quick.scaleGroups}), from the stored summaries`,
    kind: 'overview-http',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '12',
    title: 'operator action round trip: skip requested → applied by the worker → visible through the API',
    kind: 'action-round-trip',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '13',
    title:
      'operator action round trip to the example service (its own process, installed from the packed tarball): skip requested → applied by the service → visible through the API',
    kind: 'service-action-round-trip',
    layout: null,
    handlerMs: 0,
    repeated: false,
  },
  {
    id: '14',
    title: `control-plane traffic of one instance at steady state: ${CONTROL_TRAFFIC_PARTITIONS} partitions, ${CONTROL_TRAFFIC_PRODUCE_PER_SEC} records/s produced, default state interval`,
    kind: 'control-traffic',
    layout: null,
    handlerMs: 0,
    ordering: 'unordered',
    repeated: false,
  },
  {
    id: '15',
    title: `Warden unordered, no-op, control plane on (default state interval); each round off, on, on, off back to back on a topic ${CONTROL_THROUGHPUT_SCALE} times (2)'s size`,
    kind: 'control-throughput',
    layout: 'keys10kLong',
    handlerMs: 0,
    ordering: 'unordered',
    repeated: true,
  },
  {
    id: '16',
    title: `redrive of ${SIZES.full.redriveRecords.toLocaleString('en-US')} dead letters (quick: ${SIZES.quick.redriveRecords.toLocaleString('en-US')}) at ${REDRIVE_BENCH_RATE_PER_SEC.toLocaleString('en-US')}/s: one Kafka transaction per batch, real broker and Postgres`,
    kind: 'redrive',
    layout: null,
    handlerMs: 0,
    repeated: false,
    redriveRatePerSec: REDRIVE_BENCH_RATE_PER_SEC,
  },
  {
    id: '16u',
    title: `redrive of ${SIZES.full.redriveRecords.toLocaleString('en-US')} dead letters (quick: ${SIZES.quick.redriveRecords.toLocaleString('en-US')}), unthrottled (rate ${REDRIVE_UNTHROTTLED_RATE_PER_SEC.toLocaleString('en-US')}/s, the setting's maximum)`,
    kind: 'redrive',
    layout: null,
    handlerMs: 0,
    repeated: false,
    redriveRatePerSec: REDRIVE_UNTHROTTLED_RATE_PER_SEC,
  },
];

/** Workloads selected by id (all when `only` is empty); unknown ids are an error naming the known ones. */
export function selectWorkloads(only: readonly string[]): WorkloadPlan[] {
  if (only.length === 0) return [...WORKLOADS];
  const known = new Set(WORKLOADS.map((w) => w.id));
  const unknown = only.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new Error(`unknown workload(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  // Ratios need (1), (7) compares itself with (2) and a Parallel Consumer row with its Warden peer; timing
  // workloads and redrives need none of them.
  const selected = WORKLOADS.filter((w) => only.includes(w.id));
  const needsRaw = selected.some(isRatedAgainstRaw);
  const peers = selected.flatMap((w) => (w.peerOf === undefined ? [] : [w.peerOf]));
  const wanted = new Set([...only, ...(needsRaw ? ['1'] : []), ...(only.includes('7') ? ['2'] : []), ...peers]);
  return WORKLOADS.filter((w) => wanted.has(w.id));
}

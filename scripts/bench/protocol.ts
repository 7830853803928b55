import type { OrderingMode } from '@warden/consumer';
import type { LatencySummary } from './stats';

// What the orchestrator (main.ts) tells a workload child process and what the child answers. Each
// workload runs in its own child so its peak RSS is its own; the spec travels as one JSON argument and
// the answers over the IPC channel, so no module but lib/config/program-config.ts reads the environment.

export type WorkloadKind =
  | 'raw-kafkajs'
  | 'warden'
  | 'keyed-retries'
  | 'memory'
  | 'pipeline'
  | 'raw-pipeline'
  | 'sampler-round'
  | 'sampler-scale'
  | 'sampler-shards'
  | 'api-reads'
  | 'action-round-trip'
  | 'service-action-round-trip'
  | 'control-traffic'
  /** Warden's (2) run twice back to back, control plane off and on (workload-runs.ts); its children run 'warden'. */
  | 'control-throughput'
  | 'overview-http'
  /** A redrive job run by the worker's runner (worker/redrive/), dead letters written first. */
  | 'redrive'
  /** Confluent Parallel Consumer in a JVM of its own (parallel-consumer-runs.ts), not a Node child. */
  | 'parallel-consumer';

/** The sampler's SAMPLER_* settings (from config), as (10) and (10s) pass them on. */
export interface SamplerStateSettings {
  timeLagPoints: number;
  timeLagSpacingMs: number;
  rateWindowMs: number;
  exactTimeLagIntervalMs: number;
  exactTimeLagMaxPartitions: number;
}

export interface ChildSpec {
  workload: string;
  kind: WorkloadKind;
  brokers: string[];
  topic: string;
  /** End offset per partition: what "everything consumed" commits. */
  endOffsets: number[];
  /** Partitions whose completion ends the measurement; default all. */
  watchedPartitions?: number[];
  /** Simulated I/O per record (ms); 0 = no-op handler. */
  handlerMs: number;
  /** raw-kafkajs: partitionsConsumedConcurrently. */
  rawPartitionsConcurrently?: number;
  /** Warden settings (ignored by raw-kafkajs). */
  warden?: {
    ordering: OrderingMode;
    maxInFlight?: number;
    maxInFlightPerPartition?: number;
    maxPendingPerPartition?: number;
    /** handleBatch workloads: records per batch (default the core's). */
    batchSize?: number;
    commitIntervalMs: number;
    retry?: { baseMs: number; maxMs: number };
  };
  /** keyed-retries: records the orchestrator produces after the child reports ready; failure probability per attempt. */
  keyedRetries?: { records: number; keys: number; transientErrorRate: number };
  /** memory: how long to watch RSS once the healthy partitions are done. */
  memory?: { observeMs: number; blockedPartition: number };
  /** pipeline: the bench database and the results topic. */
  pipeline?: { databaseUrl: string; resultsTopic: string };
  /** sampler-round: the bench database, the groups' layout, rounds and the sampler's settings (from config). */
  sampler?: {
    databaseUrl: string;
    groups: number;
    /** Topics the groups share (group i commits on topic i mod topics). */
    topics: number;
    partitions: number;
    rounds: number;
    intervalMs: number;
    state: SamplerStateSettings;
  };
  /** sampler-scale and sampler-shards: the bench database, the generated fleet's size and busy share, rounds and the sampler's settings. */
  samplerScale?: {
    databaseUrl: string;
    groups: number;
    partitions: number;
    busyShare: number;
    rounds: number;
    intervalMs: number;
    /** SAMPLE_IDLE_STORE_MS. */
    idleStoreMs: number;
    state: SamplerStateSettings;
  };
  /** api-reads: the seeded database, the group, which read, how often, and the analysis settings (from config). */
  apiReads?: {
    databaseUrl: string;
    groupId: string;
    read: 'group-detail' | 'lag-series-24h';
    iterations: number;
    timeLagObjectiveMs: number | null;
    rateWindowMs: number;
  };
  /** overview-http: its own database, the fleet's size, the built dashboard's port, requests, the analysis settings. */
  overview?: {
    databaseUrl: string;
    groups: number;
    partitions: number;
    port: number;
    iterations: number;
    timeLagObjectiveMs: number | null;
    rateWindowMs: number;
  };
  /** action-round-trip: the bench database, the dead-letter topic, how many actions, the worker's poll interval. */
  actions?: { databaseUrl: string; dlqTopic: string; actions: number; pollIntervalMs: number };
  /** warden: the control plane on, with this prefix (its topics exist) and every other control setting at its default. */
  control?: { topicPrefix: string };
  /**
   * service-action-round-trip: Warden's database, the example service's own database, its topics and the
   * control prefix, its /readyz port, how many actions, the worker's poll interval.
   */
  serviceActions?: {
    databaseUrl: string;
    serviceDatabaseUrl: string;
    ordersTopic: string;
    resultsTopic: string;
    topicPrefix: string;
    servicePort: number;
    actions: number;
    pollIntervalMs: number;
  };
  /**
   * control-traffic: the control prefix (its topics exist), the produce load on the spec's topic, the warm-up,
   * the window in state intervals, and the bundled broker's home and ports for kafka-log-dirs (null: the
   * broker is not the bundled one; the broker's side is then read from log end offsets alone).
   */
  controlTraffic?: {
    topicPrefix: string;
    producePerSec: number;
    warmupMs: number;
    windowStates: number;
    logDirsBroker: { home: string; port: number; controllerPort: number } | null;
  };
  /**
   * redrive: the bench database, the dead-letter topic and the target topic (both `partitions` partitions,
   * made for this run), how many dead letters, and the job's rate.
   */
  redrive?: {
    databaseUrl: string;
    dlqTopic: string;
    targetTopic: string;
    partitions: number;
    records: number;
    ratePerSec: number;
  };
  /** Give up after this long (the child reports an error). */
  timeoutMs: number;
}

export interface RssSample {
  /** ms since the child's measurement started. */
  atMs: number;
  rssBytes: number;
}

export interface Measurement {
  /** Records the throughput counts. */
  records: number;
  /** Measurement window on the shared wall clock (epoch ms with sub-ms precision). */
  startEpochMs: number;
  endEpochMs: number;
  latency: LatencySummary;
  /** process.resourceUsage().maxRSS of the child, in bytes: the kernel's high-water mark. */
  peakRssBytes: number;
  /** RSS right before the consumer started (runtime, tsx and libraries loaded). */
  baselineRssBytes: number;
  /** Per partition: ms from start until its commit reached its end; null if it never did. */
  partitionDoneMs: Array<number | null>;
  details: Record<string, number | string | boolean | null>;
  rssTimeline?: RssSample[];
}

export type ChildMessage =
  { type: 'ready' } | { type: 'result'; measurement: Measurement } | { type: 'error'; message: string };

/** Shared wall clock with sub-millisecond precision, comparable across processes on one machine. */
export function epochNowMs(): number {
  return performance.timeOrigin + performance.now();
}

// What the soak samples every 10 s, and the parser for the workers' /metrics. Pure.

/** One reading of one process: a restarted worker is a new process with a new `process` name. */
export interface ProcessSample {
  /** Milliseconds from the start of the traffic. */
  atMs: number;
  /** `worker-0`, `worker-0 (2)` after its first restart, `dashboard`. */
  process: string;
  /** When this process started, in the same time base. */
  startedAtMs: number;
  rssBytes: number | null;
  heapUsedBytes: number | null;
  loopP99Seconds: number | null;
  activeHandles: number | null;
}

export interface SystemSample {
  atMs: number;
  /** Connections to the soak's database (pg_stat_activity). */
  pgConnections: number | null;
  /** Bytes per table (pg_total_relation_size; partitions summed into their parent). */
  tables: Record<string, number>;
  /** Bytes on disk per topic (the control topics and __consumer_offsets), summed over partitions and nodes. */
  topics: Record<string, number>;
  /** Each dashboard API request's duration in ms; failed requests are counted in apiErrors instead. */
  apiMs: number[];
  apiErrors: number;
}

/** The prom-client default metrics the soak reads from a worker's /metrics. */
export const WORKER_METRICS = {
  rssBytes: 'process_resident_memory_bytes',
  heapUsedBytes: 'nodejs_heap_size_used_bytes',
  loopP99Seconds: 'nodejs_eventloop_lag_p99_seconds',
  activeHandles: 'nodejs_active_handles_total',
} as const;

/**
 * The value of each named metric in Prometheus text exposition: the first sample of that exact name (with or
 * without labels); a name without a sample (or with a value that is not a number) is absent.
 */
export function readMetrics(text: string, names: readonly string[]): Map<string, number> {
  const wanted = new Set(names);
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || !wanted.has(match[1]!) || found.has(match[1]!)) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) found.set(match[1]!, value);
  }
  return found;
}

/** A worker's /metrics as one process sample's readings (null where the metric is missing). */
export function workerReadings(
  text: string,
): Pick<ProcessSample, 'rssBytes' | 'heapUsedBytes' | 'loopP99Seconds' | 'activeHandles'> {
  const values = readMetrics(text, Object.values(WORKER_METRICS));
  return {
    rssBytes: values.get(WORKER_METRICS.rssBytes) ?? null,
    heapUsedBytes: values.get(WORKER_METRICS.heapUsedBytes) ?? null,
    loopP99Seconds: values.get(WORKER_METRICS.loopP99Seconds) ?? null,
    activeHandles: values.get(WORKER_METRICS.activeHandles) ?? null,
  };
}

/** The nearest-rank percentile (0..100) of `values`; null when empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// Ports and data shapes of the pure consumer core. Nothing here knows kafkajs, Prisma or process.env:
// adapters in worker/kafka and worker/pipeline implement these ports.

/** Offsets are int64 decimal strings, as Kafka clients hand them out; never convert them to number. */
export type Offset = string;

export interface TopicPartition {
  topic: string;
  partition: number;
}

/** A record as delivered by the source, before admission. `value` is null for tombstones. */
export interface SourceRecord {
  topic: string;
  partition: number;
  offset: Offset;
  key: Buffer | null;
  value: Buffer | null;
  timestampMs: number;
  headers: Record<string, Buffer | string | undefined>;
}

/** Injected time. The core never calls Date.now or the global timers itself. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}
export type TimerHandle = unknown;

/** Random source in [0, 1), injected so backoff jitter is deterministic in tests. */
export type Random = () => number;

export interface CommitRequest {
  topic: string;
  partition: number;
  /** Next offset to read: last record of the completed prefix + 1. */
  offset: Offset;
  /** Compact encoding of completed offsets above `offset`, or null when it did not fit. */
  metadata: string | null;
}

/**
 * Control of the underlying consumer. Every call may reject; the core treats a rejected pause, seek or
 * commit it cannot retry as fatal: it stops admitting work and reports not ready (seed 000).
 */
export interface SourcePort {
  pause(tp: TopicPartition): void;
  resume(tp: TopicPartition): void;
  seek(tp: TopicPartition, offset: Offset): void;
  commit(requests: CommitRequest[]): Promise<void>;
}

export type OrderingMode = 'partition' | 'key' | 'unordered';
export type QuarantinePolicy = 'pause' | 'dead-letter';
export type ErrorClass = 'transient' | 'permanent';

/** Result of the admission check made before a record takes an execution slot. */
export type Admission<T> =
  | { ok: true; value: T; orderingKey: string | null }
  | { ok: false; reason: string; errorClass: string };

// Ports and data shapes of the pure consumer core. Nothing here knows kafkajs, Prisma or the environment:
// the kafkajs adapter (src/kafkajs) and a host's handler implement these ports.

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
 * commit it cannot retry as fatal: it stops admitting work and reports not ready, rather than consume past
 * input it could not hold back.
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
  { ok: true; value: T; orderingKey: string | null } | { ok: false; reason: string; errorClass: string };

// ---------------------------------------------------------------------------------------------------------
// Shapes the consumer core reports through its callbacks, events and snapshot.

/**
 * A partition stopped at one record that no automatic path could finish. A quarantine preserves the record for
 * an operator; it is not a recovery: the partition's healthy records behind it wait too.
 */
export interface QuarantineInfo {
  topic: string;
  partition: number;
  /** The quarantined record. The commit position never passes it while the quarantine holds. */
  offset: Offset;
  reason: string;
  /** The admission's errorClass for admission failures, 'permanent' for failures after admission. */
  errorClass: string;
  sinceMs: number;
  /** Handler attempts made before the quarantine (0 when the record failed admission). */
  attempts: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | string | undefined>;
  timestampMs: number;
}

export type QuarantineClearReason = 'resumed' | 'skipped' | 'seeked' | 'revoked';

export interface DeadLetterInfo {
  /** The admission errorClass, 'permanent' for an undeliverable failure result, 'stalled' for a stuck record. */
  errorClass: string;
  reason: string;
  attempts: number;
}

export interface HandlerContext {
  /** 1 for the first attempt; retries of a transient failure increase it. */
  attempt: number;
  /** Aborted when the core abandons the attempt (partition revoked, stall dead-letter, drain deadline). */
  signal?: AbortSignal;
}

/** One record of a `handleBatch` call: its admitted value, the record and its own attempt context. */
export interface BatchItem<T> {
  value: T;
  record: SourceRecord;
  context: HandlerContext;
  /**
   * Index in this batch of the record before this one in its ordering lane, or null when that record already
   * completed. A handler keeping order applies this record's effect only after that one's, and not at all when
   * that one failed: the core then runs this record again after it.
   */
  previous: number | null;
}

/**
 * The batch work, in one of two shapes:
 * - one promise per item, in the items' order, each settling that record alone (resolved: complete;
 *   rejected: that record's failure, classified and routed like a `handle` failure);
 * - one promise of the batch's outcomes (`BatchOutcomes`), when the records' outcomes are known together: no
 *   promise per record, which at tens of thousands of records a second is the cost that matters.
 * A throw, a rejected joint promise or a result of the wrong length fails every record of the batch with that
 * error.
 */
export type BatchHandler<T> = (batch: readonly BatchItem<T>[]) => readonly Promise<void>[] | Promise<BatchOutcomes>;

/** One entry per item, in the items' order: `null` when the record completed, else that record's failure. */
export type BatchOutcomes = readonly unknown[];

/** Which call currently owns a record: its handler, the failure-result publisher, or the dead-letter writer. */
export type RecordPhase = 'handle' | 'permanent-failure' | 'dead-letter';

export type CompletionOutcome =
  'handled' | 'failed-result' | 'dead-lettered' | 'skipped-metadata' | 'skipped-completed' | 'skipped-operator';

/** Where a remembered "already complete" offset came from. */
export type SkipOrigin = 'metadata' | 'completed' | 'operator';

export type DropReason = 'not-owned' | 'quarantined' | 'rebalancing' | 'draining' | 'fatal';

export type RedeliveryReason = 'rebalance' | 'quarantine' | 'resume' | 'skip';

interface RecordRef {
  topic: string;
  partition: number;
  offset: Offset;
}

export type CoreEvent =
  | (RecordRef & { type: 'completed'; outcome: CompletionOutcome; attempts: number })
  | (RecordRef & {
      type: 'retry-scheduled';
      phase: RecordPhase;
      attempt: number;
      delayMs: number;
      error: unknown;
    })
  | (RecordRef & { type: 'permanent-failure'; phase: RecordPhase; error: unknown })
  | (RecordRef & { type: 'admission-failed'; reason: string; errorClass: string })
  | (RecordRef & { type: 'dead-lettered'; errorClass: string; reason: string })
  | (RecordRef & { type: 'stall-dead-letter'; ageMs: number })
  | (RecordRef & { type: 'late-completion-ignored'; phase: RecordPhase })
  | (RecordRef & { type: 'metadata-overflow' })
  | { type: 'quarantined'; quarantine: QuarantineInfo }
  | (TopicPartition & { type: 'quarantine-cleared'; reason: QuarantineClearReason; seekOffset: Offset | null })
  | (TopicPartition & { type: 'redelivered'; count: number; reason: RedeliveryReason })
  | (TopicPartition & { type: 'batch-dropped'; count: number; reason: DropReason })
  | (TopicPartition & { type: 'backpressure'; paused: boolean; pending: number; bufferedBytes: number })
  /** `durationMs`: from handing the requests to the source until it acknowledged or failed them. */
  | { type: 'committed'; requests: CommitRequest[]; durationMs: number }
  | { type: 'commit-failed'; requests: CommitRequest[]; error: unknown; errorClass: ErrorClass; durationMs: number }
  | { type: 'callback-failed'; callback: 'onQuarantine' | 'onQuarantineCleared'; error: unknown }
  | (TopicPartition & { type: 'source-call-failed'; call: 'resume'; error: unknown })
  | { type: 'fatal'; reason: string };

export interface StallInfo {
  topic: string;
  partition: number;
  offset: Offset;
  /** Time since the record was delivered to the core. */
  ageMs: number;
  state: 'buffered' | 'running' | 'retry-wait' | 'quarantined';
  phase: RecordPhase;
  attempts: number;
}

/**
 * Whether the core moves the work it holds (readiness reads it). Quarantined partitions are left out: their
 * records are held on purpose until an operator acts.
 */
export interface WorkProgress {
  /** Unfinished records (waiting, running or in a retry delay) of owned partitions not in quarantine. */
  heldRecords: number;
  /** Delivery time of the oldest of them: the work has been held at least since then; null when none. */
  heldSinceMs: number | null;
  /** When the core last completed a record (any outcome), null before the first. */
  lastCompletedAtMs: number | null;
}

export interface PartitionSnapshot {
  topic: string;
  partition: number;
  /** Last offset the broker acknowledged for this partition ("next to read"), null before the first commit. */
  watermark: Offset | null;
  /** What the next commit would store, null when nothing is committable. */
  committableOffset: Offset | null;
  highestCompleted: Offset | null;
  /** Delivered and not yet committed. */
  deliveredCount: number;
  inFlight: number;
  completedUncommitted: number;
  /** Admitted records waiting for a lane or an execution slot. */
  buffered: number;
  /** Payload bytes of delivered records that are not complete yet. */
  bufferedBytes: number;
  retryWaiting: number;
  lanes: number;
  oldestUnfinishedOffset: Offset | null;
  oldestUnfinishedAgeMs: number | null;
  /** Paused by backpressure (a quarantine pauses too; see `quarantine`). */
  paused: boolean;
  quarantine: QuarantineInfo | null;
}

export interface CoreCounters {
  completed: number;
  handled: number;
  retries: number;
  permanentFailures: number;
  admissionFailures: number;
  deadLettered: number;
  stallDeadLetters: number;
  quarantines: number;
  redelivered: number;
  skippedFromMetadata: number;
  skippedCompleted: number;
  skippedByOperator: number;
  droppedDeliveries: number;
  commits: number;
  commitFailures: number;
}

export type CoreState = 'running' | 'rebalancing' | 'draining' | 'closed' | 'fatal';

export interface CoreSnapshot {
  nowMs: number;
  state: CoreState;
  fatalReason: string | null;
  /** Execution slots in use, including attempts of revoked partitions that have not settled yet. */
  inFlight: number;
  partitions: PartitionSnapshot[];
  counters: CoreCounters;
}

export interface DrainResult {
  timedOut: boolean;
  /** Calls still running when drain gave up; their completion is not committed by this drain. */
  abandonedCalls: number;
}

export interface OperatorActionResult {
  topic: string;
  partition: number;
  action: 'resumed' | 'skipped' | 'seeked';
  /** Where the source was told to continue reading. */
  seekOffset: Offset;
}

// Options of ConsumerCore, their defaults and validation. Invalid settings fail at construction, not later.

import { DEFAULT_BACKOFF, validateBackoff, type BackoffPolicy } from './backoff';
import { defaultClassifyError } from './classify-error';
import type {
  Admission,
  Clock,
  CoreEvent,
  DeadLetterInfo,
  ErrorClass,
  HandlerContext,
  OrderingMode,
  QuarantineClearReason,
  QuarantineInfo,
  QuarantinePolicy,
  Random,
  SourcePort,
  SourceRecord,
  TopicPartition,
} from './types';

export interface ConsumerCoreOptions<T> {
  source: SourcePort;
  clock: Clock;
  random: Random;
  /** Decode, validate and derive the result key before the record takes an execution slot. Must be pure. */
  admit(record: SourceRecord): Admission<T>;
  /** The work. Resolves when the record is complete (its result delivery acknowledged). */
  handle(value: T, record: SourceRecord, ctx: HandlerContext): Promise<void>;
  classifyError?: (err: unknown) => ErrorClass;
  /** Classifies `source.commit` rejections; 'permanent' makes the core fatal. Defaults to `classifyError`. */
  classifyCommitError?: (err: unknown) => ErrorClass;
  /**
   * Publishes the failure result of an admitted record whose handler failed permanently; the record completes
   * when it resolves. Without it, such records go to the quarantine policy directly.
   */
  onPermanentFailure?: (value: T, record: SourceRecord, err: unknown) => Promise<void>;
  /** What happens to a record no automatic path can finish. Default 'pause'. */
  quarantinePolicy?: QuarantinePolicy;
  /** Durable copy of a record no other path can finish. Required for 'dead-letter' and stall dead-letters. */
  deadLetter?: (record: SourceRecord, info: DeadLetterInfo) => Promise<void>;
  onQuarantine?: (quarantine: QuarantineInfo) => void | Promise<void>;
  onQuarantineCleared?: (tp: TopicPartition, reason: QuarantineClearReason) => void | Promise<void>;
  onEvent?: (event: CoreEvent) => void;
  /** Default 'key'. */
  ordering?: OrderingMode;
  /** Global execution slots (handler calls running at once). Default 64. */
  maxInFlight?: number;
  /** Execution slots one partition may hold. Default 16. */
  maxInFlightPerPartition?: number;
  /** Delivered-but-uncommitted records held per partition before it is paused. Default 1000. */
  maxPendingPerPartition?: number;
  /** Unfinished payload bytes held per partition before it is paused. Default 8 MiB. */
  maxBufferedBytesPerPartition?: number;
  /** Default { baseMs: 100, maxMs: 30000 }. */
  retry?: BackoffPolicy;
  /** Default 1000. */
  commitIntervalMs?: number;
  /** Budget of the commit metadata string (broker limit is 4096 by default). Default 4000. */
  metadataMaxBytes?: number;
  /** Default 30000. */
  stallThresholdMs?: number;
  /** Dead-letter a record running or retrying this long since it first started. Default null (off). */
  stallDeadLetterAfterMs?: number | null;
  /** How often stuck records are checked when `stallDeadLetterAfterMs` is set. Default 1000. */
  stallCheckIntervalMs?: number;
}

export const CONSUMER_CORE_DEFAULTS = {
  ordering: 'key' as OrderingMode,
  quarantinePolicy: 'pause' as QuarantinePolicy,
  maxInFlight: 64,
  maxInFlightPerPartition: 16,
  maxPendingPerPartition: 1000,
  maxBufferedBytesPerPartition: 8 * 1024 * 1024,
  retry: DEFAULT_BACKOFF,
  commitIntervalMs: 1000,
  metadataMaxBytes: 4000,
  stallThresholdMs: 30_000,
  stallDeadLetterAfterMs: null as number | null,
  stallCheckIntervalMs: 1000,
} as const;

export interface CoreSettings {
  classifyError: (err: unknown) => ErrorClass;
  classifyCommitError: (err: unknown) => ErrorClass;
  ordering: OrderingMode;
  quarantinePolicy: QuarantinePolicy;
  maxInFlight: number;
  maxInFlightPerPartition: number;
  maxPendingPerPartition: number;
  maxBufferedBytesPerPartition: number;
  retry: BackoffPolicy;
  commitIntervalMs: number;
  metadataMaxBytes: number;
  stallThresholdMs: number;
  stallDeadLetterAfterMs: number | null;
  stallCheckIntervalMs: number;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be >= 0, got ${value}`);
  return value;
}

/** Applies defaults and validates; throws RangeError / Error on settings the core cannot honour. */
export function resolveCoreSettings<T>(options: ConsumerCoreOptions<T>): CoreSettings {
  const defaults = CONSUMER_CORE_DEFAULTS;
  const ordering = options.ordering ?? defaults.ordering;
  const quarantinePolicy = options.quarantinePolicy ?? defaults.quarantinePolicy;
  if (!['partition', 'key', 'unordered'].includes(ordering)) throw new RangeError(`unknown ordering ${ordering}`);
  if (!['pause', 'dead-letter'].includes(quarantinePolicy))
    throw new RangeError(`unknown quarantinePolicy ${quarantinePolicy}`);
  const retry = options.retry ?? defaults.retry;
  validateBackoff(retry);
  const stallDeadLetter = options.stallDeadLetterAfterMs ?? defaults.stallDeadLetterAfterMs;
  const classifyError = options.classifyError ?? defaultClassifyError;

  const settings: CoreSettings = {
    classifyError,
    classifyCommitError: options.classifyCommitError ?? classifyError,
    ordering,
    quarantinePolicy,
    maxInFlight: positiveInteger('maxInFlight', options.maxInFlight ?? defaults.maxInFlight),
    maxInFlightPerPartition: positiveInteger(
      'maxInFlightPerPartition',
      options.maxInFlightPerPartition ?? defaults.maxInFlightPerPartition,
    ),
    maxPendingPerPartition: positiveInteger(
      'maxPendingPerPartition',
      options.maxPendingPerPartition ?? defaults.maxPendingPerPartition,
    ),
    maxBufferedBytesPerPartition: positiveInteger(
      'maxBufferedBytesPerPartition',
      options.maxBufferedBytesPerPartition ?? defaults.maxBufferedBytesPerPartition,
    ),
    retry,
    commitIntervalMs: nonNegative('commitIntervalMs', options.commitIntervalMs ?? defaults.commitIntervalMs),
    metadataMaxBytes: nonNegative('metadataMaxBytes', options.metadataMaxBytes ?? defaults.metadataMaxBytes),
    stallThresholdMs: nonNegative('stallThresholdMs', options.stallThresholdMs ?? defaults.stallThresholdMs),
    stallDeadLetterAfterMs: stallDeadLetter === null ? null : nonNegative('stallDeadLetterAfterMs', stallDeadLetter),
    stallCheckIntervalMs: positiveInteger(
      'stallCheckIntervalMs',
      options.stallCheckIntervalMs ?? defaults.stallCheckIntervalMs,
    ),
  };
  if (quarantinePolicy === 'dead-letter' && !options.deadLetter) {
    throw new Error("quarantinePolicy 'dead-letter' needs a deadLetter port");
  }
  if (settings.stallDeadLetterAfterMs !== null && !options.deadLetter) {
    throw new Error('stallDeadLetterAfterMs needs a deadLetter port');
  }
  return settings;
}

// Options of ConsumerCore. The tunable ones are one table, `TUNABLES`: each row is the option's
// documentation, its default and the check a value must pass; the option type, the defaults and the resolved
// settings are derived from it. Invalid settings fail at construction, not later.

import { DEFAULT_BACKOFF, validateBackoff, type BackoffPolicy } from './backoff.js';
import { defaultClassifyError } from './classify-error.js';
import type {
  Admission,
  BatchHandler,
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
} from './types.js';

interface Tunable<V> {
  default: V;
  /** Returns the value when the core can honour it; throws a RangeError naming the option otherwise. */
  check: (name: string, value: V) => V;
}

function tunable<V>(defaultValue: V, check: (name: string, value: V) => V): Tunable<V> {
  return { default: defaultValue, check };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be >= 0, got ${value}`);
  return value;
}

function oneOf<V extends string>(...allowed: V[]): (name: string, value: V) => V {
  return (name, value) => {
    if (!allowed.includes(value)) throw new RangeError(`unknown ${name} ${value}`);
    return value;
  };
}

const TUNABLES = {
  /** How records of one partition are ordered: one lane per key, one per partition, or none. */
  ordering: tunable<OrderingMode>('key', oneOf('partition', 'key', 'unordered')),
  /** What happens to a record no automatic path can finish: quarantine its partition, or dead-letter it. */
  quarantinePolicy: tunable<QuarantinePolicy>('pause', oneOf('pause', 'dead-letter')),
  /** Global execution slots (handler calls running at once). */
  maxInFlight: tunable(64, positiveInteger),
  /** Execution slots one partition may hold. */
  maxInFlightPerPartition: tunable(16, positiveInteger),
  /** Delivered-but-uncommitted records held per partition before it is paused. */
  maxPendingPerPartition: tunable(1000, positiveInteger),
  /** Unfinished payload bytes held per partition before it is paused. */
  maxBufferedBytesPerPartition: tunable(8 * 1024 * 1024, positiveInteger),
  /** Backoff of transient failures (full jitter). */
  retry: tunable<BackoffPolicy>(DEFAULT_BACKOFF, (_name, policy) => {
    validateBackoff(policy);
    return policy;
  }),
  /** Automatic commits happen at most this often. */
  commitIntervalMs: tunable(1000, nonNegative),
  /** Budget of the commit metadata string (the broker's limit is 4096 by default). */
  metadataMaxBytes: tunable(4000, nonNegative),
  /** A partition whose oldest unfinished record was delivered longer ago than this is reported stalled. */
  stallThresholdMs: tunable(30_000, nonNegative),
  /** Dead-letter a record running or retrying this long since it first started; null: never. */
  stallDeadLetterAfterMs: tunable<number | null>(null, (name, value) =>
    value === null ? null : nonNegative(name, value),
  ),
  /** How often stuck records are checked when `stallDeadLetterAfterMs` is set. */
  stallCheckIntervalMs: tunable(1000, positiveInteger),
  /** Most records in one `handleBatch` call (each still takes its own execution slot). */
  batchSize: tunable(100, positiveInteger),
  /** How long a batch that is not full waits for more records; 0: it goes at the end of its scheduling turn. */
  batchLingerMs: tunable(0, nonNegative),
};

type Tunables = typeof TUNABLES;
type TunableValue<K extends keyof Tunables> = Tunables[K]['default'];
/** The tunable options with their documentation (a homomorphic mapping keeps each row's doc comment). */
type TunableOptions = { [K in keyof Tunables]?: TunableValue<K> };
type TunableSettings = { -readonly [K in keyof Tunables]: TunableValue<K> };

export interface ConsumerCoreOptions<T> extends TunableOptions {
  source: SourcePort;
  clock: Clock;
  random: Random;
  /** Decode, validate and derive the result key before the record takes an execution slot. Must be pure. */
  admit(record: SourceRecord): Admission<T>;
  /**
   * The work, one record per call (the default). Resolves when the record is complete (its result delivery
   * acknowledged). Exactly one of `handle` and `handleBatch` is given.
   */
  handle?: (value: T, record: SourceRecord, ctx: HandlerContext) => Promise<void>;
  /**
   * The work, up to `batchSize` records per call. Batches keep the ordering mode: a key lane ('key') or the
   * partition ('partition') contributes consecutive records in offset order, and a record completes only
   * after the records before it in its lane in the batch did; when one of those fails, the later ones are
   * run again after it (so handlers must be idempotent, as redelivery already requires).
   */
  handleBatch?: BatchHandler<T>;
  classifyError?: (err: unknown) => ErrorClass;
  /** Classifies `source.commit` rejections; 'permanent' makes the core fatal. Defaults to `classifyError`. */
  classifyCommitError?: (err: unknown) => ErrorClass;
  /**
   * Publishes the failure result of an admitted record whose handler failed permanently; the record completes
   * when it resolves. Without it, such records go to the quarantine policy directly.
   */
  onPermanentFailure?: (value: T, record: SourceRecord, err: unknown) => Promise<void>;
  /** Durable copy of a record no other path can finish. Required for 'dead-letter' and stall dead-letters. */
  deadLetter?: (record: SourceRecord, info: DeadLetterInfo) => Promise<void>;
  onQuarantine?: (quarantine: QuarantineInfo) => void | Promise<void>;
  onQuarantineCleared?: (tp: TopicPartition, reason: QuarantineClearReason) => void | Promise<void>;
  onEvent?: (event: CoreEvent) => void;
}

/** The default of every tunable option. */
export const CONSUMER_CORE_DEFAULTS = Object.freeze(
  Object.fromEntries(Object.entries(TUNABLES).map(([name, row]) => [name, row.default])) as {
    readonly [K in keyof Tunables]: TunableValue<K>;
  },
);

export interface CoreSettings extends TunableSettings {
  classifyError: (err: unknown) => ErrorClass;
  classifyCommitError: (err: unknown) => ErrorClass;
}

/** The names of the tunable options. */
export const TUNABLE_OPTION_NAMES: readonly string[] = Object.freeze(Object.keys(TUNABLES));

/**
 * Checks the tunable options present in `options` without resolving the rest; returns one message per value
 * the core could not honour (empty when every one is fine). Never throws.
 */
export function checkTunableOptions(options: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(TUNABLES) as Array<keyof Tunables>) {
    if (options[name] === undefined) continue;
    try {
      (TUNABLES[name] as Tunable<unknown>).check(name, options[name]);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  return problems;
}

/** Applies defaults and validates; throws RangeError / Error on settings the core cannot honour. */
export function resolveCoreSettings<T>(options: ConsumerCoreOptions<T>): CoreSettings {
  const tunables = {} as TunableSettings;
  for (const name of Object.keys(TUNABLES) as Array<keyof Tunables>) {
    // Rows differ in their value type; each row checks the value of its own option.
    const row = TUNABLES[name] as Tunable<unknown>;
    (tunables as Record<keyof Tunables, unknown>)[name] = row.check(name, options[name] ?? row.default);
  }
  if ((options.handle === undefined) === (options.handleBatch === undefined)) {
    throw new Error('give exactly one of handle and handleBatch');
  }
  if (tunables.quarantinePolicy === 'dead-letter' && !options.deadLetter) {
    throw new Error("quarantinePolicy 'dead-letter' needs a deadLetter port");
  }
  if (tunables.stallDeadLetterAfterMs !== null && !options.deadLetter) {
    throw new Error('stallDeadLetterAfterMs needs a deadLetter port');
  }
  const classifyError = options.classifyError ?? defaultClassifyError;
  return { ...tunables, classifyError, classifyCommitError: options.classifyCommitError ?? classifyError };
}

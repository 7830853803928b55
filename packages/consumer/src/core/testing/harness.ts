// Test harness: a ConsumerCore over a FakeSource and a ManualClock, with a handler whose every call is a
// deferred the test settles by hand.

import { ConsumerCore, type ConsumerCoreOptions } from '../consumer-core.js';
import type { CoreEvent, HandlerContext, SourceRecord, TopicPartition } from '../types.js';
import { FakeSource } from './fake-source.js';
import { flushMicrotasks, ManualClock } from './fake-clock.js';

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  readonly settled: boolean;
}

export function deferred<T = void>(): Deferred<T> {
  let settled = false;
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    promise,
    resolve: (value) => {
      settled = true;
      resolve(value);
    },
    reject: (error) => {
      settled = true;
      reject(error);
    },
    get settled() {
      return settled;
    },
  };
}

export interface RecordSpec {
  topic?: string;
  partition?: number;
  key?: string | null;
  value?: string | null;
  /** Makes the harness admission reject the record (like an input without a result key). */
  invalid?: boolean;
  timestampMs?: number;
}

export const TOPIC = 'events';

export function makeRecord(offset: string | number | bigint, spec: RecordSpec = {}): SourceRecord {
  const headers: SourceRecord['headers'] = {};
  if (spec.invalid) headers['invalid'] = '1';
  return {
    topic: spec.topic ?? TOPIC,
    partition: spec.partition ?? 0,
    offset: offset.toString(),
    key: spec.key === undefined || spec.key === null ? null : Buffer.from(spec.key),
    value: spec.value === null ? null : Buffer.from(spec.value ?? `value-${offset}`),
    timestampMs: spec.timestampMs ?? 0,
    headers,
  };
}

/** Records with consecutive offsets [from, from + count) of one partition. */
export function makeRecords(from: number, count: number, spec: RecordSpec = {}): SourceRecord[] {
  return Array.from({ length: count }, (_, index) => makeRecord(from + index, spec));
}

export interface TestValue {
  text: string | null;
}

export interface CallLog {
  kind: 'handle' | 'permanent-failure' | 'dead-letter';
  topic: string;
  partition: number;
  offset: string;
  attempt: number;
  signal?: AbortSignal;
  info?: unknown;
  deferred: Deferred;
}

export function tp(partition = 0, topic = TOPIC): TopicPartition {
  return { topic, partition };
}

export type HarnessOptions = Partial<ConsumerCoreOptions<TestValue>> & {
  /** Settle failure-result and dead-letter calls immediately with success (default true); false: by hand. */
  autoAckFailurePaths?: boolean;
  assign?: TopicPartition[];
  /** Batch mode: the harness gives `handleBatch` instead of `handle`; each record is still a call of its own. */
  batch?: boolean;
};

export function createHarness(options: HarnessOptions = {}) {
  const { autoAckFailurePaths = true, assign = [tp(0)], batch = false, ...overrides } = options;
  const clock = new ManualClock(1_000);
  const source = new FakeSource();
  const events: CoreEvent[] = [];
  const calls: CallLog[] = [];
  /** Batch mode: every handleBatch call, as `partition@offset` of its records in the order given. */
  const batches: string[][] = [];
  /** Batch mode: each batch's `previous` indices. */
  const batchPrevious: Array<Array<number | null>> = [];

  const track = (entry: Omit<CallLog, 'deferred'>, autoAck: boolean): Promise<void> => {
    const call: CallLog = { ...entry, deferred: deferred() };
    calls.push(call);
    if (autoAck) call.deferred.resolve();
    return call.deferred.promise;
  };

  const handleOne = (record: SourceRecord, ctx: HandlerContext): Promise<void> =>
    track(
      {
        kind: 'handle',
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        attempt: ctx.attempt,
        signal: ctx.signal,
      },
      false,
    );
  const work: Pick<ConsumerCoreOptions<TestValue>, 'handle' | 'handleBatch'> = batch
    ? {
        handleBatch: (items) => {
          batches.push(items.map(({ record }) => `${record.partition}@${record.offset}`));
          batchPrevious.push(items.map(({ previous }) => previous));
          return items.map(({ record, context }) => handleOne(record, context));
        },
      }
    : { handle: (_value, record, ctx) => handleOne(record, ctx) };

  const core = new ConsumerCore<TestValue>({
    source,
    clock,
    random: () => 0.5,
    admit: (record) =>
      record.headers['invalid'] !== undefined
        ? { ok: false, reason: 'result key missing', errorClass: 'missing-result-key' }
        : { ok: true, value: { text: record.value?.toString() ?? null }, orderingKey: record.key?.toString() ?? null },
    ...work,
    onPermanentFailure: (_value, record, err) =>
      track(
        {
          kind: 'permanent-failure',
          topic: record.topic,
          partition: record.partition,
          offset: record.offset,
          attempt: 0,
          info: err,
        },
        autoAckFailurePaths,
      ),
    deadLetter: (record, info) =>
      track(
        {
          kind: 'dead-letter',
          topic: record.topic,
          partition: record.partition,
          offset: record.offset,
          attempt: 0,
          info,
        },
        autoAckFailurePaths,
      ),
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  if (assign.length > 0) core.onAssignment(assign);

  const find = (kind: CallLog['kind'], offset: string | number, partition: number, topic: string): CallLog => {
    const matching = calls.filter(
      (call) =>
        call.kind === kind && call.offset === offset.toString() && call.partition === partition && call.topic === topic,
    );
    const open = matching.filter((call) => !call.deferred.settled);
    const call = open[open.length - 1];
    if (!call) throw new Error(`no open ${kind} call for ${topic}[${partition}]@${offset}`);
    return call;
  };

  return {
    clock,
    source,
    core,
    events,
    calls,
    batches,
    batchPrevious,
    /** Offsets of handler calls in start order (with repeats for retries). */
    started(partition?: number, topic = TOPIC): string[] {
      return calls
        .filter(
          (call) =>
            call.kind === 'handle' && call.topic === topic && (partition === undefined || call.partition === partition),
        )
        .map((call) => call.offset);
    },
    openHandles(): string[] {
      return calls
        .filter((call) => call.kind === 'handle' && !call.deferred.settled)
        .map((call) => `${call.partition}@${call.offset}`);
    },
    async succeed(
      offset: string | number,
      partition = 0,
      topic = TOPIC,
      kind: CallLog['kind'] = 'handle',
    ): Promise<void> {
      find(kind, offset, partition, topic).deferred.resolve();
      await flushMicrotasks();
    },
    async fail(
      offset: string | number,
      error: unknown,
      partition = 0,
      topic = TOPIC,
      kind: CallLog['kind'] = 'handle',
    ): Promise<void> {
      find(kind, offset, partition, topic).deferred.reject(error);
      await flushMicrotasks();
    },
    /** Open and settled calls of one kind. */
    callsOf(kind: CallLog['kind']): CallLog[] {
      return calls.filter((call) => call.kind === kind);
    },
    eventsOf<K extends CoreEvent['type']>(type: K): Extract<CoreEvent, { type: K }>[] {
      return events.filter((event): event is Extract<CoreEvent, { type: K }> => event.type === type);
    },
    partitionSnapshot(partition = 0, topic = TOPIC) {
      const found = core.snapshot().partitions.find((p) => p.partition === partition && p.topic === topic);
      if (!found) throw new Error(`no snapshot for ${topic}[${partition}]`);
      return found;
    },
  };
}

export function transientError(message = 'ECONNRESET while writing'): Error {
  return new Error(message);
}

export function permanentError(message = 'vector dimension mismatch'): Error {
  return new TypeError(message);
}

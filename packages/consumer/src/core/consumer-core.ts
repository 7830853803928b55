// The orchestration of the consumer core: admits delivered records, runs them under ordering and
// concurrency budgets, completes them, commits the completed prefix, isolates a broken partition, and
// handles rebalances and drain. The rules it follows live in their own parts: where a failure goes
// (failure-routing.ts), when a partition pauses (backpressure.ts) and how the source is told
// (source-control.ts), the calls in flight (call-tracker.ts), stuck records (stall-watch.ts), per-partition
// bookkeeping and the commit position (partition-state.ts), ordering lanes (lane-table.ts), commit timing
// (commit-scheduler.ts) and the counters (core-counters.ts). README.md beside it maps each rule to its code
// and test.
//
// Guarantees (each has a test):
// - The committed offset never passes a delivered record that is not complete (`nextCommitOffset`).
// - A record is complete only when its handler, its failure result or its dead-letter write resolved, or it
//   was known complete already (commit metadata, an earlier call) or an operator skipped it.
// - A record that fails admission never takes an execution slot. With the 'pause' policy its partition is
//   paused and rewound to it; other partitions keep flowing.
// - Within a lane (partition, key) records start in offset order, one at a time; a record waiting for a
//   retry keeps its lane, so a later record of the same lane never overtakes it. A retry delay holds no
//   execution slot, so retries cannot starve other lanes.
// - Nothing is dropped silently: when the last automatic path (failure result, dead-letter write) fails
//   permanently, the partition is quarantined at that record.
// - A failed pause, resume or seek, or a commit error classified permanent, makes the core fatal: it stops
//   starting work and reports not ready, so it never consumes past input it could not hold back.

import { Backpressure } from './backpressure.js';
import { BatchFormer } from './batch-former.js';
import { CallTracker } from './call-tracker.js';
import { describeError } from './classify-error.js';
import { CommitScheduler } from './commit-scheduler.js';
import { countCompletion, zeroCounters } from './core-counters.js';
import { resolveCoreSettings, type ConsumerCoreOptions, type CoreSettings } from './consumer-core-options.js';
import {
  classifyFailure,
  routeFailure,
  undeliverableInfo,
  type RetryRoute,
  type RoutingPolicy,
  type UndeliverableRoute,
} from './failure-routing.js';
import { SOLO_LANE, type LaneKey } from './lane-table.js';
import { decodeCompletedAbove, parseOffset } from './offsets.js';
import { PartitionState, type CommitCandidate } from './partition-state.js';
import { payloadBytes, RecordEntry, type DetachMode, type OwnedPartition, type RecordCall } from './record-entry.js';
import { SourceControl } from './source-control.js';
import { StallWatch } from './stall-watch.js';
import { formatTopicPartition, topicPartitionKey } from './topic-partition.js';
import type {
  Admission,
  BatchItem,
  BatchOutcomes,
  Clock,
  CommitRequest,
  CompletionOutcome,
  CoreCounters,
  CoreEvent,
  CoreSnapshot,
  CoreState,
  DeadLetterInfo,
  DrainResult,
  DropReason,
  Offset,
  OperatorActionResult,
  PartitionSnapshot,
  QuarantineClearReason,
  QuarantineInfo,
  RecordPhase,
  RedeliveryReason,
  SkipOrigin,
  SourcePort,
  SourceRecord,
  StallInfo,
  TimerHandle,
  TopicPartition,
  WorkProgress,
} from './types.js';

export type { ConsumerCoreOptions } from './consumer-core-options.js';

export interface DeliverResult {
  accepted: number;
  /** Already delivered or below the current read position (redelivered copies). */
  ignored: number;
  /** Not taken because of the partition's or the core's state; the source will deliver them again. */
  dropped: number;
}

/**
 * A started record of batch mode. `previous` is the record before it in its lane when both were started in
 * one scheduling turn (consecutive lane records share batches), `next` the one after it. A record finishes
 * once its own promise settled (`own`) and its `previous` finished; `completed` is then known (null before):
 * true when it completed, so `next` may complete too. No promise per record beyond the handler's own: the
 * gates are plain fields, and a finishing record finishes the waiting records after it in a loop.
 */
interface BatchSlot<T> {
  call: RecordCall<T>;
  previous: BatchSlot<T> | null;
  next: BatchSlot<T> | null;
  own: BatchOutcome | null;
  completed: boolean | null;
}

/** `handleBatch` answered with one promise per record (rather than one for the batch's outcomes). */
function isPromiseList<R>(results: readonly Promise<void>[] | Promise<R>): results is readonly Promise<void>[] {
  return Array.isArray(results);
}

/** How a batch record's own promise and its lane predecessor's outcome combine. */
type BatchOutcome = { ok: true } | { ok: false; error: unknown } | { ok: 'requeue' };
const BATCH_OK: BatchOutcome = { ok: true };
const BATCH_REQUEUE: BatchOutcome = { ok: 'requeue' };

export class ConsumerCore<T> {
  private readonly source: SourcePort;
  private readonly clock: Clock;
  private readonly options: ConsumerCoreOptions<T>;
  private readonly settings: CoreSettings;
  private readonly routing: RoutingPolicy;
  private readonly backpressure: Backpressure;
  private readonly calls: CallTracker<T>;
  private readonly sourceControl: SourceControl;
  private readonly stallWatch: StallWatch<T>;
  private readonly commits: CommitScheduler;
  /** Batch mode only (`handleBatch`): the forming batch. */
  private readonly batches: BatchFormer<BatchSlot<T>> | null;
  /** Batch mode: the scheduling turn armed for the next timer turn. */
  private batchTurnTimer: TimerHandle | null = null;

  private readonly partitions = new Map<string, OwnedPartition<T>>();
  /** The partitions in a stable order for round-robin scheduling; rebuilt only when the assignment changes. */
  private partitionOrder: OwnedPartition<T>[] = [];

  private rebalancing = false;
  private draining = false;
  private closed = false;
  private fatal: string | null = null;

  private roundRobin = 0;
  private pumping = false;
  private pumpRequested = false;

  private readonly counters: CoreCounters = zeroCounters();
  private lastCompletedAtMs: number | null = null;

  constructor(options: ConsumerCoreOptions<T>) {
    this.settings = resolveCoreSettings(options);
    this.options = options;
    this.source = options.source;
    this.clock = options.clock;
    this.routing = {
      quarantinePolicy: this.settings.quarantinePolicy,
      hasFailureResult: options.onPermanentFailure !== undefined,
      hasDeadLetter: options.deadLetter !== undefined,
      retry: this.settings.retry,
      random: options.random,
    };
    this.backpressure = new Backpressure(
      this.settings.maxPendingPerPartition,
      this.settings.maxBufferedBytesPerPartition,
    );
    this.calls = new CallTracker<T>(this.clock);
    this.sourceControl = new SourceControl(
      this.source,
      this.routing,
      { isFatal: () => this.fatal !== null, setFatal: (reason) => this.setFatal(reason) },
      (event) => this.emit(event),
    );
    this.stallWatch = new StallWatch<T>(
      this.clock,
      {
        thresholdMs: this.settings.stallThresholdMs,
        deadLetterAfterMs: this.settings.stallDeadLetterAfterMs,
        checkIntervalMs: this.settings.stallCheckIntervalMs,
      },
      () => this.partitions.values(),
      (entry, ageMs) => this.deadLetterStalled(entry, ageMs),
    );
    this.commits = new CommitScheduler(
      this.clock,
      this.settings.commitIntervalMs,
      () => this.commitOnce(),
      (err) => this.setFatal(`commit bookkeeping failed: ${describeError(err)}`),
    );
    this.batches =
      options.handleBatch === undefined
        ? null
        : new BatchFormer<BatchSlot<T>>(this.clock, this.settings.batchSize, this.settings.batchLingerMs, (batch) =>
            this.runBatch(batch),
          );
  }

  // --- state -----------------------------------------------------------------------------------------

  isFatal(): boolean {
    return this.fatal !== null;
  }

  get fatalReason(): string | null {
    return this.fatal;
  }

  get state(): CoreState {
    if (this.fatal !== null) return 'fatal';
    if (this.closed) return 'closed';
    if (this.draining) return 'draining';
    if (this.rebalancing) return 'rebalancing';
    return 'running';
  }

  owns(tp: TopicPartition): boolean {
    return this.partitions.has(topicPartitionKey(tp));
  }

  /** Paused for backpressure only (not quarantined): it resumes as soon as a commit frees its budget. */
  isBackpressured(tp: TopicPartition): boolean {
    const partition = this.partitions.get(topicPartitionKey(tp));
    return partition !== undefined && partition.backpressured && partition.quarantine === null;
  }

  private get admitting(): boolean {
    return this.fatal === null && !this.closed && !this.draining && !this.rebalancing;
  }

  // --- delivery and admission --------------------------------------------------------------------------

  /**
   * Takes one partition's batch (ascending offsets). Offsets below the read position are ignored. The first
   * record failing admission stops the batch: with 'pause' the partition is quarantined at it and the rest of
   * the batch is dropped (it will be delivered again after the quarantine is lifted). `logEndOffset` is the
   * partition's log end (high watermark) when the source fetched the batch, if it knows it: once every record
   * up to it completed, the commit goes on the next timer turn instead of at the next interval.
   */
  deliver(records: readonly SourceRecord[], logEndOffset?: Offset): DeliverResult {
    const result: DeliverResult = { accepted: 0, ignored: 0, dropped: 0 };
    const first = records[0];
    if (!first) return result;
    for (const record of records) {
      if (record.topic !== first.topic || record.partition !== first.partition) {
        throw new Error('deliver() takes records of one partition per call');
      }
    }
    const offsetValues: bigint[] = new Array<bigint>(records.length);
    let ascending = true;
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const offsetValue = parseOffset(record.offset);
      if (offsetValue === null) throw new RangeError(`record offset is not an int64 offset: ${record.offset}`);
      offsetValues[index] = offsetValue;
      if (index > 0 && offsetValue < offsetValues[index - 1]!) ascending = false;
    }
    const logEnd = logEndOffset === undefined ? null : parseOffset(logEndOffset);
    if (logEndOffset !== undefined && logEnd === null) {
      throw new RangeError(`log end offset is not an int64 offset: ${logEndOffset}`);
    }
    // Sources deliver ascending batches; sorting is the fallback, not the path.
    const order = ascending ? null : sortedOrder(offsetValues);

    const partition = this.partitions.get(topicPartitionKey(first));
    const dropReason = this.dropReasonFor(partition);
    if (dropReason !== null || !partition) {
      this.dropDelivery(first, records.length, dropReason ?? 'not-owned', result);
      return result;
    }

    if (logEnd !== null) partition.reportLogEnd(logEnd);
    const deliveredAtMs = this.clock.now();
    for (let index = 0; index < records.length; index++) {
      const position = order === null ? index : order[index]!;
      const record = records[position]!;
      const offsetValue = offsetValues[position]!;
      if (partition.quarantine) {
        this.dropDelivery(first, records.length - index, 'quarantined', result);
        break;
      }
      if (!partition.accepts(offsetValue)) {
        result.ignored++;
        continue;
      }
      const entry = new RecordEntry<T>(
        partition,
        record,
        record.offset,
        offsetValue,
        deliveredAtMs,
        payloadBytes(record),
      );
      partition.append(entry);
      result.accepted++;

      const knownComplete = partition.skip.size > 0 ? partition.skip.get(entry.offset) : undefined;
      if (knownComplete !== undefined) {
        partition.skip.delete(entry.offset);
        this.completeEntry(entry, skipOutcome(knownComplete));
        continue;
      }
      this.admitEntry(partition, entry, record);
    }
    this.updateBackpressure(partition);
    this.stallWatch.ensureRunning();
    this.pump();
    return result;
  }

  private dropReasonFor(partition: OwnedPartition<T> | undefined): DropReason | null {
    if (this.fatal !== null) return 'fatal';
    if (this.closed || this.draining) return 'draining';
    if (this.rebalancing) return 'rebalancing';
    if (!partition) return 'not-owned';
    if (partition.quarantine) return 'quarantined';
    return null;
  }

  private dropDelivery(tp: TopicPartition, count: number, reason: DropReason, result: DeliverResult): void {
    result.dropped += count;
    this.counters.droppedDeliveries += count;
    this.emit({ type: 'batch-dropped', topic: tp.topic, partition: tp.partition, count, reason });
  }

  private admitEntry(partition: OwnedPartition<T>, entry: RecordEntry<T>, record: SourceRecord): void {
    let admission: Admission<T>;
    try {
      admission = this.options.admit(record);
    } catch (err) {
      admission = { ok: false, reason: `admission threw: ${describeError(err)}`, errorClass: 'admission-error' };
    }
    if (admission.ok) {
      entry.value = admission.value;
      partition.lanes.enqueue(this.laneKeyFor(admission.orderingKey), entry);
      return;
    }
    this.counters.admissionFailures++;
    this.emit({
      type: 'admission-failed',
      ...refOf(entry),
      reason: admission.reason,
      errorClass: admission.errorClass,
    });
    const route = routeFailure({ phase: 'admission' }, this.routing);
    this.followRoute(entry, route, { errorClass: admission.errorClass, reason: admission.reason, attempts: 0 });
  }

  /**
   * 'key': one lane per ordering key; records without a key share one lane of their own per partition, so
   * they keep their relative order without blocking keyed records. 'partition': one lane. 'unordered': a
   * lane per record.
   */
  private laneKeyFor(orderingKey: string | null): LaneKey | typeof SOLO_LANE {
    switch (this.settings.ordering) {
      case 'partition':
        return '';
      case 'unordered':
        return SOLO_LANE;
      case 'key':
        return orderingKey;
    }
  }

  // --- scheduling ----------------------------------------------------------------------------------------

  /**
   * Starts waiting lane heads while the global and per-partition budgets allow, one per partition per round
   * (round robin), so one busy partition cannot take every slot first.
   */
  private pump(): void {
    if (this.batches !== null) {
      // Batch mode: one scheduling turn per timer turn, after every completion of this one has settled, so
      // the records those completions free are taken together (and a lane's next records with them).
      this.batchTurnTimer ??= this.clock.setTimeout(() => this.batchTurn(), 0);
      return;
    }
    this.pumpNow();
  }

  private batchTurn(): void {
    this.batchTurnTimer = null;
    this.pumpNow();
    this.batches!.turnEnded(this.calls.slotsInUse < this.settings.maxInFlight);
  }

  private pumpNow(): void {
    if (this.pumping) {
      this.pumpRequested = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpRequested = false;
        this.pumpOnce();
      } while (this.pumpRequested);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    if (!this.admitting) return;
    // Runs after every completion: it allocates nothing per partition, and stops as soon as no slot is free
    // (heads known complete from commit metadata are then taken by the pump that follows the next completion).
    const partitions = this.partitionOrder;
    if (partitions.length === 0) return;
    let progressed = true;
    while (progressed && this.calls.slotsInUse < this.settings.maxInFlight) {
      progressed = false;
      for (let index = 0; index < partitions.length && this.calls.slotsInUse < this.settings.maxInFlight; index++) {
        const partition = partitions[(this.roundRobin + index) % partitions.length]!;
        if (partition.revoked) continue;
        if (this.startNext(partition)) progressed = true;
        if (!this.admitting) return;
      }
      this.roundRobin = (this.roundRobin + 1) % partitions.length;
    }
  }

  private startNext(partition: OwnedPartition<T>): boolean {
    if (partition.inFlight >= this.settings.maxInFlightPerPartition && partition.skip.size === 0) return false;
    this.scanning = partition;
    const head = partition.lanes.takeReadyHead(this.acceptReadyHead);
    this.scanning = null;
    if (head === undefined) return false;
    const knownComplete = partition.skip.size > 0 ? partition.skip.get(head.offset) : undefined;
    if (knownComplete !== undefined) {
      partition.skip.delete(head.offset);
      this.completeEntry(head, skipOutcome(knownComplete));
    } else if (this.batches !== null) {
      this.startLaneRun(partition, head);
    } else {
      this.startHandle(head);
    }
    return true;
  }

  /**
   * Batch mode: starts the lane head and, while slots allow, the waiting records after it in its lane, so a
   * lane contributes consecutive records in offset order. A record known complete, or whose earlier call still
   * runs, ends the run (it is taken as a head later).
   */
  private startLaneRun(partition: OwnedPartition<T>, head: RecordEntry<T>): void {
    let previous = this.startBatchRecord(head, null);
    if (head.lane === null || head.lane === undefined) return;
    for (let next = head.laneNext; next !== null; next = next.laneNext) {
      // A lane run never spans two batches: a full batch was handed over and the run ends with it.
      if (this.batches!.size === 0) return;
      if (next.status !== 'buffered' || next.phase !== 'handle') return;
      if (this.calls.slotsInUse >= this.settings.maxInFlight) return;
      if (partition.inFlight >= this.settings.maxInFlightPerPartition) return;
      if (partition.skip.size > 0 && partition.skip.has(next.offset)) return;
      if (this.calls.isRunning(partition, next.offset)) return;
      previous = this.startBatchRecord(next, previous);
    }
  }

  private startBatchRecord(entry: RecordEntry<T>, previous: BatchSlot<T> | null): BatchSlot<T> {
    if (!entry.record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.handleAttempts++;
    entry.firstStartedAtMs ??= this.clock.now();
    const call = this.calls.begin(entry, 'handle', true, entry.handleAttempts);
    const slot: BatchSlot<T> = { call, previous, next: null, own: null, completed: null };
    if (previous !== null) previous.next = slot;
    this.batches!.add(slot);
    return slot;
  }

  /**
   * Hands a formed batch to `handleBatch`. Records released while the batch formed (rewind, revoke, stall
   * dead-letter, operator seek) are left out: their call ends unrun and their lane successors run again.
   */
  private runBatch(batch: BatchSlot<T>[]): void {
    const live: BatchSlot<T>[] = [];
    const indexOf = new Map<BatchSlot<T>, number>();
    for (const slot of batch) {
      const previousLeftOut = slot.previous !== null && !indexOf.has(slot.previous);
      if (slot.call.detached === null && !slot.call.settled && !previousLeftOut) {
        indexOf.set(slot, live.length);
        live.push(slot);
        continue;
      }
      slot.previous = null;
      slot.completed = false;
      if (previousLeftOut && slot.call.detached === null) this.requeue(slot.call);
      else this.calls.end(slot.call);
    }
    if (live.length > 0) {
      const items: BatchItem<T>[] = live.map((slot) => ({
        value: slot.call.entry.value as T,
        record: slot.call.entry.record!,
        context: slot.call,
        previous: slot.previous === null ? null : indexOf.get(slot.previous)!,
      }));
      let results: readonly Promise<void>[] | Promise<BatchOutcomes>;
      try {
        results = this.options.handleBatch!(items);
        if (isPromiseList(results) && results.length !== live.length) {
          throw new Error(`handleBatch returned ${results.length} results for ${live.length} records`);
        }
      } catch (err) {
        results = Promise.reject(err);
      }
      if (isPromiseList(results)) {
        for (let index = 0; index < live.length; index++) this.awaitBatchCall(live[index]!, results[index]!);
      } else {
        this.awaitBatchOutcomes(live, results);
      }
    }
    this.calls.notifyIfIdle();
  }

  /**
   * A batch record settles once its own promise did and its lane predecessor in the batch completed; when that
   * predecessor did not complete, the record waits in its lane and runs again after it (order kept).
   */
  private awaitBatchCall(slot: BatchSlot<T>, running: Promise<void>): void {
    Promise.resolve(running).then(
      () => this.batchRecordSettled(slot, BATCH_OK),
      (error: unknown) => this.batchRecordSettled(slot, { ok: false, error }),
    );
  }

  /** The joint shape: every record of the batch settles when the batch's outcomes arrive, in batch order. */
  private awaitBatchOutcomes(live: readonly BatchSlot<T>[], running: Promise<BatchOutcomes>): void {
    const failAll = (error: unknown) => {
      const outcome: BatchOutcome = { ok: false, error };
      for (const slot of live) this.batchRecordSettled(slot, outcome);
    };
    Promise.resolve(running).then((outcomes) => {
      if (!Array.isArray(outcomes) || outcomes.length !== live.length) {
        const count = Array.isArray(outcomes) ? outcomes.length : typeof outcomes;
        return failAll(new Error(`handleBatch resolved ${count} outcomes for ${live.length} records`));
      }
      for (let index = 0; index < live.length; index++) {
        const outcome: unknown = outcomes[index];
        this.batchRecordSettled(live[index]!, outcome === null ? BATCH_OK : { ok: false, error: outcome });
      }
    }, failAll);
  }

  /**
   * Finishes `slot` unless its predecessor is still unknown (that one finishes it), then each successor whose
   * own promise already settled. A loop, not recursion: a lane run can be a whole batch long.
   */
  private batchRecordSettled(settled: BatchSlot<T>, own: BatchOutcome): void {
    settled.own = own;
    let slot: BatchSlot<T> | null = settled;
    while (slot !== null && slot.own !== null) {
      const { previous } = slot;
      if (previous !== null && previous.completed === null) return;
      const result = previous !== null && !previous.completed ? BATCH_REQUEUE : slot.own;
      slot.previous = null;
      slot.completed = result.ok === true && slot.call.detached === null;
      if (result.ok === 'requeue') this.requeue(slot.call);
      else if (result.ok) this.settle(slot.call, true, undefined);
      else this.settle(slot.call, false, result.error);
      const next: BatchSlot<T> | null = slot.next;
      slot.next = null;
      slot = next;
    }
  }

  /** The record's attempt does not count: it waits in its lane for the record before it, then runs again. */
  private requeue(call: RecordCall<T>): void {
    this.calls.end(call);
    const { entry } = call;
    if (call.detached !== null) {
      this.settleDetached(call, false);
    } else {
      entry.handleAttempts--;
      entry.status = 'buffered';
      entry.owner.lanes.headChanged(entry);
    }
    this.calls.notifyIfIdle();
    this.pump();
  }

  /** The partition startNext scans; acceptReadyHead reads it (one function for all scans: no closure per call). */
  private scanning: OwnedPartition<T> | null = null;

  private readonly acceptReadyHead = (candidate: RecordEntry<T>): boolean | 'stop' => {
    const partition = this.scanning!;
    if (partition.skip.size > 0 && partition.skip.has(candidate.offset)) return true;
    if (
      this.calls.slotsInUse >= this.settings.maxInFlight ||
      partition.inFlight >= this.settings.maxInFlightPerPartition
    )
      return 'stop';
    // An earlier call for this very record (revoked, then redelivered) must settle before it runs again.
    return !this.calls.isRunning(partition, candidate.offset);
  };

  private startHandle(entry: RecordEntry<T>): void {
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.handleAttempts++;
    entry.firstStartedAtMs ??= this.clock.now();
    const call = this.calls.begin(entry, 'handle', true, entry.handleAttempts);
    let running: Promise<void>;
    try {
      running = this.options.handle!(entry.value as T, record, call);
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
  }

  /** Failure paths run as soon as they are decided and hold no execution slot; they stay in the record's lane. */
  private startFailurePath(entry: RecordEntry<T>): void {
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.phaseAttempts++;
    const call = this.calls.begin(entry, entry.phase, false, entry.phaseAttempts);
    let running: Promise<void>;
    try {
      if (entry.phase === 'permanent-failure') {
        running = this.options.onPermanentFailure!(entry.value as T, record, entry.failure?.error);
      } else {
        running = this.options.deadLetter!(record, { ...entry.deadLetterInfo! });
      }
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
  }

  /**
   * Settles the call when `running` does; a port returning a non-promise settles on the next microtask.
   * (`then` with two closures: the cheapest way found to await a call; see docs/decisions.md.)
   */
  private awaitCall(call: RecordCall<T>, running: Promise<void>): void {
    Promise.resolve(running).then(
      () => this.settle(call, true, undefined),
      (err: unknown) => this.settle(call, false, err),
    );
  }

  private settle(call: RecordCall<T>, ok: boolean, error: unknown): void {
    this.calls.end(call);
    const { entry } = call;
    if (call.detached !== null) {
      this.settleDetached(call, ok);
    } else if (ok) {
      this.completeEntry(entry, outcomeOf(call.phase));
    } else {
      this.onCallFailed(entry, call.phase, error);
    }
    this.calls.notifyIfIdle();
    this.pump();
  }

  /** A call whose record was released finished. Only a success of a still-current partition is kept. */
  private settleDetached(call: RecordCall<T>, ok: boolean): void {
    const { entry } = call;
    const owner = entry.owner;
    const current = this.partitions.get(owner.key) === owner && owner.epoch === call.epoch;
    if (ok && call.detached === 'remember' && current) {
      owner.remember(entry.offset, 'completed');
      this.commits.schedule();
      return;
    }
    this.emit({ type: 'late-completion-ignored', ...refOf(entry), phase: call.phase });
  }

  // --- completion and failure paths --------------------------------------------------------------------

  private completeEntry(entry: RecordEntry<T>, outcome: CompletionOutcome): void {
    if (!entry.owner.complete(entry)) return;
    countCompletion(this.counters, outcome);
    this.lastCompletedAtMs = this.clock.now();
    const owner = entry.owner;
    this.emit({
      type: 'completed',
      topic: owner.topic,
      partition: owner.partition,
      offset: entry.offset,
      outcome,
      attempts: entry.handleAttempts,
    });
    this.updateBackpressure(owner);
    // Early: a partition near its pending budget (the commit frees it), or one whose every record up to the
    // log end completed (nothing more can join the commit, so waiting for the interval only delays it).
    if (
      (this.backpressure.commitsEarly(owner.backpressured, owner.pending) && owner.prefixCompleted) ||
      owner.drainedToLogEnd
    ) {
      this.commits.expedite();
    } else {
      this.commits.schedule();
    }
    // No pump here: every caller pumps once it is done (one pump per completion, not two).
  }

  private onCallFailed(entry: RecordEntry<T>, phase: RecordPhase, error: unknown): void {
    const errorClass = classifyFailure(this.settings.classifyError, error);
    const attempt = phase === 'handle' ? entry.handleAttempts : entry.phaseAttempts;
    const route = routeFailure({ phase, errorClass, attempt }, this.routing);
    if (route.action === 'retry') {
      this.scheduleRetry(entry, attempt, route, error);
      return;
    }
    this.emit({ type: 'permanent-failure', ...refOf(entry), phase, error });
    if (phase === 'handle') {
      this.counters.permanentFailures++;
      entry.failure = { error, reason: describeError(error) };
    }
    if (route.action === 'publish-failed-result') {
      entry.phase = 'permanent-failure';
      entry.phaseAttempts = 0;
      this.startFailurePath(entry);
      return;
    }
    this.followRoute(entry, route, undeliverableInfo(phase, error, entry));
  }

  /** Moves a record no earlier path can finish (failed admission or a permanent failure) to its last path. */
  private followRoute(entry: RecordEntry<T>, route: UndeliverableRoute, info: DeadLetterInfo): void {
    switch (route.action) {
      case 'dead-letter':
        this.startDeadLetter(entry, info);
        return;
      case 'quarantine':
        this.quarantineAt(entry, info);
        return;
    }
  }

  private startDeadLetter(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    entry.phase = 'dead-letter';
    entry.phaseAttempts = 0;
    entry.deadLetterInfo = info;
    this.startFailurePath(entry);
  }

  private scheduleRetry(entry: RecordEntry<T>, attempt: number, route: RetryRoute, error: unknown): void {
    entry.status = 'retry-wait';
    this.counters.retries++;
    this.emit({
      type: 'retry-scheduled',
      ...refOf(entry),
      phase: entry.phase,
      attempt,
      delayMs: route.delayMs,
      error,
    });
    if (this.closed) return;
    if (!route.viaClock) {
      this.onRetryDue(entry);
      return;
    }
    entry.retryTimer = this.clock.setTimeout(() => this.onRetryDue(entry), route.delayMs);
  }

  private onRetryDue(entry: RecordEntry<T>): void {
    entry.retryTimer = null;
    if (entry.status !== 'retry-wait' || this.partitions.get(entry.owner.key) !== entry.owner) return;
    if (entry.phase === 'handle') {
      entry.status = 'buffered';
      entry.owner.lanes.headChanged(entry);
      this.pump();
    } else {
      this.startFailurePath(entry);
    }
  }

  private cancelRetry(entry: RecordEntry<T>): void {
    if (entry.retryTimer === null) return;
    this.clock.clearTimeout(entry.retryTimer);
    entry.retryTimer = null;
  }

  // --- quarantine --------------------------------------------------------------------------------------

  /**
   * Stops the partition at `entry`: pause, rewind the source to it, release everything after it (redelivered
   * after the quarantine is lifted), keep it out of every commit. Records before it keep running, so the
   * commit can reach it.
   */
  private quarantineAt(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    const partition = entry.owner;
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    this.releaseFrom(partition, entry.offsetValue + 1n, 'quarantine');
    partition.lanes.remove(entry);
    entry.status = 'quarantined';

    const quarantine: QuarantineInfo = {
      topic: partition.topic,
      partition: partition.partition,
      offset: entry.offset,
      reason: info.reason,
      errorClass: info.errorClass,
      sinceMs: this.clock.now(),
      attempts: entry.handleAttempts,
      key: record.key,
      value: record.value,
      headers: { ...record.headers },
      timestampMs: record.timestampMs,
    };
    partition.quarantine = { info: quarantine, entry, resumeFrom: entry.offset };
    this.counters.quarantines++;
    this.updateBackpressure(partition);
    this.sourceControl.seek(partition, entry.offset);
    this.emit({ type: 'quarantined', quarantine });
    this.callback('onQuarantine', () => this.options.onQuarantine?.(quarantine));
  }

  private requireQuarantined(
    tp: TopicPartition,
  ): OwnedPartition<T> & { quarantine: NonNullable<OwnedPartition<T>['quarantine']> } {
    if (this.fatal !== null) throw new Error(`consumer core is fatal (${this.fatal}); restart it instead`);
    const partition = this.partitions.get(topicPartitionKey(tp));
    if (!partition) throw new Error(`${formatTopicPartition(tp)} is not owned by this consumer`);
    if (!partition.quarantine) throw new Error(`${formatTopicPartition(tp)} is not quarantined`);
    return partition as OwnedPartition<T> & { quarantine: NonNullable<OwnedPartition<T>['quarantine']> };
  }

  /** Operator: retry the quarantined record (it is delivered and admitted again). */
  resumeQuarantined(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireQuarantined(tp);
    const from = partition.quarantine.resumeFrom;
    this.releaseFrom(partition, BigInt(from), 'resume');
    return this.liftQuarantine(partition, from, 'resumed');
  }

  /**
   * Operator: mark the quarantined record complete without processing it (the adapter copies it to the DLQ
   * first if configured) so the commit moves past it; reading continues after it.
   */
  skipQuarantined(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireQuarantined(tp);
    const { entry, resumeFrom, info } = partition.quarantine;
    let from: Offset;
    if (entry) {
      // Everything after the record was released when it was quarantined.
      this.completeEntry(entry, 'skipped-operator');
      from = (entry.offsetValue + 1n).toString();
      this.releaseFrom(partition, entry.offsetValue + 1n, 'skip');
    } else {
      // A rebalance rewound past the record: read again from the rewind point and skip it when it comes.
      partition.remember(info.offset, 'operator');
      from = resumeFrom;
      this.releaseFrom(partition, BigInt(from), 'skip');
    }
    return this.liftQuarantine(partition, from, 'skipped');
  }

  /** Operator: forget the partition's uncommitted state and continue reading at `offset`. */
  seekQuarantined(tp: TopicPartition, offset: Offset): OperatorActionResult {
    const target = parseOffset(offset);
    if (target === null) throw new RangeError(`not an int64 offset: ${JSON.stringify(offset)}`);
    const partition = this.requireQuarantined(tp);
    const released = partition.discardAll(target);
    this.detachReleased(released, 'ignore', 'partition state discarded by an operator seek');
    return this.liftQuarantine(partition, target.toString(), 'seeked');
  }

  private liftQuarantine(
    partition: OwnedPartition<T>,
    seekOffset: Offset,
    action: OperatorActionResult['action'],
  ): OperatorActionResult {
    partition.quarantine = null;
    const reason: QuarantineClearReason = action;
    if (!this.sourceControl.seek(partition, seekOffset)) {
      throw new Error(`seek of ${formatTopicPartition(partition)} to ${seekOffset} failed: ${this.fatal ?? 'unknown'}`);
    }
    this.updateBackpressure(partition);
    this.emit({ type: 'quarantine-cleared', ...partition.tp, reason, seekOffset });
    this.callback('onQuarantineCleared', () => this.options.onQuarantineCleared?.(partition.tp, reason));
    this.commits.schedule();
    this.pump();
    if (this.fatal !== null) throw new Error(`resume of ${formatTopicPartition(partition)} failed: ${this.fatal}`);
    return { topic: partition.topic, partition: partition.partition, action, seekOffset };
  }

  // --- rewinds -----------------------------------------------------------------------------------------

  /** Releases tracked records from `from` on; their calls keep running and a success is remembered. */
  private releaseFrom(partition: OwnedPartition<T>, from: bigint, reason: RedeliveryReason): void {
    const { released, count } = partition.releaseFrom(from, true);
    this.detachReleased(released, 'remember', null);
    if (count > 0) {
      this.counters.redelivered += count;
      this.emit({ type: 'redelivered', ...partition.tp, count, reason });
    }
  }

  private detachReleased(released: readonly RecordEntry<T>[], mode: DetachMode, abortReason: string | null): void {
    for (const entry of released) {
      this.cancelRetry(entry);
      if (entry.call) this.calls.detach(entry.call, mode, abortReason);
    }
  }

  // --- backpressure and source control -----------------------------------------------------------------

  /**
   * Applies the partition's backpressure (see Backpressure) and brings the source's pause state in line with
   * it and the quarantine. A batch already fetched is still accepted whole, hence "limit + one fetch batch".
   */
  private updateBackpressure(partition: OwnedPartition<T>): void {
    const pending = partition.pending;
    const bytes = partition.unfinishedBytes;
    const backpressured = this.backpressure.next(partition.backpressured, pending, bytes);
    if (backpressured !== partition.backpressured) {
      partition.backpressured = backpressured;
      this.emit({ type: 'backpressure', ...partition.tp, paused: backpressured, pending, bufferedBytes: bytes });
    }
    this.sourceControl.sync(partition);
  }

  private setFatal(reason: string): void {
    if (this.fatal !== null) return;
    this.fatal = reason;
    // Only explicit commitNow() calls (drain) commit from here on; the completed prefix is still safe.
    this.commits.stopAutomatic();
    this.stallWatch.stop();
    this.emit({ type: 'fatal', reason });
  }

  // --- commits -----------------------------------------------------------------------------------------

  /**
   * Records the committed offset and metadata the adapter read after assignment. Offsets listed as complete
   * in the metadata complete without handling when delivered. Returns how many offsets were remembered.
   * `committedOffset` null (or "-1") means the group has no commit for the partition.
   */
  setCommittedMetadata(tp: TopicPartition, committedOffset: Offset | null, metadata: string | null): number {
    const partition = this.partitions.get(topicPartitionKey(tp));
    if (!partition) throw new Error(`${formatTopicPartition(tp)} is not owned by this consumer`);
    if (committedOffset === null || committedOffset === '-1') return 0;
    const committedValue = parseOffset(committedOffset);
    if (committedValue === null) throw new RangeError(`not an int64 offset: ${JSON.stringify(committedOffset)}`);
    if (partition.committed === null) partition.committed = { offset: committedValue.toString(), metadata };
    if (partition.pending === 0) partition.raiseFloor(committedValue);
    const completedAbove = decodeCompletedAbove(committedValue.toString(), metadata);
    for (const offset of completedAbove) partition.remember(offset, 'metadata');
    this.pump();
    return completedAbove.size;
  }

  /**
   * Commits every partition whose commit position or completed-above metadata changed since the broker last
   * acknowledged it. Serialised: concurrent calls queue behind each other. Never rejects: failures are
   * reported as events, retried at the next interval, and make the core fatal when classified permanent.
   */
  commitNow(): Promise<void> {
    return this.commits.commitNow();
  }

  private async commitOnce(): Promise<'committed' | 'failed' | 'nothing-to-commit'> {
    const batch: Array<{ partition: OwnedPartition<T>; epoch: number; candidate: CommitCandidate }> = [];
    for (const partition of this.partitions.values()) {
      const candidate = partition.commitCandidate(this.settings.metadataMaxBytes);
      if (candidate) batch.push({ partition, epoch: partition.epoch, candidate });
    }
    if (batch.length === 0) return 'nothing-to-commit';
    for (const { candidate } of batch) {
      if (candidate.metadataOverflow) {
        const { topic, partition, offset } = candidate.request;
        this.emit({ type: 'metadata-overflow', topic, partition, offset });
      }
    }
    const requests: CommitRequest[] = batch.map(({ candidate }) => candidate.request);
    const startedAtMs = this.clock.now();
    try {
      await this.source.commit(requests);
    } catch (error) {
      this.counters.commitFailures++;
      const errorClass = classifyFailure(this.settings.classifyCommitError, error);
      this.emit({ type: 'commit-failed', requests, error, errorClass, durationMs: this.clock.now() - startedAtMs });
      const route = routeFailure({ phase: 'commit', errorClass }, this.routing);
      switch (route.action) {
        case 'retry-at-interval':
          // The scheduler retries one interval after this attempt started.
          break;
        case 'fatal':
          this.setFatal(`commit failed permanently: ${describeError(error)}`);
          break;
      }
      return 'failed';
    }
    this.counters.commits++;
    for (const { partition, epoch, candidate } of batch) {
      // Revoked partitions and partitions an operator re-seeked meanwhile keep no trace of this commit.
      if (this.partitions.get(partition.key) !== partition || partition.epoch !== epoch) continue;
      partition.acknowledgeCommit(candidate.request);
      this.updateBackpressure(partition);
    }
    this.emit({ type: 'committed', requests, durationMs: this.clock.now() - startedAtMs });
    return 'committed';
  }

  // --- rebalance ---------------------------------------------------------------------------------------

  /** Stops starting work and commits what is complete, before the partitions are handed over. */
  onRebalanceStart(): Promise<void> {
    this.batches?.flush();
    this.rebalancing = true;
    return this.commitNow();
  }

  /**
   * Applies the new assignment. Revoked partitions lose all state: nothing more is committed for them and
   * their running calls are aborted and ignored when they settle. Kept partitions are rewound to their commit
   * point, because the source restarts there after a rebalance: uncommitted records are redelivered, those
   * already complete (or completing) are remembered and not run again. A kept quarantine stays.
   */
  onAssignment(assigned: readonly TopicPartition[]): void {
    this.batches?.flush();
    const wanted = new Map(assigned.map((tp) => [topicPartitionKey(tp), tp] as const));
    for (const partition of [...this.partitions.values()]) {
      if (!wanted.has(partition.key)) this.revoke(partition);
    }
    for (const [key, tp] of wanted) {
      const kept = this.partitions.get(key);
      if (kept) this.rewindKept(kept);
      else this.partitions.set(key, new PartitionState<RecordEntry<T>>(tp.topic, tp.partition));
    }
    this.partitionOrder = [...this.partitions.values()];
    this.rebalancing = false;
    this.pump();
  }

  private revoke(partition: OwnedPartition<T>): void {
    partition.revoked = true;
    this.partitions.delete(partition.key);
    this.partitionOrder = this.partitionOrder.filter((p) => p !== partition);
    const { released } = partition.releaseFrom(null, false);
    this.detachReleased(released, 'ignore', `${formatTopicPartition(partition)} was revoked`);
    // The kafkajs pause state outlives the assignment; a later reassignment must not start paused.
    this.sourceControl.release(partition);
    if (partition.quarantine) {
      this.emit({ type: 'quarantine-cleared', ...partition.tp, reason: 'revoked', seekOffset: null });
      this.callback('onQuarantineCleared', () => this.options.onQuarantineCleared?.(partition.tp, 'revoked'));
    }
  }

  private rewindKept(partition: OwnedPartition<T>): void {
    const rewindPoint = partition.rewindPoint();
    if (rewindPoint !== null) {
      this.releaseFrom(partition, BigInt(rewindPoint), 'rebalance');
      const quarantine = partition.quarantine;
      if (quarantine && BigInt(rewindPoint) < BigInt(quarantine.resumeFrom)) quarantine.resumeFrom = rewindPoint;
    }
    this.updateBackpressure(partition);
  }

  // --- stalls ------------------------------------------------------------------------------------------

  /** Partitions whose oldest unfinished record was delivered more than stallThresholdMs ago. */
  stalls(nowMs: number = this.clock.now()): StallInfo[] {
    return this.stallWatch.stalls(nowMs);
  }

  /**
   * Opt-in trade-off: a record that has been running or retrying for longer than stallDeadLetterAfterMs since
   * it first started is written to the dead-letter port as 'stalled' and completes when that write is
   * acknowledged. Its running call is aborted and its outcome ignored, so a late success duplicates the effect.
   */
  private deadLetterStalled(entry: RecordEntry<T>, ageMs: number): void {
    this.cancelRetry(entry);
    if (entry.call) this.calls.detach(entry.call, 'ignore', 'record dead-lettered as stalled');
    this.counters.stallDeadLetters++;
    this.emit({ type: 'stall-dead-letter', ...refOf(entry), ageMs });
    this.startDeadLetter(entry, {
      errorClass: 'stalled',
      reason: `no progress for ${ageMs} ms in phase ${entry.phase} after ${entry.handleAttempts} attempts`,
      attempts: entry.handleAttempts,
    });
  }

  // --- shutdown ----------------------------------------------------------------------------------------

  /**
   * Stops starting work (retry delays are not waited for), waits for running calls up to `timeoutMs`
   * (measured on the injected clock), aborts what still runs, commits what completed, and closes: no more
   * timers, no more deliveries. Call before the source's stop(): commits fail after it.
   */
  async drain(timeoutMs: number): Promise<DrainResult> {
    this.draining = true;
    // Records already started in a forming batch run now; drain waits for them like for any call.
    this.batches?.flush();
    const timedOut = await this.calls.waitForIdle(timeoutMs);
    const abandonedCalls = this.calls.running;
    this.calls.abortAll(this.deliveredEntries(), new Error('drain deadline passed'));
    await this.commitNow();
    this.close();
    return { timedOut, abandonedCalls };
  }

  private *deliveredEntries(): Generator<RecordEntry<T>> {
    for (const partition of this.partitions.values()) yield* partition.delivered;
  }

  private close(): void {
    this.closed = true;
    this.batches?.stop();
    if (this.batchTurnTimer !== null) this.clock.clearTimeout(this.batchTurnTimer);
    this.batchTurnTimer = null;
    this.commits.stopAutomatic();
    this.stallWatch.stop();
    for (const entry of this.deliveredEntries()) this.cancelRetry(entry);
  }

  // --- observation -------------------------------------------------------------------------------------

  snapshot(): CoreSnapshot {
    const nowMs = this.clock.now();
    const partitions: PartitionSnapshot[] = [];
    for (const partition of this.partitions.values())
      partitions.push(partition.snapshot(nowMs, this.settings.metadataMaxBytes));
    return {
      nowMs,
      state: this.state,
      fatalReason: this.fatal,
      inFlight: this.calls.slotsInUse,
      partitions,
      counters: { ...this.counters },
    };
  }

  /** What readiness needs to tell held-but-stuck work from idleness; walks every tracked record. */
  workProgress(): WorkProgress {
    let heldRecords = 0;
    let heldSinceMs: number | null = null;
    for (const partition of this.partitions.values()) {
      if (partition.quarantine !== null) continue;
      const oldest = partition.oldestUnfinished();
      if (!oldest) continue;
      heldRecords += partition.unfinishedCount();
      if (heldSinceMs === null || oldest.deliveredAtMs < heldSinceMs) heldSinceMs = oldest.deliveredAtMs;
    }
    return { heldRecords, heldSinceMs, lastCompletedAtMs: this.lastCompletedAtMs };
  }

  private emit(event: CoreEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // An observer must not break the engine.
    }
  }

  private callback(name: 'onQuarantine' | 'onQuarantineCleared', run: () => void | Promise<void>): void {
    const report = (error: unknown): void => this.emit({ type: 'callback-failed', callback: name, error });
    try {
      const result = run();
      if (result && typeof result.then === 'function') result.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}

/** Positions of `values` in ascending order (stable). */
function sortedOrder(values: readonly bigint[]): number[] {
  return values
    .map((_, index) => index)
    .sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
}

function refOf<T>(entry: RecordEntry<T>): { topic: string; partition: number; offset: Offset } {
  return { topic: entry.owner.topic, partition: entry.owner.partition, offset: entry.offset };
}

function outcomeOf(phase: RecordPhase): CompletionOutcome {
  switch (phase) {
    case 'handle':
      return 'handled';
    case 'permanent-failure':
      return 'failed-result';
    case 'dead-letter':
      return 'dead-lettered';
  }
}

function skipOutcome(origin: SkipOrigin): CompletionOutcome {
  switch (origin) {
    case 'metadata':
      return 'skipped-metadata';
    case 'completed':
      return 'skipped-completed';
    case 'operator':
      return 'skipped-operator';
  }
}

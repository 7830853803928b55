// The scheduler: which waiting record starts next, starting it, and what follows when its call settles.
// Lane heads ready to start (lane-table.ts) are taken round robin across partitions, one per partition per
// round, while the global (`maxInFlight`) and per-partition (`maxInFlightPerPartition`) slot budgets allow; a
// head known complete (commit metadata, an earlier call) completes without a call. In batch mode
// (`handleBatch`) scheduling runs once per timer turn, after every completion of the current one settled, and
// the records it starts go into the forming batch (batch-former.ts), a lane contributing consecutive records;
// batch-dispatch.ts hands the formed batch over. Failure paths (failure result, dead-letter write) start at
// once and hold no slot. When a call settles its slot is freed, its outcome goes to completion or to the
// failure paths, and the scheduler runs again.
//
// Invariants:
// - Only handler calls hold a slot, and one starts only while `calls.slotsInUse < maxInFlight` and its
//   partition's `inFlight < maxInFlightPerPartition`.
// - Within a lane records start one at a time in offset order (the lane table readies only a lane's head); in
//   batch mode a lane run starts consecutive records of one lane into the same batch, never across two.
// - A redelivered copy never starts while a detached call of the same record still runs.
// - Nothing starts while the core is not admitting (rebalancing, draining, closed, fatal), nor for a revoked
//   partition.
// - The scheduler never re-enters itself: a pump requested while pumping runs after it. One pump per settled
//   call, and a pump allocates nothing per partition.

import { BatchDispatch, type BatchSlot } from './batch-dispatch.js';
import { BatchFormer } from './batch-former.js';
import type { CallTracker } from './call-tracker.js';
import { outcomeOf, skipOutcome, type Completion } from './completion.js';
import type { FailurePaths } from './failure-paths.js';
import type { OwnedPartition, RecordCall, RecordEntry } from './record-entry.js';
import type { BatchHandler, Clock, DeadLetterInfo, HandlerContext, SourceRecord, TimerHandle } from './types.js';

export interface SchedulerSettings {
  maxInFlight: number;
  maxInFlightPerPartition: number;
  batchSize: number;
  batchLingerMs: number;
}

/** The host's work, read at every call. Exactly one of `handle` and `handleBatch` is given. */
export interface SchedulerWork<T> {
  readonly handle?: ((value: T, record: SourceRecord, ctx: HandlerContext) => Promise<void>) | undefined;
  readonly handleBatch?: BatchHandler<T> | undefined;
  readonly onPermanentFailure?: ((value: T, record: SourceRecord, err: unknown) => Promise<void>) | undefined;
  readonly deadLetter?: ((record: SourceRecord, info: DeadLetterInfo) => Promise<void>) | undefined;
}

export interface SchedulerPorts<T> {
  clock: Clock;
  calls: CallTracker<T>;
  status: { readonly admitting: boolean };
  settings: SchedulerSettings;
  work: SchedulerWork<T>;
  completion: Pick<Completion<T>, 'complete' | 'settledDetached'>;
}

/** Where a failed call goes; connected after construction, since the failure paths start calls here. */
export type SchedulerFailures<T> = Pick<FailurePaths<T>, 'failed'>;

export class Scheduler<T> {
  private readonly clock: Clock;
  private readonly calls: CallTracker<T>;
  private readonly status: { readonly admitting: boolean };
  private readonly maxInFlight: number;
  private readonly maxInFlightPerPartition: number;
  private readonly work: SchedulerWork<T>;
  private readonly completion: Pick<Completion<T>, 'complete' | 'settledDetached'>;
  private failures: SchedulerFailures<T> | null = null;
  /** Batch mode only: the forming batch. */
  private readonly batches: BatchFormer<BatchSlot<T>> | null;
  /** Batch mode: the scheduling turn armed for the next timer turn. */
  private batchTurnTimer: TimerHandle | null = null;

  /** The owned partitions in a stable order for round robin; replaced only when the assignment changes. */
  private partitionOrder: readonly OwnedPartition<T>[] = [];
  private roundRobin = 0;
  private pumping = false;
  private pumpRequested = false;
  /** The partition startNext scans; acceptReadyHead reads it (one function for all scans: no closure per call). */
  private scanning: OwnedPartition<T> | null = null;

  constructor(ports: SchedulerPorts<T>) {
    this.clock = ports.clock;
    this.calls = ports.calls;
    this.status = ports.status;
    this.maxInFlight = ports.settings.maxInFlight;
    this.maxInFlightPerPartition = ports.settings.maxInFlightPerPartition;
    this.work = ports.work;
    this.completion = ports.completion;
    if (ports.work.handleBatch === undefined) {
      this.batches = null;
    } else {
      const dispatch = new BatchDispatch<T>({ calls: this.calls, work: ports.work, scheduler: this });
      const { batchSize, batchLingerMs } = ports.settings;
      this.batches = new BatchFormer<BatchSlot<T>>(this.clock, batchSize, batchLingerMs, (batch) =>
        dispatch.run(batch),
      );
    }
  }

  connect(failures: SchedulerFailures<T>): void {
    this.failures = failures;
  }

  /** The partitions to schedule, in round-robin order (after an assignment). */
  assign(partitions: readonly OwnedPartition<T>[]): void {
    this.partitionOrder = partitions;
  }

  /**
   * Starts waiting lane heads while the global and per-partition budgets allow, one per partition per round
   * (round robin), so one busy partition cannot take every slot first.
   */
  pump(): void {
    if (this.batches !== null) {
      // Batch mode: one scheduling turn per timer turn, after every completion of this one has settled, so
      // the records those completions free are taken together (and a lane's next records with them).
      this.batchTurnTimer ??= this.clock.setTimeout(() => this.batchTurn(), 0);
      return;
    }
    this.pumpNow();
  }

  /** Batch mode: hands the forming batch over now (drain, rebalance). */
  flushBatch(): void {
    this.batches?.flush();
  }

  /** No more timers (the core closed); a forming batch is not handed over. */
  stop(): void {
    this.batches?.stop();
    if (this.batchTurnTimer !== null) this.clock.clearTimeout(this.batchTurnTimer);
    this.batchTurnTimer = null;
  }

  /** The record's handler retry is due: it waits for a slot again, in its lane. */
  retryDue(entry: RecordEntry<T>): void {
    entry.status = 'buffered';
    entry.owner.lanes.headChanged(entry);
    this.pump();
  }

  /** Failure paths run as soon as they are decided and hold no execution slot; they stay in the record's lane. */
  startFailurePath(entry: RecordEntry<T>): void {
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.phaseAttempts++;
    const call = this.calls.begin(entry, entry.phase, false, entry.phaseAttempts);
    let running: Promise<void>;
    try {
      if (entry.phase === 'permanent-failure') {
        running = this.work.onPermanentFailure!(entry.value as T, record, entry.failure?.error);
      } else {
        running = this.work.deadLetter!(record, { ...entry.deadLetterInfo! });
      }
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
  }

  /** The call settled: frees its slot, hands its outcome on, and schedules again. */
  settle(call: RecordCall<T>, ok: boolean, error: unknown): void {
    this.calls.end(call);
    const { entry } = call;
    if (call.detached !== null) {
      this.completion.settledDetached(call, ok);
    } else if (ok) {
      this.completion.complete(entry, outcomeOf(call.phase));
    } else {
      this.failures!.failed(entry, call.phase, error);
    }
    this.calls.notifyIfIdle();
    this.pump();
  }

  /** The record's attempt does not count: it waits in its lane for the record before it, then runs again. */
  requeue(call: RecordCall<T>): void {
    this.calls.end(call);
    const { entry } = call;
    if (call.detached !== null) {
      this.completion.settledDetached(call, false);
    } else {
      entry.handleAttempts--;
      entry.status = 'buffered';
      entry.owner.lanes.headChanged(entry);
    }
    this.calls.notifyIfIdle();
    this.pump();
  }

  private batchTurn(): void {
    this.batchTurnTimer = null;
    this.pumpNow();
    this.batches!.turnEnded(this.calls.slotsInUse < this.maxInFlight);
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
    if (!this.status.admitting) return;
    // Runs after every completion: it allocates nothing per partition, and stops as soon as no slot is free
    // (heads known complete from commit metadata are then taken by the pump that follows the next completion).
    const partitions = this.partitionOrder;
    if (partitions.length === 0) return;
    let progressed = true;
    while (progressed && this.calls.slotsInUse < this.maxInFlight) {
      progressed = false;
      for (let index = 0; index < partitions.length && this.calls.slotsInUse < this.maxInFlight; index++) {
        const partition = partitions[(this.roundRobin + index) % partitions.length]!;
        if (partition.revoked) continue;
        if (this.startNext(partition)) progressed = true;
        if (!this.status.admitting) return;
      }
      this.roundRobin = (this.roundRobin + 1) % partitions.length;
    }
  }

  private startNext(partition: OwnedPartition<T>): boolean {
    if (partition.inFlight >= this.maxInFlightPerPartition && partition.skip.size === 0) return false;
    this.scanning = partition;
    const head = partition.lanes.takeReadyHead(this.acceptReadyHead);
    this.scanning = null;
    if (head === undefined) return false;
    const knownComplete = partition.skip.size > 0 ? partition.skip.get(head.offset) : undefined;
    if (knownComplete !== undefined) {
      partition.skip.delete(head.offset);
      this.completion.complete(head, skipOutcome(knownComplete));
    } else if (this.batches !== null) {
      this.startLaneRun(partition, head);
    } else {
      this.startHandle(head);
    }
    return true;
  }

  private readonly acceptReadyHead = (candidate: RecordEntry<T>): boolean | 'stop' => {
    const partition = this.scanning!;
    if (partition.skip.size > 0 && partition.skip.has(candidate.offset)) return true;
    if (this.calls.slotsInUse >= this.maxInFlight || partition.inFlight >= this.maxInFlightPerPartition) return 'stop';
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
      running = this.work.handle!(entry.value as T, record, call);
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
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
      if (this.calls.slotsInUse >= this.maxInFlight) return;
      if (partition.inFlight >= this.maxInFlightPerPartition) return;
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
   * Settles the call when `running` does; a port returning a non-promise settles on the next microtask.
   * (`then` with two closures: the cheapest way found to await a call; see docs/decisions/0004-hot-path-choices.md.)
   */
  private awaitCall(call: RecordCall<T>, running: Promise<void>): void {
    Promise.resolve(running).then(
      () => this.settle(call, true, undefined),
      (err: unknown) => this.settle(call, false, err),
    );
  }
}

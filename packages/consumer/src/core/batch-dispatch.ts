// The hand-over of a formed batch (batch-former.ts) to `handleBatch`, and how its records settle. A record
// settles once its own outcome is known and its lane predecessor in the batch (`previous`) completed; when
// that predecessor did not complete, the record goes back to its lane and runs again after it, its attempt
// not counted. Records released while the batch formed (rewind, revoke, stall dead-letter, operator seek) are
// left out: their call ends unrun, and a record whose predecessor was left out goes back to its lane.
//
// Invariants:
// - Every record of a handed-over batch settles exactly once, through the scheduler's `settle` (completed or
//   failed) or `requeue` (back to its lane), or its call ends unrun (`calls.end`).
// - A record never completes before its lane predecessor in the batch did.
// - A throwing `handleBatch`, a rejected joint promise, or a result of the wrong length fails every record
//   of the batch with that error.
// - No promise per record beyond the handler's own: the gates are plain fields, and a finishing record
//   finishes the waiting records after it in a loop (a lane run can be a whole batch long).

import type { CallTracker } from './call-tracker.js';
import type { RecordCall } from './record-entry.js';
import type { BatchHandler, BatchItem, BatchOutcomes } from './types.js';

/**
 * A started record of batch mode. `previous` is the record before it in its lane when both were started in
 * one scheduling turn (consecutive lane records share batches), `next` the one after it. A record finishes
 * once its own promise settled (`own`) and its `previous` finished; `completed` is then known (null before):
 * true when it completed, so `next` may complete too.
 */
export interface BatchSlot<T> {
  call: RecordCall<T>;
  previous: BatchSlot<T> | null;
  next: BatchSlot<T> | null;
  own: BatchOutcome | null;
  completed: boolean | null;
}

/** How a batch record's own promise and its lane predecessor's outcome combine. */
type BatchOutcome = { ok: true } | { ok: false; error: unknown } | { ok: 'requeue' };
const BATCH_OK: BatchOutcome = { ok: true };
const BATCH_REQUEUE: BatchOutcome = { ok: 'requeue' };

/** `handleBatch` answered with one promise per record (rather than one for the batch's outcomes). */
function isPromiseList<R>(results: readonly Promise<void>[] | Promise<R>): results is readonly Promise<void>[] {
  return Array.isArray(results);
}

export interface BatchDispatchPorts<T> {
  calls: Pick<CallTracker<T>, 'end' | 'notifyIfIdle'>;
  /** The host's batch handler, read at every batch. */
  work: { readonly handleBatch?: BatchHandler<T> | undefined };
  /** The scheduler: a settled record's outcome, or a record back to its lane. */
  scheduler: {
    settle(call: RecordCall<T>, ok: boolean, error: unknown): void;
    requeue(call: RecordCall<T>): void;
  };
}

export class BatchDispatch<T> {
  private readonly calls: Pick<CallTracker<T>, 'end' | 'notifyIfIdle'>;
  private readonly work: { readonly handleBatch?: BatchHandler<T> | undefined };
  private readonly scheduler: BatchDispatchPorts<T>['scheduler'];

  constructor(ports: BatchDispatchPorts<T>) {
    this.calls = ports.calls;
    this.work = ports.work;
    this.scheduler = ports.scheduler;
  }

  /** Hands a formed batch to `handleBatch`, leaving out the records released meanwhile. */
  run(batch: BatchSlot<T>[]): void {
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
      if (previousLeftOut && slot.call.detached === null) this.scheduler.requeue(slot.call);
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
        results = this.work.handleBatch!(items);
        if (isPromiseList(results) && results.length !== live.length) {
          throw new Error(`handleBatch returned ${results.length} results for ${live.length} records`);
        }
      } catch (err) {
        results = Promise.reject(err);
      }
      if (isPromiseList(results)) {
        for (let index = 0; index < live.length; index++) this.awaitRecord(live[index]!, results[index]!);
      } else {
        this.awaitOutcomes(live, results);
      }
    }
    this.calls.notifyIfIdle();
  }

  /** One promise per record: each settles its record (after its lane predecessor in the batch). */
  private awaitRecord(slot: BatchSlot<T>, running: Promise<void>): void {
    Promise.resolve(running).then(
      () => this.recordSettled(slot, BATCH_OK),
      (error: unknown) => this.recordSettled(slot, { ok: false, error }),
    );
  }

  /** The joint shape: every record of the batch settles when the batch's outcomes arrive, in batch order. */
  private awaitOutcomes(live: readonly BatchSlot<T>[], running: Promise<BatchOutcomes>): void {
    const failAll = (error: unknown) => {
      const outcome: BatchOutcome = { ok: false, error };
      for (const slot of live) this.recordSettled(slot, outcome);
    };
    Promise.resolve(running).then((outcomes) => {
      if (!Array.isArray(outcomes) || outcomes.length !== live.length) {
        const count = Array.isArray(outcomes) ? outcomes.length : typeof outcomes;
        return failAll(new Error(`handleBatch resolved ${count} outcomes for ${live.length} records`));
      }
      for (let index = 0; index < live.length; index++) {
        const outcome: unknown = outcomes[index];
        this.recordSettled(live[index]!, outcome === null ? BATCH_OK : { ok: false, error: outcome });
      }
    }, failAll);
  }

  /**
   * Finishes `slot` unless its predecessor is still unknown (that one finishes it), then each successor whose
   * own promise already settled.
   */
  private recordSettled(settled: BatchSlot<T>, own: BatchOutcome): void {
    settled.own = own;
    let slot: BatchSlot<T> | null = settled;
    while (slot !== null && slot.own !== null) {
      const { previous } = slot;
      if (previous !== null && previous.completed === null) return;
      const result = previous !== null && !previous.completed ? BATCH_REQUEUE : slot.own;
      slot.previous = null;
      slot.completed = result.ok === true && slot.call.detached === null;
      if (result.ok === 'requeue') this.scheduler.requeue(slot.call);
      else if (result.ok) this.scheduler.settle(slot.call, true, undefined);
      else this.scheduler.settle(slot.call, false, result.error);
      const next: BatchSlot<T> | null = slot.next;
      slot.next = null;
      slot = next;
    }
  }
}

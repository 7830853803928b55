// The calls in flight (handle, onPermanentFailure, deadLetter): the execution slots they hold, the calls
// whose record was released while they ran, and who waits for all of them to settle.
//
// Invariants:
// - `running` counts every call begun and not yet ended, attached or detached; `slotsInUse` and each
//   partition's `inFlight` count those of them that hold an execution slot (handler calls only). Ending a
//   call twice changes nothing.
// - A detached call is no longer its record's current call; it is listed by record identity until it ends.
//   Only a released record can be delivered again, so only detached calls can meet a redelivered copy of
//   their record: `isRunning` answers from them alone, and the hot path builds no identity string.
// - The identity outlives partition states and reassignments: a copy redelivered to a new partition state
//   never runs while the original call still does.

import { abortCall, RecordCall, type DetachMode, type RecordEntry } from './record-entry.js';
import { recordIdentity } from './topic-partition.js';
import type { Clock, RecordPhase, TimerHandle, TopicPartition } from './types.js';

export class CallTracker<T> {
  /** Calls begun and not ended, attached or detached; drain waits for them. */
  running = 0;
  /** Execution slots held (handler calls), including calls of revoked partitions still settling. */
  slotsInUse = 0;
  private readonly detachedIdentities = new Map<string, number>();
  private readonly detachedCalls = new Set<RecordCall<T>>();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly clock: Clock) {}

  /** A new call for `entry`, now its current call. Only handler calls take an execution slot. */
  begin(entry: RecordEntry<T>, phase: RecordPhase, holdsSlot: boolean, attempt: number): RecordCall<T> {
    const call = new RecordCall<T>(entry, phase, holdsSlot, entry.owner.epoch, attempt);
    entry.call = call;
    this.running++;
    if (holdsSlot) {
      this.slotsInUse++;
      entry.owner.inFlight++;
    }
    return call;
  }

  /** The call settled: frees its slot and its identity; the record no longer has a current call. */
  end(call: RecordCall<T>): void {
    if (call.settled) return;
    call.settled = true;
    this.running--;
    if (call.detached !== null) {
      this.detachedCalls.delete(call);
      const identity = call.identity;
      const remaining = (this.detachedIdentities.get(identity) ?? 1) - 1;
      if (remaining > 0) this.detachedIdentities.set(identity, remaining);
      else this.detachedIdentities.delete(identity);
    }
    if (call.holdsSlot) {
      this.slotsInUse--;
      call.entry.owner.inFlight--;
    }
    if (call.entry.call === call) call.entry.call = null;
  }

  /**
   * The call's record was released (rewind, revoke, operator seek, stall dead-letter): the call keeps its slot
   * until it settles, and `mode` says what its outcome is worth then. With `abortReason` its signal aborts.
   */
  detach(call: RecordCall<T>, mode: DetachMode, abortReason: string | null): void {
    if (call.detached === null && !call.settled) {
      this.detachedCalls.add(call);
      const identity = call.identity;
      this.detachedIdentities.set(identity, (this.detachedIdentities.get(identity) ?? 0) + 1);
    }
    call.detached = mode;
    if (call.entry.call === call) call.entry.call = null;
    if (abortReason !== null) abortCall(call, new Error(abortReason));
  }

  /** A call for the record at `offset` of `tp` still runs detached: its redelivered copy must wait. */
  isRunning(tp: TopicPartition, offset: string): boolean {
    return this.detachedIdentities.size > 0 && this.detachedIdentities.has(recordIdentity(tp, offset));
  }

  /** Aborts every detached call and the current calls of `entries` (drain deadline). */
  abortAll(entries: Iterable<RecordEntry<T>>, reason: Error): void {
    for (const call of this.detachedCalls) abortCall(call, reason);
    for (const entry of entries) if (entry.call) abortCall(entry.call, reason);
  }

  /**
   * Resolves once no call runs, or after `timeoutMs` on the injected clock; true when the time ran out.
   * Settles through `notifyIfIdle`, which the core calls after every settled call.
   */
  waitForIdle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let timer: TimerHandle | null = null;
      const finish = (timedOut: boolean): void => {
        if (timer !== null) this.clock.clearTimeout(timer);
        this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== idle);
        resolve(timedOut);
      };
      const idle = (): void => finish(false);
      timer = this.clock.setTimeout(() => {
        timer = null;
        finish(true);
      }, timeoutMs);
      this.idleWaiters.push(idle);
    });
  }

  notifyIfIdle(): void {
    if (this.running > 0 || this.idleWaiters.length === 0) return;
    for (const waiter of [...this.idleWaiters]) waiter();
  }
}

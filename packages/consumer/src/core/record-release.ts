// Letting go of tracked records: the source will deliver them again (rebalance, quarantine, operator
// actions), the partition is revoked, or the stall dead-letter takes a record over. A released record's
// retry timer is cancelled and its running call detached (call-tracker.ts): the call keeps its slot until it
// settles, and its outcome is then remembered or ignored (DetachMode).
//
// Invariants:
// - A released record has no retry timer armed and no current call.
// - Every release that drops records from the partition's bookkeeping is counted (`redelivered`) and
//   reported ('redelivered') with its reason; one that drops nothing reports nothing.

import type { CallTracker } from './call-tracker.js';
import type { CoreEvents } from './core-events.js';
import type { DetachMode, OwnedPartition, RecordEntry } from './record-entry.js';
import type { Clock, CoreCounters, RedeliveryReason } from './types.js';

export interface RecordReleasePorts<T> {
  clock: Clock;
  calls: Pick<CallTracker<T>, 'detach'>;
  counters: CoreCounters;
  events: CoreEvents;
}

export class RecordRelease<T> {
  private readonly clock: Clock;
  private readonly calls: Pick<CallTracker<T>, 'detach'>;
  private readonly counters: CoreCounters;
  private readonly events: CoreEvents;

  constructor(ports: RecordReleasePorts<T>) {
    this.clock = ports.clock;
    this.calls = ports.calls;
    this.counters = ports.counters;
    this.events = ports.events;
  }

  /** Releases tracked records from `from` on; their calls keep running and a success is remembered. */
  releaseFrom(partition: OwnedPartition<T>, from: bigint, reason: RedeliveryReason): void {
    const { released, count } = partition.releaseFrom(from, true);
    this.detach(released, 'remember', null);
    if (count > 0) {
      this.counters.redelivered += count;
      this.events.emit({ type: 'redelivered', ...partition.tp, count, reason });
    }
  }

  /** Detaches the calls of records already dropped from their partition; `abortReason` aborts their signals. */
  detach(released: readonly RecordEntry<T>[], mode: DetachMode, abortReason: string | null): void {
    for (const entry of released) this.detachEntry(entry, mode, abortReason);
  }

  detachEntry(entry: RecordEntry<T>, mode: DetachMode, abortReason: string | null): void {
    this.cancelRetry(entry);
    if (entry.call) this.calls.detach(entry.call, mode, abortReason);
  }

  cancelRetry(entry: RecordEntry<T>): void {
    if (entry.retryTimer === null) return;
    this.clock.clearTimeout(entry.retryTimer);
    entry.retryTimer = null;
  }
}

// How much a partition takes in follows what it holds: the backpressure rule (backpressure.ts) is applied to
// its pending records and unfinished bytes, the source is paused or resumed to match that and the quarantine
// (source-control.ts), and a completion's commit goes early when waiting for the interval would only hold
// the partition back.
//
// Invariants:
// - A 'backpressure' event is emitted exactly when a partition's backpressured state changes.
// - After `update` the source's pause state matches "quarantined or backpressured", unless the pause or
//   resume failed (the core is fatal then, see SourceControl).
// - After a completion the commit is expedited when the partition is near its pending budget and a commit
//   would release records, or when every record up to the reported log end completed; otherwise it is
//   scheduled at the interval. Either way a commit follows every completion.

import type { Backpressure } from './backpressure.js';
import type { CommitScheduler } from './commit-scheduler.js';
import type { CoreEvents } from './core-events.js';
import type { ControlledPartition, SourceControl } from './source-control.js';

/** What the flow reads and keeps of a partition (`PartitionState` is one). */
export interface FlowPartition extends ControlledPartition {
  backpressured: boolean;
  readonly pending: number;
  readonly unfinishedBytes: number;
  /** A commit now would release at least one record. */
  readonly prefixCompleted: boolean;
  /** Every delivered record completed and the last one reached the reported log end. */
  readonly drainedToLogEnd: boolean;
}

export interface PartitionFlowPorts {
  backpressure: Backpressure;
  sourceControl: Pick<SourceControl, 'sync'>;
  commits: Pick<CommitScheduler, 'schedule' | 'expedite'>;
  events: CoreEvents;
}

export class PartitionFlow {
  private readonly backpressure: Backpressure;
  private readonly sourceControl: Pick<SourceControl, 'sync'>;
  private readonly commits: Pick<CommitScheduler, 'schedule' | 'expedite'>;
  private readonly events: CoreEvents;

  constructor(ports: PartitionFlowPorts) {
    this.backpressure = ports.backpressure;
    this.sourceControl = ports.sourceControl;
    this.commits = ports.commits;
    this.events = ports.events;
  }

  /**
   * Applies the partition's backpressure and brings the source's pause state in line with it and the
   * quarantine. A batch already fetched is still accepted whole, hence "limit + one fetch batch".
   */
  update(partition: FlowPartition): void {
    const pending = partition.pending;
    const bytes = partition.unfinishedBytes;
    const backpressured = this.backpressure.next(partition.backpressured, pending, bytes);
    if (backpressured !== partition.backpressured) {
      partition.backpressured = backpressured;
      this.events.emit({ type: 'backpressure', ...partition.tp, paused: backpressured, pending, bufferedBytes: bytes });
    }
    this.sourceControl.sync(partition);
  }

  /** A record of the partition completed: update it, then commit early or at the interval. */
  completed(partition: FlowPartition): void {
    this.update(partition);
    // Early: a partition near its pending budget (the commit frees it), or one whose every record up to the
    // log end completed (nothing more can join the commit, so waiting for the interval only delays it).
    if (
      (this.backpressure.commitsEarly(partition.backpressured, partition.pending) && partition.prefixCompleted) ||
      partition.drainedToLogEnd
    ) {
      this.commits.expedite();
    } else {
      this.commits.schedule();
    }
  }
}

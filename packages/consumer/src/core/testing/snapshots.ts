import { zeroCounters } from '../core-counters.js';
import type { CoreSnapshot, PartitionSnapshot } from '../types.js';

/** A partition snapshot with nothing delivered, for tests of code that reads snapshots. */
export function partitionSnapshotOf(overrides: Partial<PartitionSnapshot> = {}): PartitionSnapshot {
  return {
    topic: 'in',
    partition: 0,
    watermark: null,
    committableOffset: null,
    highestCompleted: null,
    deliveredCount: 0,
    inFlight: 0,
    completedUncommitted: 0,
    buffered: 0,
    bufferedBytes: 0,
    retryWaiting: 0,
    lanes: 0,
    oldestUnfinishedOffset: null,
    oldestUnfinishedAgeMs: null,
    paused: false,
    quarantine: null,
    ...overrides,
  };
}

/** A running core's snapshot holding these partitions. */
export function coreSnapshotOf(partitions: PartitionSnapshot[], overrides: Partial<CoreSnapshot> = {}): CoreSnapshot {
  return {
    nowMs: 10_000,
    state: 'running',
    fatalReason: null,
    inFlight: partitions.reduce((n, p) => n + p.inFlight, 0),
    partitions,
    counters: zeroCounters(),
    ...overrides,
  };
}

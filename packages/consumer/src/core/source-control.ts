// The core's pause, resume and seek calls on the source. A partition is paused exactly while it is quarantined
// or backpressured; `sourcePaused` remembers what the source was last told, so each change costs one call.
// A call that throws is routed like every failure (failure-routing.ts): fatal for an owned partition (the core
// must not consume past input it could not hold back, and a partition silently left paused is a stall nobody
// sees), only reported for the resume of a partition being revoked.

import { describeError } from './classify-error.js';
import { routeFailure, type RoutingPolicy } from './failure-routing.js';
import { formatTopicPartition } from './topic-partition.js';
import type { CoreEvent, Offset, SourcePort, TopicPartition } from './types.js';

/** What source control reads and keeps of a partition. */
export interface ControlledPartition {
  readonly topic: string;
  readonly partition: number;
  readonly tp: TopicPartition;
  readonly quarantine: unknown;
  readonly backpressured: boolean;
  sourcePaused: boolean;
}

export class SourceControl {
  constructor(
    private readonly source: SourcePort,
    private readonly routing: RoutingPolicy,
    /** The core's fatal state: set by a fatal failure; while set, nothing is resumed. */
    private readonly fatal: { isFatal(): boolean; setFatal(reason: string): void },
    private readonly emit: (event: CoreEvent) => void,
  ) {}

  /** Pauses or resumes the partition so the source matches its quarantine and backpressure. */
  sync(partition: ControlledPartition): void {
    const shouldPause = partition.quarantine !== null || partition.backpressured;
    if (shouldPause && !partition.sourcePaused) {
      try {
        this.source.pause(partition.tp);
        partition.sourcePaused = true;
      } catch (error) {
        this.failed(partition, true, `pause of ${formatTopicPartition(partition)}`, error);
      }
    } else if (!shouldPause && partition.sourcePaused && !this.fatal.isFatal()) {
      this.resume(partition, true);
    }
  }

  /** Tells the source to read the partition from `offset` next; false when that failed (the core is fatal then). */
  seek(partition: ControlledPartition, offset: Offset): boolean {
    try {
      this.source.seek(partition.tp, offset);
      return true;
    } catch (error) {
      this.failed(partition, true, `seek of ${formatTopicPartition(partition)} to ${offset}`, error);
      return false;
    }
  }

  /** A revoked partition the core paused is resumed: the source's pause state outlives the assignment. */
  release(partition: ControlledPartition): void {
    if (partition.sourcePaused) this.resume(partition, false);
  }

  private resume(partition: ControlledPartition, owned: boolean): void {
    try {
      this.source.resume(partition.tp);
      partition.sourcePaused = false;
    } catch (error) {
      this.failed(partition, owned, `resume of ${formatTopicPartition(partition)}`, error);
    }
  }

  /** Only the resume of a released partition is made for a partition the core no longer owns. */
  private failed(partition: ControlledPartition, owned: boolean, what: string, error: unknown): void {
    const route = routeFailure({ phase: 'source-control', owned }, this.routing);
    switch (route.action) {
      case 'fatal':
        this.fatal.setFatal(`${what} failed: ${describeError(error)}`);
        return;
      case 'report':
        this.emit({ type: 'source-call-failed', ...partition.tp, call: 'resume', error });
        return;
    }
  }
}

// Stall watch: which partitions hold a record that has been unfinished for too long, and (opt-in) the timer
// that hands such records to the stall dead-letter.
//
// Rules:
// - A partition is reported stalled when its oldest unfinished record was delivered more than
//   `thresholdMs` ago (age since delivery: what an operator waiting for the commit experiences).
// - Stall dead-letter (only with `deadLetterAfterMs`) measures from the record's first start, so records that
//   waited for a slot are not punished; only the oldest unfinished record of a partition is considered, only
//   while it runs or waits for a retry, and never when it is already being dead-lettered.
// - The check timer runs only while some partition holds an unfinished record, and never after `stop()`.

import type { OwnedPartition, RecordEntry } from './record-entry.js';
import type { Clock, StallInfo, TimerHandle } from './types.js';

export interface StallSettings {
  thresholdMs: number;
  /** null: stalled records are only reported, never dead-lettered. */
  deadLetterAfterMs: number | null;
  checkIntervalMs: number;
}

/** The partition's stall, or null when its oldest unfinished record is younger than `thresholdMs`. */
export function stallOf<T>(partition: OwnedPartition<T>, nowMs: number, thresholdMs: number): StallInfo | null {
  const oldest = partition.oldestUnfinished();
  if (!oldest) return null;
  const ageMs = nowMs - oldest.deliveredAtMs;
  if (ageMs <= thresholdMs) return null;
  return {
    topic: partition.topic,
    partition: partition.partition,
    offset: oldest.offset,
    ageMs,
    state: oldest.status as StallInfo['state'],
    phase: oldest.phase,
    attempts: oldest.handleAttempts,
  };
}

/** The record of `partition` to dead-letter as stalled, with its age since first start; null when none is due. */
export function stalledForDeadLetter<T>(
  partition: OwnedPartition<T>,
  nowMs: number,
  limitMs: number,
): { entry: RecordEntry<T>; ageMs: number } | null {
  const oldest = partition.oldestUnfinished();
  if (!oldest || oldest.phase === 'dead-letter' || oldest.firstStartedAtMs === null) return null;
  if (oldest.status !== 'running' && oldest.status !== 'retry-wait') return null;
  const ageMs = nowMs - oldest.firstStartedAtMs;
  return ageMs > limitMs ? { entry: oldest, ageMs } : null;
}

export class StallWatch<T> {
  private timer: TimerHandle | null = null;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly settings: StallSettings,
    /** The partitions owned now (read on every check). */
    private readonly partitions: () => Iterable<OwnedPartition<T>>,
    /** Dead-letters the record; called for at most one record per partition per check. */
    private readonly onStalled: (entry: RecordEntry<T>, ageMs: number) => void,
  ) {}

  /** Partitions whose oldest unfinished record was delivered more than the threshold ago. */
  stalls(nowMs: number): StallInfo[] {
    const stalls: StallInfo[] = [];
    for (const partition of this.partitions()) {
      const stall = stallOf(partition, nowMs, this.settings.thresholdMs);
      if (stall) stalls.push(stall);
    }
    return stalls;
  }

  /** Arms the check timer when stall dead-letter is on and none is armed; called whenever records arrive. */
  ensureRunning(): void {
    if (this.settings.deadLetterAfterMs === null || this.timer !== null || this.stopped) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.check();
      if (this.anyUnfinished()) this.ensureRunning();
    }, this.settings.checkIntervalMs);
  }

  /** No more checks (core closed or fatal). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private check(): void {
    const limit = this.settings.deadLetterAfterMs;
    if (limit === null || this.stopped) return;
    const nowMs = this.clock.now();
    for (const partition of [...this.partitions()]) {
      const stalled = stalledForDeadLetter(partition, nowMs, limit);
      if (stalled) this.onStalled(stalled.entry, stalled.ageMs);
    }
  }

  private anyUnfinished(): boolean {
    for (const partition of this.partitions()) if (partition.oldestUnfinished()) return true;
    return false;
  }
}

import { describe, expect, it } from 'vitest';
import type { OwnedPartition, RecordEntry } from './record-entry.js';
import { StallWatch, stalledForDeadLetter, stallOf } from './stall-watch.js';
import { ManualClock } from './testing/fake-clock.js';
import { deliverEntry as deliver, ownedPartition as partition } from './testing/tracked-records.js';

function start(entry: RecordEntry<string>, atMs: number): RecordEntry<string> {
  entry.status = 'running';
  entry.handleAttempts++;
  entry.firstStartedAtMs = atMs;
  return entry;
}

describe('stallOf: age since delivery of the oldest unfinished record', () => {
  it('reports the oldest unfinished record once it is older than the threshold', () => {
    const owner = partition();
    const done = deliver(owner, 0, 0);
    owner.complete(done);
    start(deliver(owner, 1, 100), 5_000);
    deliver(owner, 2, 50);
    expect(stallOf(owner, 30_100, 30_000)).toBeNull();
    expect(stallOf(owner, 30_101, 30_000)).toEqual({
      topic: 'events',
      partition: 0,
      offset: '1',
      ageMs: 30_001,
      state: 'running',
      phase: 'handle',
      attempts: 1,
    });
  });

  it('a partition without unfinished records never stalls', () => {
    const owner = partition();
    owner.complete(deliver(owner, 0, 0));
    expect(stallOf(owner, 1e9, 0)).toBeNull();
  });
});

describe('stalledForDeadLetter: age since first start, oldest record only', () => {
  it('measures from the first start, not from delivery', () => {
    const owner = partition();
    const entry = start(deliver(owner, 0, 0), 10_000);
    expect(stalledForDeadLetter(owner, 15_000, 5_000)).toBeNull();
    expect(stalledForDeadLetter(owner, 15_001, 5_000)).toEqual({ entry, ageMs: 5_001 });
  });

  it('counts a record waiting for a retry, never one not started or already being dead-lettered', () => {
    const owner = partition();
    const entry = deliver(owner, 0, 0);
    expect(stalledForDeadLetter(owner, 1e6, 0)).toBeNull(); // buffered: never started
    start(entry, 0);
    entry.status = 'retry-wait';
    expect(stalledForDeadLetter(owner, 1e6, 0)?.entry).toBe(entry);
    entry.phase = 'dead-letter';
    entry.status = 'running';
    expect(stalledForDeadLetter(owner, 1e6, 0)).toBeNull();
  });

  it('looks only at the oldest unfinished record of the partition', () => {
    const owner = partition();
    deliver(owner, 0, 0); // waiting for its lane, never started
    start(deliver(owner, 1, 0), 0);
    expect(stalledForDeadLetter(owner, 1e6, 0)).toBeNull();
  });
});

describe('StallWatch', () => {
  function watch(deadLetterAfterMs: number | null, partitions: OwnedPartition<string>[]) {
    const clock = new ManualClock();
    const stalled: Array<[string, number]> = [];
    const stallWatch = new StallWatch<string>(
      clock,
      { thresholdMs: 30_000, deadLetterAfterMs, checkIntervalMs: 1_000 },
      () => partitions,
      (entry, ageMs) => {
        stalled.push([entry.offset, ageMs]);
        entry.phase = 'dead-letter';
      },
    );
    return { clock, stallWatch, stalled };
  }

  it('lists the stalled partitions', () => {
    const p0 = partition(0);
    const p1 = partition(1);
    deliver(p0, 0, 0);
    deliver(p1, 0, 20_000);
    const { stallWatch } = watch(null, [p0, p1]);
    expect(stallWatch.stalls(40_000).map((stall) => stall.partition)).toEqual([0]);
  });

  it('arms no timer when stall dead-letter is off', () => {
    const owner = partition();
    start(deliver(owner, 0, 0), 0);
    const { clock, stallWatch } = watch(null, [owner]);
    stallWatch.ensureRunning();
    expect(clock.pendingTimers).toBe(0);
  });

  it('checks every interval while records are unfinished, hands each due record over once, then stops', () => {
    const owner = partition();
    const entry = start(deliver(owner, 0, 0), 0);
    const { clock, stallWatch, stalled } = watch(2_500, [owner]);
    stallWatch.ensureRunning();
    stallWatch.ensureRunning(); // one timer, however often it is asked
    expect(clock.pendingTimers).toBe(1);
    clock.advance(2_000);
    expect(stalled).toEqual([]);
    clock.advance(1_000);
    expect(stalled).toEqual([['0', 3_000]]);
    clock.advance(5_000);
    expect(stalled).toHaveLength(1); // being dead-lettered now: not handed over again
    owner.complete(entry);
    clock.advance(1_000);
    expect(clock.pendingTimers).toBe(0); // nothing unfinished: the timer is not re-armed
  });

  it('never runs after stop()', () => {
    const owner = partition();
    start(deliver(owner, 0, 0), 0);
    const { clock, stallWatch, stalled } = watch(0, [owner]);
    stallWatch.ensureRunning();
    stallWatch.stop();
    stallWatch.ensureRunning();
    clock.advance(10_000);
    expect(clock.pendingTimers).toBe(0);
    expect(stalled).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock.js';
import type { WorkProgress } from '../core/index.js';
import { ReadinessTracker } from './readiness-tracker.js';

const idle: WorkProgress = { heldRecords: 0, heldSinceMs: null, lastCompletedAtMs: null };
const healthy = { fatalReason: null, assignedPartitions: 2, work: idle };

function holding(work: WorkProgress) {
  return { fatalReason: null, assignedPartitions: 2, work };
}

describe('ReadinessTracker', () => {
  it('is not ready before the first join, even with fetches', () => {
    const tracker = new ReadinessTracker(new ManualClock(), 20_000);
    tracker.progress();
    expect(tracker.readiness(healthy)).toEqual({ ready: false, detail: 'not joined to the group yet' });
  });

  it('is ready after a join and while progress stays inside the window, then red once it passes', () => {
    const clock = new ManualClock(1_000);
    const tracker = new ReadinessTracker(clock, 20_000);
    tracker.joinedGroup();
    expect(tracker.readiness(healthy)).toEqual({
      ready: true,
      detail: '2 partition(s) assigned; last progress 0 s ago',
    });
    clock.advance(20_000);
    expect(tracker.readiness(healthy).ready).toBe(true);
    clock.advance(1);
    expect(tracker.readiness(healthy)).toEqual({ ready: false, detail: 'no fetch or heartbeat for 20 s' });
    tracker.progress();
    expect(tracker.readiness(healthy).ready).toBe(true);
  });

  it('reports a crash until the next join, whatever progress comes meanwhile', () => {
    const clock = new ManualClock();
    const tracker = new ReadinessTracker(clock, 20_000);
    tracker.joinedGroup();
    tracker.crashed('KafkaJSConnectionError: Connection error');
    tracker.progress();
    expect(tracker.readiness(healthy)).toEqual({
      ready: false,
      detail: 'consumer crashed: KafkaJSConnectionError: Connection error; restarting',
    });
    tracker.rebuilt();
    expect(tracker.readiness(healthy).ready).toBe(false);
    tracker.joinedGroup();
    expect(tracker.readiness(healthy).ready).toBe(true);
  });

  it('puts a fatal core before everything else', () => {
    const tracker = new ReadinessTracker(new ManualClock(), 20_000);
    tracker.joinedGroup();
    tracker.crashed('boom');
    expect(tracker.readiness({ fatalReason: 'commit failed', assignedPartitions: 1, work: idle })).toEqual({
      ready: false,
      detail: 'consumer core is fatal: commit failed',
    });
  });

  it('measures silence from the last progress, null before any (a clock starting at 0 included)', () => {
    const clock = new ManualClock(0);
    const tracker = new ReadinessTracker(clock, 20_000);
    expect(tracker.silentMs()).toBeNull();
    tracker.progress();
    clock.advance(7_000);
    expect(tracker.silentMs()).toBe(7_000);
    tracker.rebuilt();
    expect(tracker.silentMs()).toBe(0);
  });

  describe('held work that completes nothing', () => {
    /** A joined tracker whose consumer heartbeats at every step, so only held work can turn it red. */
    function heartbeating(startMs: number) {
      const clock = new ManualClock(startMs);
      const tracker = new ReadinessTracker(clock, 20_000);
      tracker.joinedGroup();
      const after = (ms: number, work: WorkProgress) => {
        clock.advance(ms);
        tracker.progress();
        return tracker.readiness(holding(work));
      };
      return { clock, after };
    }

    it('turns red once held records went a whole window without a completion, although heartbeats flow', () => {
      const { clock, after } = heartbeating(100_000);
      const work = { heldRecords: 12, heldSinceMs: 90_000, lastCompletedAtMs: 95_000 };
      expect(after(10_000, work).ready).toBe(true);
      expect(after(5_000, work).ready).toBe(true);
      expect(after(1, work)).toEqual({ ready: false, detail: '12 record(s) waiting, none completed for 20 s' });
      // A completion turns it green at once.
      expect(after(0, { ...work, lastCompletedAtMs: clock.now() }).ready).toBe(true);
    });

    it('gives work that arrives after an idle spell a full window, measured from the oldest held delivery', () => {
      const { after } = heartbeating(0);
      // Last completion an hour ago, the record just delivered: not stuck.
      const work = { heldRecords: 1, heldSinceMs: 3_600_000, lastCompletedAtMs: 0 };
      expect(after(3_600_000, work).ready).toBe(true);
      expect(after(20_000, work).ready).toBe(true);
      expect(after(1, work)).toEqual({ ready: false, detail: '1 record(s) waiting, none completed for 20 s' });
    });

    it('counts from the first delivery when nothing ever completed', () => {
      const { after } = heartbeating(5_000);
      const work = { heldRecords: 3, heldSinceMs: 5_000, lastCompletedAtMs: null };
      expect(after(20_001, work).detail).toBe('3 record(s) waiting, none completed for 20 s');
    });

    it('stays ready on heartbeats alone while idle, however long ago the last completion', () => {
      const { after } = heartbeating(0);
      expect(after(600_000, { heldRecords: 0, heldSinceMs: null, lastCompletedAtMs: 0 }).ready).toBe(true);
    });

    it('reports silence before stuck work, since a silent consumer is the more basic failure', () => {
      const clock = new ManualClock(0);
      const tracker = new ReadinessTracker(clock, 20_000);
      tracker.joinedGroup();
      clock.advance(30_000);
      expect(tracker.readiness(holding({ heldRecords: 4, heldSinceMs: 0, lastCompletedAtMs: null })).detail).toBe(
        'no fetch or heartbeat for 30 s',
      );
    });
  });
});

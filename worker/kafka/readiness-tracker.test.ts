import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock';
import { ReadinessTracker } from './readiness-tracker';

const healthy = { fatalReason: null, assignedPartitions: 2 };

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
    expect(tracker.readiness({ fatalReason: 'commit failed', assignedPartitions: 1 })).toEqual({
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
});

import { describe, expect, it } from 'vitest';
import { CallTracker } from './call-tracker.js';
import { zeroCounters } from './core-counters.js';
import { RecordRelease } from './record-release.js';
import { ManualClock } from './testing/fake-clock.js';
import { recordedEvents } from './testing/part-fakes.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';

function releaseOf() {
  const clock = new ManualClock();
  const calls = new CallTracker<string>(clock);
  const counters = zeroCounters();
  const { events, emitted } = recordedEvents();
  return { clock, calls, counters, emitted, release: new RecordRelease<string>({ clock, calls, counters, events }) };
}

describe('RecordRelease.releaseFrom', () => {
  it('drops the records from an offset on, detaches their calls to be remembered, cancels their retries', () => {
    const { clock, calls, counters, emitted, release } = releaseOf();
    const partition = ownedPartition();
    const kept = deliverEntry(partition, 0);
    const running = deliverEntry(partition, 1);
    const waiting = deliverEntry(partition, 2);
    const call = calls.begin(running, 'handle', true, 1);
    waiting.status = 'retry-wait';
    waiting.retryTimer = clock.setTimeout(() => {
      throw new Error('a released retry must not fire');
    }, 100);

    release.releaseFrom(partition, 1n, 'quarantine');
    expect([running.status, waiting.status, kept.status]).toEqual(['released', 'released', 'buffered']);
    expect(call.detached).toBe('remember');
    expect(call.signal.aborted).toBe(false); // remembered calls keep running
    expect(running.call).toBeNull();
    expect(waiting.retryTimer).toBeNull();
    expect(clock.pendingTimers).toBe(0);
    expect(counters.redelivered).toBe(2);
    expect(emitted).toEqual([{ type: 'redelivered', topic: 'events', partition: 0, count: 2, reason: 'quarantine' }]);
    expect(partition.accepts(1n)).toBe(true);
  });

  it('reports nothing when nothing was tracked from that offset on', () => {
    const { counters, emitted, release } = releaseOf();
    const partition = ownedPartition();
    deliverEntry(partition, 0);
    release.releaseFrom(partition, 5n, 'rebalance');
    expect(counters.redelivered).toBe(0);
    expect(emitted).toEqual([]);
  });
});

describe('RecordRelease.detach', () => {
  it('detaches with the given mode and aborts the signal when a reason is given', () => {
    const { calls, release } = releaseOf();
    const partition = ownedPartition();
    const entry = deliverEntry(partition, 0);
    const call = calls.begin(entry, 'handle', true, 1);
    const { released } = partition.releaseFrom(null, false);
    release.detach(released, 'ignore', 'events[0] was revoked');
    expect(call.detached).toBe('ignore');
    expect(call.signal.aborted).toBe(true);
    expect((call.signal.reason as Error).message).toBe('events[0] was revoked');
    expect(calls.isRunning(partition, '0')).toBe(true); // keeps its slot until it settles
    expect(calls.slotsInUse).toBe(1);
  });

  it('detachEntry takes one tracked record over (stall dead-letter): retry cancelled, call ignored', () => {
    const { clock, calls, release } = releaseOf();
    const entry = deliverEntry(ownedPartition(), 0);
    const call = calls.begin(entry, 'handle', true, 1);
    entry.retryTimer = clock.setTimeout(() => undefined, 10);
    release.detachEntry(entry, 'ignore', 'record dead-lettered as stalled');
    expect([call.detached, call.signal.aborted, entry.call, clock.pendingTimers]).toEqual(['ignore', true, null, 0]);
  });
});

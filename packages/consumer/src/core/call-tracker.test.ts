import { describe, expect, it } from 'vitest';
import { CallTracker } from './call-tracker.js';
import { flushMicrotasks, ManualClock } from './testing/fake-clock.js';
import { deliverEntry as entry, ownedPartition as partition } from './testing/tracked-records.js';

describe('CallTracker: slots', () => {
  it('only handler calls hold a slot, globally and in their partition; ending twice frees once', () => {
    const tracker = new CallTracker<string>(new ManualClock());
    const p0 = partition(0);
    const first = tracker.begin(entry(p0, 0), 'handle', true, 1);
    const failureResult = tracker.begin(entry(p0, 1), 'permanent-failure', false, 1);
    expect({ running: tracker.running, slots: tracker.slotsInUse, inFlight: p0.inFlight }).toEqual({
      running: 2,
      slots: 1,
      inFlight: 1,
    });
    expect(first.entry.call).toBe(first);

    tracker.end(first);
    tracker.end(first);
    tracker.end(failureResult);
    expect({ running: tracker.running, slots: tracker.slotsInUse, inFlight: p0.inFlight }).toEqual({
      running: 0,
      slots: 0,
      inFlight: 0,
    });
    expect(first.entry.call).toBeNull();
  });
});

describe('CallTracker: redelivered copies', () => {
  it('knows a detached call by record identity until it ends, also from a new partition state', () => {
    const tracker = new CallTracker<string>(new ManualClock());
    const revoked = partition(0);
    const call = tracker.begin(entry(revoked, 7), 'handle', true, 1);
    expect(tracker.isRunning(revoked, '7')).toBe(false); // attached: its record cannot be redelivered

    tracker.detach(call, 'ignore', 'events[0] was revoked');
    const reassigned = partition(0);
    expect(tracker.isRunning(reassigned, '7')).toBe(true);
    expect(tracker.isRunning(reassigned, '8')).toBe(false);
    expect(tracker.isRunning(partition(1), '7')).toBe(false);
    expect(call.signal.aborted).toBe(true);
    expect((call.signal.reason as Error).message).toBe('events[0] was revoked');
    expect(call.entry.call).toBeNull();
    expect(tracker.slotsInUse).toBe(1); // the call holds its slot until it settles

    tracker.end(call);
    expect(tracker.isRunning(reassigned, '7')).toBe(false);
    expect(tracker.slotsInUse).toBe(0);
  });

  it('counts two detached calls of one record apart; detaching again changes only the mode', () => {
    const tracker = new CallTracker<string>(new ManualClock());
    const owner = partition(0);
    const first = tracker.begin(entry(owner, 3), 'handle', true, 1);
    const second = tracker.begin(entry(partition(0), 3), 'handle', true, 1);
    tracker.detach(first, 'remember', null);
    tracker.detach(first, 'ignore', null);
    tracker.detach(second, 'remember', null);
    expect(first.detached).toBe('ignore');
    expect(first.signal.aborted).toBe(false); // no abort reason given
    tracker.end(first);
    expect(tracker.isRunning(owner, '3')).toBe(true);
    tracker.end(second);
    expect(tracker.isRunning(owner, '3')).toBe(false);
  });

  it('abortAll aborts detached calls and the current calls of the given records', () => {
    const tracker = new CallTracker<string>(new ManualClock());
    const owner = partition(0);
    const detached = tracker.begin(entry(owner, 0), 'handle', true, 1);
    tracker.detach(detached, 'remember', null);
    const current = entry(owner, 1);
    const attached = tracker.begin(current, 'handle', true, 1);
    const elsewhere = tracker.begin(entry(partition(1), 0), 'handle', true, 1);
    const deadline = new Error('drain deadline passed');
    tracker.abortAll([current], deadline);
    expect(detached.signal.reason).toBe(deadline);
    expect(attached.signal.reason).toBe(deadline);
    expect(elsewhere.signal.aborted).toBe(false);
  });
});

describe('CallTracker.waitForIdle', () => {
  it('resolves at once when nothing runs', async () => {
    const clock = new ManualClock();
    await expect(new CallTracker<string>(clock).waitForIdle(1000)).resolves.toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('resolves when the last call ends and leaves no timer behind', async () => {
    const clock = new ManualClock();
    const tracker = new CallTracker<string>(clock);
    const call = tracker.begin(entry(partition(), 0), 'handle', true, 1);
    let result: boolean | undefined;
    void tracker.waitForIdle(1000).then((timedOut) => (result = timedOut));
    tracker.notifyIfIdle();
    await flushMicrotasks();
    expect(result).toBeUndefined(); // still running
    tracker.end(call);
    tracker.notifyIfIdle();
    await flushMicrotasks();
    expect(result).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('gives up after the timeout on the injected clock', async () => {
    const clock = new ManualClock();
    const tracker = new CallTracker<string>(clock);
    tracker.begin(entry(partition(), 0), 'handle', true, 1);
    let result: boolean | undefined;
    void tracker.waitForIdle(1000).then((timedOut) => (result = timedOut));
    await clock.tick(999);
    expect(result).toBeUndefined();
    await clock.tick(1);
    expect(result).toBe(true);
    tracker.notifyIfIdle(); // a later idle notification finds no waiter
  });
});

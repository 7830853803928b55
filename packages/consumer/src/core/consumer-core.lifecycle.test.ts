import { describe, expect, it } from 'vitest';
import { decodeCompletedAbove } from './offsets.js';
import { createHarness, makeRecord, makeRecords, permanentError, tp, transientError } from './testing/harness.js';

describe('ConsumerCore drain', () => {
  it('waits for in-flight calls, starts nothing new, then commits and closes', async () => {
    const h = createHarness({ ordering: 'partition' });
    h.core.deliver(makeRecords(0, 3));
    const drained = h.core.drain(10_000);
    expect(h.core.state).toBe('draining');
    await h.clock.tick(100);
    await h.succeed(0);
    await expect(drained).resolves.toEqual({ timedOut: false, abandonedCalls: 0 });
    expect(h.started()).toEqual(['0']);
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.core.state).toBe('closed');
    expect(h.clock.pendingTimers).toBe(0);
    expect(h.core.deliver(makeRecords(3, 1))).toMatchObject({ dropped: 1 });
  });

  it('gives up at the deadline, aborts what still runs and commits what completed', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 3));
    await h.succeed(0);
    await h.fail(2, transientError()); // waiting for a retry: not retried during drain
    let result: unknown;
    void h.core.drain(5000).then((value) => (result = value));
    await h.clock.tick(4999);
    expect(result).toBeUndefined();
    await h.clock.tick(1);
    expect(result).toEqual({ timedOut: true, abandonedCalls: 1 });
    expect(h.calls.find((call) => call.offset === '1')!.signal!.aborted).toBe(true);
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.started()).toEqual(['0', '1', '2']);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('resolves at once when nothing runs', async () => {
    const h = createHarness();
    await expect(h.core.drain(1000)).resolves.toEqual({ timedOut: false, abandonedCalls: 0 });
  });
});

describe('ConsumerCore fatal state', () => {
  it('goes fatal when the seek of a quarantine fails, and stops starting work everywhere', async () => {
    const h = createHarness({ ordering: 'partition', assign: [tp(0), tp(1)] });
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    h.source.failNext.seek = new Error('KafkaJSNonRetriableError: consumer not running');
    h.core.deliver([makeRecord(0, { invalid: true })]);
    expect(h.core.isFatal()).toBe(true);
    expect(h.core.fatalReason).toMatch(/seek of events\[0\] to 0 failed/);
    expect(h.eventsOf('fatal')).toHaveLength(1);

    await h.succeed(0, 1);
    expect(h.started(1)).toEqual(['0']); // p1@1 is not started
    expect(h.core.deliver(makeRecords(2, 1, { partition: 1 }))).toMatchObject({ dropped: 1 });
    expect(() => h.core.resumeQuarantined(tp(0))).toThrow(/fatal/);
    // The completed prefix is still safe to commit on the way out.
    await h.core.commitNow();
    expect(h.source.committed(tp(1))?.offset).toBe('1');
    expect(h.source.committed(tp(0))).toBeUndefined();
  });

  it('goes fatal when pause fails', () => {
    const h = createHarness({ maxPendingPerPartition: 1 });
    h.source.failNext.pause = new Error('boom');
    h.core.deliver(makeRecords(0, 1));
    expect(h.core.fatalReason).toMatch(/pause of events\[0\] failed/);
  });

  it('goes fatal when resume fails (a partition silently left paused is an invisible stall)', async () => {
    const h = createHarness({ maxPendingPerPartition: 2, ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 2));
    h.source.failNext.resume = new Error('boom');
    // The paused partition commits as soon as its records complete, and resumes after the acknowledgement.
    await h.succeed(0);
    await h.succeed(1);
    await h.core.commitNow();
    expect(h.core.fatalReason).toMatch(/resume of events\[0\] failed/);
  });
});

describe('ConsumerCore snapshot', () => {
  it('reports per-partition state and counters', async () => {
    const h = createHarness({ ordering: 'key', assign: [tp(0), tp(1)] });
    h.core.deliver([
      makeRecord(0, { key: 'a', value: 'abcd' }),
      makeRecord(1, { key: 'a', value: 'efgh' }),
      makeRecord(2, { key: 'b' }),
    ]);
    h.core.deliver([makeRecord(0, { partition: 1, invalid: true })]);
    await h.succeed(2);
    await h.fail(0, permanentError());
    h.clock.advance(250);
    const snapshot = h.core.snapshot();
    expect(snapshot).toMatchObject({ nowMs: 1250, state: 'running', fatalReason: null, inFlight: 1 });
    expect(snapshot.partitions[0]).toEqual({
      topic: 'events',
      partition: 0,
      watermark: null,
      committableOffset: '1',
      highestCompleted: '2',
      deliveredCount: 3,
      inFlight: 1,
      completedUncommitted: 2,
      buffered: 0,
      bufferedBytes: 1 + 4, // only record 1 is unfinished: key 'a' + value 'efgh'
      retryWaiting: 0,
      lanes: 1,
      oldestUnfinishedOffset: '1',
      oldestUnfinishedAgeMs: 250,
      paused: false,
      quarantine: null,
    });
    expect(snapshot.partitions[1]!.quarantine).toMatchObject({ offset: '0', errorClass: 'missing-result-key' });
    expect(snapshot.counters).toMatchObject({
      completed: 2,
      handled: 1,
      permanentFailures: 1,
      admissionFailures: 1,
      quarantines: 1,
    });
  });

  it('metadata written by the core decodes back to what completed', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(100, 5));
    await h.succeed(100);
    await h.succeed(102);
    await h.succeed(104);
    await h.core.commitNow();
    const { offset, metadata } = h.source.committed(tp())!;
    expect(offset).toBe('101');
    expect(decodeCompletedAbove(offset, metadata)).toEqual(new Set(['102', '104']));
  });
});

describe('ConsumerCore construction and callbacks', () => {
  it('rejects settings it cannot honour', () => {
    expect(() => createHarness({ maxInFlight: 0 })).toThrow(/maxInFlight must be a positive integer/);
    expect(() => createHarness({ maxPendingPerPartition: 1.5 })).toThrow(RangeError);
    expect(() => createHarness({ retry: { baseMs: 100, maxMs: 10 } })).toThrow(/maxMs/);
    expect(() => createHarness({ ordering: 'random' as never })).toThrow(/unknown ordering/);
    expect(() => createHarness({ commitIntervalMs: -1 })).toThrow(/commitIntervalMs/);
  });

  it('a failing persistence callback or event observer does not break the engine', async () => {
    const h = createHarness({
      onQuarantine: () => Promise.reject(new Error('database down')),
    });
    h.core.deliver([makeRecord(0, { invalid: true })]);
    await h.clock.tick(0);
    expect(h.eventsOf('callback-failed')).toMatchObject([{ callback: 'onQuarantine' }]);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('0');

    const throwingObserver = createHarness({
      onEvent: () => {
        throw new Error('metrics exploded');
      },
    });
    throwingObserver.core.deliver(makeRecords(0, 1));
    await throwingObserver.succeed(0);
    await throwingObserver.core.commitNow();
    expect(throwingObserver.source.committed(tp())?.offset).toBe('1');
  });

  it('rejects batches mixing partitions and offsets that are not int64 decimals', () => {
    const h = createHarness({ assign: [tp(0), tp(1)] });
    expect(() => h.core.deliver([makeRecord(0), makeRecord(1, { partition: 1 })])).toThrow(/one partition/);
    expect(() => h.core.deliver([{ ...makeRecord(0), offset: '1e3' }])).toThrow(RangeError);
  });
});

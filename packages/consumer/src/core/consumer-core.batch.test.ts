import { describe, expect, it } from 'vitest';
import { flushMicrotasks } from './testing/fake-clock.js';
import { createHarness, makeRecord, makeRecords, permanentError, tp, transientError } from './testing/harness.js';

const completedOffsets = (h: ReturnType<typeof createHarness>): string[] =>
  h.eventsOf('completed').map((event) => `${event.partition}@${event.offset}`);

describe('ConsumerCore batch formation', () => {
  it('unordered: batches of at most batchSize, formed on the next timer turn', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', batchSize: 3 });
    h.core.deliver(makeRecords(0, 7));
    expect(h.batches).toEqual([]); // nothing starts inside deliver
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1', '0@2'], ['0@3', '0@4', '0@5'], ['0@6']]);
    expect(h.core.snapshot().inFlight).toBe(7); // each record holds its own slot
  });

  it('key mode: a key contributes its consecutive records in offset order, other keys join the batch', async () => {
    const h = createHarness({ batch: true, ordering: 'key' });
    h.core.deliver([
      makeRecord(0, { key: 'a' }),
      makeRecord(1, { key: 'a' }),
      makeRecord(2, { key: 'b' }),
      makeRecord(3, { key: 'a' }),
      makeRecord(4, { key: 'c' }),
    ]);
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1', '0@3', '0@2', '0@4']]);
    // Each record names the one before it in its lane within the batch, so a handler can keep lane order.
    expect(h.batchPrevious).toEqual([[null, 0, 1, null, null]]);
  });

  it('a lane run never spans two batches: the rest of the lane waits until the run completed', async () => {
    const h = createHarness({ batch: true, ordering: 'partition', batchSize: 2 });
    h.core.deliver(makeRecords(0, 5));
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1']]);
    expect(h.batchPrevious).toEqual([[null, 0]]);
    await h.succeed(0);
    await h.succeed(1);
    await h.clock.tick(0);
    expect(h.batches.at(-1)).toEqual(['0@2', '0@3']);
  });

  it('key mode: a key whose records are running contributes nothing more until they completed', async () => {
    const h = createHarness({ batch: true, ordering: 'key' });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'b' })]);
    await h.clock.tick(0);
    h.core.deliver([makeRecord(2, { key: 'a' }), makeRecord(3, { key: 'c' })]);
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1'], ['0@3']]);
    await h.succeed(0);
    await h.clock.tick(0);
    expect(h.batches.at(-1)).toEqual(['0@2']);
  });

  it('partition mode: consecutive records of each partition, within the per-partition budget', async () => {
    const h = createHarness({
      batch: true,
      ordering: 'partition',
      maxInFlightPerPartition: 2,
      assign: [tp(0), tp(1)],
    });
    h.core.deliver(makeRecords(0, 4, { partition: 0 }));
    h.core.deliver(makeRecords(0, 4, { partition: 1 }));
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1', '1@0', '1@1']]);
    await h.succeed(0, 0);
    await h.succeed(1, 0);
    await h.clock.tick(0);
    expect(h.batches.at(-1)).toEqual(['0@2', '0@3']);
  });

  it('budgets count records: a batch that cannot grow goes at once, even with a linger', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', maxInFlight: 4, batchSize: 10, batchLingerMs: 50 });
    h.core.deliver(makeRecords(0, 10));
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1', '0@2', '0@3']]);
    expect(h.core.snapshot().inFlight).toBe(4);
  });

  it('waits at most batchLingerMs to fill a batch; a full batch goes at once', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', batchSize: 5, batchLingerMs: 50 });
    h.core.deliver(makeRecords(0, 3));
    await h.clock.tick(49);
    expect(h.batches).toEqual([]);
    h.core.deliver(makeRecords(3, 1));
    await h.clock.tick(1);
    expect(h.batches).toEqual([['0@0', '0@1', '0@2', '0@3']]);
    h.core.deliver(makeRecords(4, 5));
    await h.clock.tick(0);
    expect(h.batches.at(-1)).toEqual(['0@4', '0@5', '0@6', '0@7', '0@8']);
  });

  it('admission runs per record before a slot: a failing record quarantines, the ones before it still batch', async () => {
    const h = createHarness({ batch: true, ordering: 'partition' });
    h.core.deliver([makeRecord(0), makeRecord(1), makeRecord(2, { invalid: true }), makeRecord(3)]);
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1']]);
    expect(h.partitionSnapshot().quarantine).toMatchObject({ offset: '2', errorClass: 'missing-result-key' });
    expect(h.core.snapshot().inFlight).toBe(2);
  });

  it('refuses options giving both handle and handleBatch, or neither', () => {
    expect(() => createHarness({ batch: true, handle: () => Promise.resolve() })).toThrow(/exactly one/);
    expect(() => createHarness({ handle: undefined })).toThrow(/exactly one/);
    expect(() => createHarness({ batch: true, batchSize: 0 })).toThrow(/batchSize must be a positive integer/);
  });
});

describe('ConsumerCore per-record outcomes inside a batch', () => {
  it('each record completes, retries or fails on its own; one bad record never fails its neighbours', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', retry: { baseMs: 100, maxMs: 100 } });
    h.core.deliver(makeRecords(0, 3));
    await h.clock.tick(0);
    await h.succeed(0);
    await h.fail(1, permanentError());
    await h.fail(2, transientError());
    expect(completedOffsets(h)).toEqual(['0@0', '0@1']);
    expect(h.eventsOf('completed').map((event) => event.outcome)).toEqual(['handled', 'failed-result']);
    expect(h.callsOf('permanent-failure').map((call) => call.offset)).toEqual(['1']);
    expect(h.eventsOf('retry-scheduled')).toMatchObject([{ offset: '2', attempt: 1 }]);

    await h.clock.tick(100);
    expect(h.batches).toEqual([['0@0', '0@1', '0@2'], ['0@2']]);
    expect(h.calls.filter((call) => call.offset === '2').map((call) => call.attempt)).toEqual([1, 2]);
    await h.succeed(2);
    await h.clock.tick(1000);
    expect(h.source.committed(tp())?.offset).toBe('3');
  });

  it('a throwing handleBatch fails every record of the batch, each routed on its own', async () => {
    const h = createHarness({
      batch: true,
      ordering: 'unordered',
      handleBatch: () => {
        throw transientError();
      },
    });
    h.core.deliver(makeRecords(0, 2));
    await h.clock.tick(0);
    expect(h.eventsOf('retry-scheduled').map((event) => event.offset)).toEqual(['0', '1']);
    expect(h.core.snapshot().inFlight).toBe(0);
  });

  it('a result array of the wrong length fails the batch instead of guessing', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', handleBatch: () => [Promise.resolve()] });
    h.core.deliver(makeRecords(0, 2));
    await h.clock.tick(0);
    const failures = h.eventsOf('permanent-failure');
    expect(failures.map((event) => event.offset)).toEqual(['0', '1']);
    expect(String(failures[0]!.error)).toMatch(/returned 1 results for 2 records/);
    expect(h.callsOf('permanent-failure').map((call) => call.offset)).toEqual(['0', '1']);
  });
});

describe('ConsumerCore batch outcomes in one promise', () => {
  /** A handleBatch answering with the batch's outcomes at once, given by the test per record offset. */
  function jointHarness(
    ordering: 'unordered' | 'partition',
    outcomeOf: (offset: string) => unknown,
  ): ReturnType<typeof createHarness> & { settle: () => void; handed: string[][] } {
    const pending: Array<() => void> = [];
    const handed: string[][] = [];
    const h = createHarness({
      batch: true,
      ordering,
      retry: { baseMs: 100, maxMs: 100 },
      handleBatch: (items) => {
        handed.push(items.map(({ record }) => `${record.partition}@${record.offset}`));
        return new Promise((resolve) =>
          pending.push(() => resolve(items.map(({ record }) => outcomeOf(record.offset)))),
        );
      },
    });
    return Object.assign(h, { handed, settle: () => pending.splice(0).forEach((settle) => settle()) });
  }

  it('each record completes, retries or fails by its own entry; nothing completes before the promise', async () => {
    const h = jointHarness('unordered', (offset) =>
      offset === '1' ? permanentError() : offset === '2' ? transientError() : null,
    );
    h.core.deliver(makeRecords(0, 4));
    await h.clock.tick(0);
    expect(h.core.snapshot().inFlight).toBe(4);
    expect(completedOffsets(h)).toEqual([]);
    h.settle();
    await flushMicrotasks();
    // 0@1 completes once its failure result is published, after the records that succeeded.
    expect(completedOffsets(h)).toEqual(['0@0', '0@3', '0@1']);
    expect(h.eventsOf('completed').map((event) => event.outcome)).toEqual(['handled', 'handled', 'failed-result']);
    expect(h.eventsOf('retry-scheduled')).toMatchObject([{ offset: '2', attempt: 1 }]);
  });

  it('partition mode: a failed entry holds the records after it, which run again after it (order kept)', async () => {
    let firstAttempt = true;
    const h = jointHarness('partition', (offset) => {
      if (offset !== '1' || !firstAttempt) return null;
      firstAttempt = false;
      return transientError();
    });
    h.core.deliver(makeRecords(0, 3));
    await h.clock.tick(0);
    h.settle();
    await flushMicrotasks();
    expect(completedOffsets(h)).toEqual(['0@0']);
    await h.clock.tick(100);
    expect(h.handed).toEqual([
      ['0@0', '0@1', '0@2'],
      ['0@1', '0@2'],
    ]);
    h.settle();
    await flushMicrotasks();
    expect(completedOffsets(h)).toEqual(['0@0', '0@1', '0@2']);
  });

  it('a rejected promise or outcomes of the wrong length fail every record of the batch', async () => {
    const rejected = createHarness({
      batch: true,
      ordering: 'unordered',
      handleBatch: () => Promise.reject(transientError()),
    });
    rejected.core.deliver(makeRecords(0, 2));
    await rejected.clock.tick(0);
    await flushMicrotasks();
    expect(rejected.eventsOf('retry-scheduled').map((event) => event.offset)).toEqual(['0', '1']);

    const short = createHarness({ batch: true, ordering: 'unordered', handleBatch: () => Promise.resolve([null]) });
    short.core.deliver(makeRecords(0, 2));
    await short.clock.tick(0);
    await flushMicrotasks();
    const failures = short.eventsOf('permanent-failure');
    expect(failures.map((event) => event.offset)).toEqual(['0', '1']);
    expect(String(failures[0]!.error)).toMatch(/resolved 1 outcomes for 2 records/);
  });
});

describe('ConsumerCore retries inside a batch keep order', () => {
  it('partition mode: records after a transient failure in the batch wait and run again after it', async () => {
    const h = createHarness({ batch: true, ordering: 'partition', retry: { baseMs: 100, maxMs: 100 } });
    h.core.deliver(makeRecords(0, 3));
    await h.clock.tick(0);
    await h.succeed(2);
    await h.succeed(1);
    await h.fail(0, transientError());
    expect(h.eventsOf('completed')).toEqual([]); // 1 and 2 never complete before 0
    expect(h.partitionSnapshot()).toMatchObject({ inFlight: 0, retryWaiting: 1 });

    await h.clock.tick(100);
    expect(h.batches).toEqual([
      ['0@0', '0@1', '0@2'],
      ['0@0', '0@1', '0@2'],
    ]);
    // The requeued records' first attempts did not count: they were never failures of their own.
    expect(h.calls.map((call) => `${call.offset}#${call.attempt}`)).toEqual(['0#1', '1#1', '2#1', '0#2', '1#1', '2#1']);
    await h.succeed(2);
    await h.succeed(0);
    await h.succeed(1);
    expect(completedOffsets(h)).toEqual(['0@0', '0@1', '0@2']);
  });

  it('a lane run a whole batch long finishes in order when its records settle last to first', async () => {
    const count = 10_000;
    const h = createHarness({
      batch: true,
      ordering: 'key',
      batchSize: count,
      maxInFlight: count,
      maxInFlightPerPartition: count,
      maxPendingPerPartition: count,
    });
    h.core.deliver(makeRecords(0, count, { key: 'one-key' }));
    await h.clock.tick(0);
    expect(h.batches.map((batch) => batch.length)).toEqual([count]);
    const handles = h.callsOf('handle');
    for (let index = count - 1; index >= 0; index--) handles[index]!.deferred.resolve();
    await flushMicrotasks();
    const completed = completedOffsets(h);
    expect(completed).toHaveLength(count);
    expect(completed.every((label, index) => label === `0@${index}`)).toBe(true);
  });

  it('key mode: a permanent failure publishes its failure result before the key moves on', async () => {
    const h = createHarness({ batch: true, ordering: 'key', autoAckFailurePaths: false });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'a' }), makeRecord(2, { key: 'b' })]);
    await h.clock.tick(0);
    await h.succeed(1);
    await h.succeed(2);
    await h.fail(0, permanentError());
    expect(completedOffsets(h)).toEqual(['0@2']);
    await h.succeed(0, 0, undefined, 'permanent-failure');
    await h.clock.tick(0);
    expect(completedOffsets(h)).toEqual(['0@2', '0@0']);
    expect(h.batches.at(-1)).toEqual(['0@1']);
    await h.succeed(1);
    expect(completedOffsets(h)).toEqual(['0@2', '0@0', '0@1']);
  });
});

describe('ConsumerCore shutdown and rebalance with a batch in flight', () => {
  it('drain waits for the batch in flight, starts nothing new and commits what completed', async () => {
    const h = createHarness({ batch: true, ordering: 'partition', maxInFlightPerPartition: 2 });
    h.core.deliver(makeRecords(0, 4));
    await h.clock.tick(0);
    const drained = h.core.drain(10_000);
    await h.succeed(0);
    await h.succeed(1);
    await expect(drained).resolves.toEqual({ timedOut: false, abandonedCalls: 0 });
    expect(h.batches).toEqual([['0@0', '0@1']]);
    expect(h.source.committed(tp())?.offset).toBe('2');
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('drain hands a lingering batch over at once rather than leaving its records unrun', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', batchSize: 10, batchLingerMs: 500 });
    h.core.deliver(makeRecords(0, 2));
    await h.clock.tick(0);
    expect(h.batches).toEqual([]);
    const drained = h.core.drain(10_000);
    expect(h.batches).toEqual([['0@0', '0@1']]);
    await h.succeed(0);
    await h.succeed(1);
    await expect(drained).resolves.toEqual({ timedOut: false, abandonedCalls: 0 });
    expect(h.source.committed(tp())?.offset).toBe('2');
  });

  it('a revoked partition of a running batch is aborted and its late successes ignored; the kept one commits', async () => {
    const h = createHarness({ batch: true, ordering: 'partition', assign: [tp(0), tp(1)] });
    h.core.deliver(makeRecords(0, 2, { partition: 0 }));
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    await h.clock.tick(0);
    expect(h.batches).toEqual([['0@0', '0@1', '1@0', '1@1']]);
    await h.succeed(0, 1);
    await h.core.onRebalanceStart();
    h.core.onAssignment([tp(1)]);
    const revoked = h.calls.filter((call) => call.partition === 0);
    expect(revoked.every((call) => call.signal!.aborted)).toBe(true);
    await h.succeed(0, 0);
    await h.succeed(1, 0);
    expect(h.eventsOf('late-completion-ignored').map((event) => `${event.partition}@${event.offset}`)).toEqual([
      '0@0',
      '0@1',
    ]);
    await h.succeed(1, 1);
    // The kept partition was rewound to its commit (1): the redelivered 1@1 completes without running again.
    h.core.deliver(makeRecords(1, 1, { partition: 1 }));
    await h.clock.tick(1000);
    expect(h.batches).toHaveLength(1);
    expect(h.source.committed(tp(1))?.offset).toBe('2');
    expect(h.source.committed(tp(0))).toBeUndefined();
  });

  it('a rebalance during the linger hands the batch over before the partitions are given up', async () => {
    const h = createHarness({ batch: true, ordering: 'unordered', batchSize: 10, batchLingerMs: 500 });
    h.core.deliver(makeRecords(0, 2));
    await h.clock.tick(0);
    const rebalanced = h.core.onRebalanceStart();
    expect(h.batches).toEqual([['0@0', '0@1']]);
    await rebalanced;
    h.core.onAssignment([tp(0)]);
    await h.succeed(0);
    await h.succeed(1);
    // Kept partition: the calls that finished after the rewind are remembered, so the redelivered copies
    // complete without running again.
    h.core.deliver(makeRecords(0, 2));
    await h.clock.tick(1000);
    expect(h.batches).toEqual([['0@0', '0@1']]);
    expect(h.source.committed(tp())?.offset).toBe('2');
  });
});

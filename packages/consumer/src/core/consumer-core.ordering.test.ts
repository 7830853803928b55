import { describe, expect, it } from 'vitest';
import { createHarness, makeRecord, makeRecords, tp, transientError } from './testing/harness.js';

describe('ConsumerCore ordering and budgets', () => {
  it('key mode: a transient retry keeps its lane; a later same-key record waits, other keys proceed', async () => {
    const h = createHarness({ ordering: 'key', retry: { baseMs: 100, maxMs: 30_000 } });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'a' }), makeRecord(2, { key: 'b' })]);
    expect(h.started()).toEqual(['0', '2']);

    await h.fail(0, transientError());
    expect(h.eventsOf('retry-scheduled')).toMatchObject([{ offset: '0', phase: 'handle', attempt: 1, delayMs: 50 }]);
    expect(h.started()).toEqual(['0', '2']); // 1 does not overtake 0

    await h.succeed(2);
    h.core.deliver([makeRecord(3, { key: 'b' })]);
    expect(h.started()).toEqual(['0', '2', '3']); // key b keeps flowing

    await h.clock.tick(49);
    expect(h.started()).toEqual(['0', '2', '3']);
    await h.clock.tick(1);
    expect(h.started()).toEqual(['0', '2', '3', '0']);
    expect(h.calls.filter((call) => call.offset === '0').map((call) => call.attempt)).toEqual([1, 2]);

    await h.fail(0, transientError());
    expect(h.eventsOf('retry-scheduled').at(-1)).toMatchObject({ attempt: 2, delayMs: 100 });
    await h.clock.tick(100);
    expect(h.started().filter((offset) => offset === '1')).toEqual([]);
    await h.succeed(0);
    expect(h.started()).toEqual(['0', '2', '3', '0', '0', '1']);
    expect(h.core.snapshot().counters.retries).toBe(2);
  });

  it('a first retry that draws no delay runs at once, keeping its lane; later zero draws wait for the clock', async () => {
    const h = createHarness({ ordering: 'key', random: () => 0, retry: { baseMs: 0, maxMs: 0 } });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'a' })]);
    await h.fail(0, transientError());
    expect(h.eventsOf('retry-scheduled')).toMatchObject([{ offset: '0', attempt: 1, delayMs: 0 }]);
    expect(h.started()).toEqual(['0', '0']); // no timer turn: the lane is held for no longer than the failure

    // A handler failing on every attempt with no backoff must not spin without yielding to the event loop.
    await h.fail(0, transientError());
    expect(h.eventsOf('retry-scheduled').at(-1)).toMatchObject({ attempt: 2, delayMs: 0 });
    expect(h.started()).toEqual(['0', '0']);
    await h.clock.tick(0);
    expect(h.started()).toEqual(['0', '0', '0']);
    await h.succeed(0);
    expect(h.started()).toEqual(['0', '0', '0', '1']);
    expect(h.calls.filter((call) => call.offset === '0').map((call) => call.attempt)).toEqual([1, 2, 3]);
  });

  it('a retry delay holds no execution slot', async () => {
    const h = createHarness({ ordering: 'key', maxInFlight: 1 });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'b' })]);
    expect(h.started()).toEqual(['0']);
    await h.fail(0, transientError());
    expect(h.started()).toEqual(['0', '1']);
    expect(h.core.snapshot().inFlight).toBe(1);
    expect(h.partitionSnapshot()).toMatchObject({ retryWaiting: 1, inFlight: 1 });
    // The due retry waits for the slot like any other record.
    await h.clock.tick(1000);
    expect(h.started()).toEqual(['0', '1']);
    await h.succeed(1);
    expect(h.started()).toEqual(['0', '1', '0']);
  });

  it('partition mode runs one record at a time in offset order', async () => {
    const h = createHarness({ ordering: 'partition' });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'b' }), makeRecord(2, { key: 'c' })]);
    expect(h.started()).toEqual(['0']);
    await h.succeed(0);
    expect(h.started()).toEqual(['0', '1']);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.started()).toEqual(['0', '1', '2']);
  });

  it('unordered mode runs records in parallel up to the per-partition budget', () => {
    const h = createHarness({ ordering: 'unordered', maxInFlightPerPartition: 3 });
    h.core.deliver(makeRecords(0, 5, { key: 'same' }));
    expect(h.started()).toEqual(['0', '1', '2']);
  });

  it('key mode: records without a key share one lane, apart from keyed lanes and from the empty key', async () => {
    const h = createHarness({ ordering: 'key' });
    h.core.deliver([
      makeRecord(0, { key: null }),
      makeRecord(1, { key: null }),
      makeRecord(2, { key: '' }),
      makeRecord(3, { key: 'x' }),
    ]);
    expect(h.started()).toEqual(['0', '2', '3']);
    await h.succeed(0);
    expect(h.started()).toEqual(['0', '2', '3', '1']);
  });

  it('deletes lanes when they empty, so memory follows active keys', async () => {
    const h = createHarness({ ordering: 'key', maxInFlight: 200, maxInFlightPerPartition: 200 });
    h.core.deliver(Array.from({ length: 100 }, (_, i) => makeRecord(i, { key: `session-${i % 50}` })));
    expect(h.partitionSnapshot().lanes).toBe(50);
    for (let i = 0; i < 50; i++) await h.succeed(i);
    expect(h.partitionSnapshot().lanes).toBe(50);
    for (let i = 50; i < 100; i++) await h.succeed(i);
    expect(h.partitionSnapshot().lanes).toBe(0);
  });

  it('keeps global and per-partition slot budgets separate and shares slots round robin', async () => {
    const h = createHarness({
      ordering: 'unordered',
      maxInFlight: 3,
      maxInFlightPerPartition: 2,
      assign: [tp(0), tp(1)],
    });
    h.core.deliver(makeRecords(0, 5, { partition: 0 }));
    expect(h.started(0)).toEqual(['0', '1']); // per-partition budget
    h.core.deliver(makeRecords(0, 5, { partition: 1 }));
    expect(h.started(1)).toEqual(['0']); // global budget
    expect(h.core.snapshot().inFlight).toBe(3);

    await h.succeed(0, 0);
    // the freed slot goes where budget allows: p0 has one in flight (< 2), p1 has one (< 2)
    expect(h.core.snapshot().inFlight).toBe(3);
    expect(h.started(0).length + h.started(1).length).toBe(4);
    for (const partition of h.core.snapshot().partitions) expect(partition.inFlight).toBeLessThanOrEqual(2);
  });

  it('a busy partition does not starve another one', async () => {
    const h = createHarness({
      ordering: 'unordered',
      maxInFlight: 2,
      maxInFlightPerPartition: 2,
      assign: [tp(0), tp(1)],
    });
    h.core.deliver(makeRecords(0, 50, { partition: 0 }));
    h.core.deliver(makeRecords(0, 3, { partition: 1 }));
    expect(h.started(1)).toEqual([]);
    await h.succeed(0, 0);
    await h.succeed(1, 0);
    expect(h.started(1).length).toBeGreaterThanOrEqual(1);
  });
});

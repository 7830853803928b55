import { describe, expect, it } from 'vitest';
import { createHarness, makeRecord, makeRecords, tp } from './testing/harness.js';

describe('ConsumerCore stalls', () => {
  it('lists partitions whose oldest unfinished record is older than stallThresholdMs', async () => {
    const h = createHarness({ ordering: 'unordered', stallThresholdMs: 30_000, assign: [tp(0), tp(1)] });
    h.core.deliver(makeRecords(0, 2, { partition: 0 }));
    h.clock.advance(10_000);
    h.core.deliver(makeRecords(0, 1, { partition: 1 }));
    await h.succeed(1, 0);
    expect(h.core.stalls(h.clock.now() + 20_000)).toEqual([]);
    expect(h.core.stalls(h.clock.now() + 20_001)).toEqual([
      { topic: 'events', partition: 0, offset: '0', ageMs: 30_001, state: 'running', phase: 'handle', attempts: 1 },
    ]);
    expect(h.core.stalls(h.clock.now() + 30_001).map((stall) => stall.partition)).toEqual([0, 1]);
    expect(h.partitionSnapshot(0)).toMatchObject({ oldestUnfinishedOffset: '0', oldestUnfinishedAgeMs: 10_000 });
  });

  it('is off by default: nothing is dead-lettered, no timer runs', async () => {
    const h = createHarness();
    h.core.deliver(makeRecords(0, 1));
    await h.clock.tick(10 * 60_000);
    expect(h.callsOf('dead-letter')).toEqual([]);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('optionally dead-letters a stuck record as stalled and completes it when the write is acknowledged', async () => {
    const h = createHarness({ stallDeadLetterAfterMs: 5000, stallCheckIntervalMs: 1000, autoAckFailurePaths: false });
    h.core.deliver([makeRecord(0, { key: 'a' }), makeRecord(1, { key: 'a' })]);
    await h.clock.tick(5000);
    expect(h.callsOf('dead-letter')).toEqual([]);
    await h.clock.tick(1000);
    const dlq = h.callsOf('dead-letter');
    expect(dlq).toHaveLength(1);
    expect(dlq[0]!.info).toMatchObject({ errorClass: 'stalled', attempts: 1 });
    expect(h.calls[0]!.signal!.aborted).toBe(true);
    expect(h.started()).toEqual(['0']);

    await h.succeed(0, 0, 'events', 'dead-letter');
    expect(h.started()).toEqual(['0', '1']); // the lane moves on
    await h.succeed(0); // the hung call finally returns: ignored, not counted twice
    await h.succeed(1);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('2');
    expect(h.core.snapshot().counters).toMatchObject({
      stallDeadLetters: 1,
      deadLettered: 1,
      handled: 1,
      completed: 2,
    });
  });

  it('stall dead-letter needs a deadLetter port', () => {
    expect(() => createHarness({ stallDeadLetterAfterMs: 1000, deadLetter: undefined })).toThrow(/deadLetter port/);
  });
});

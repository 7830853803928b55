import { describe, expect, it } from 'vitest';
import { createHarness, makeRecord, makeRecords, tp } from './testing/harness.js';

describe('ConsumerCore workProgress', () => {
  it('holds nothing and has completed nothing before the first delivery', () => {
    const h = createHarness();
    expect(h.core.workProgress()).toEqual({ heldRecords: 0, heldSinceMs: null, lastCompletedAtMs: null });
  });

  it('counts unfinished records (running and waiting) from the oldest delivery, and stamps each completion', async () => {
    const h = createHarness({ ordering: 'partition', assign: [tp(0), tp(1)] });
    const start = h.clock.now();
    h.core.deliver(makeRecords(0, 3, { partition: 0 }));
    h.clock.advance(4_000);
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    expect(h.core.workProgress()).toEqual({ heldRecords: 5, heldSinceMs: start, lastCompletedAtMs: null });

    h.clock.advance(1_000);
    await h.succeed(0, 0);
    // Partition 0's oldest unfinished is now offset 1, delivered at the start as well.
    expect(h.core.workProgress()).toEqual({ heldRecords: 4, heldSinceMs: start, lastCompletedAtMs: start + 5_000 });

    await h.succeed(1, 0);
    await h.succeed(2, 0);
    expect(h.core.workProgress()).toEqual({
      heldRecords: 2,
      heldSinceMs: start + 4_000,
      lastCompletedAtMs: start + 5_000,
    });
  });

  it('keeps completed-but-uncommitted records out of the held count', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 2));
    await h.succeed(1);
    expect(h.partitionSnapshot().completedUncommitted).toBe(1);
    expect(h.core.workProgress().heldRecords).toBe(1);
  });

  it('leaves a quarantined partition out: its records are held on purpose', async () => {
    const h = createHarness({ ordering: 'partition', assign: [tp(0), tp(1)] });
    h.core.deliver([makeRecord(0, { partition: 1, invalid: true }), makeRecord(1, { partition: 1 })]);
    expect(h.partitionSnapshot(1).quarantine).not.toBeNull();
    expect(h.core.workProgress()).toEqual({ heldRecords: 0, heldSinceMs: null, lastCompletedAtMs: null });

    h.clock.advance(2_000);
    h.core.deliver(makeRecords(0, 1, { partition: 0 }));
    expect(h.core.workProgress()).toEqual({ heldRecords: 1, heldSinceMs: h.clock.now(), lastCompletedAtMs: null });

    // Once an operator lifts the quarantine, the partition's redelivered records count again.
    h.core.resumeQuarantined(tp(1));
    h.core.deliver([makeRecord(0, { partition: 1 }), makeRecord(1, { partition: 1 })]);
    expect(h.partitionSnapshot(1).quarantine).toBeNull();
    expect(h.core.workProgress().heldRecords).toBe(3);
  });
});

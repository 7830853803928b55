import { describe, expect, it } from 'vitest';
import { ExactTimeLagPlanner, type PartitionPosition } from './exact-time-lag';

const position = (partition: number, committed: bigint | null, end = 100n, start = 0n): PartitionPosition => ({
  topic: 't',
  partition,
  committedOffset: committed,
  logStartOffset: start,
  logEndOffset: end,
});

describe('ExactTimeLagPlanner', () => {
  it('reads the worst lagging records first, at most maxPartitions, deduplicating groups at the same offset', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 2 });
    const reads = planner.plan(
      [
        { ...position(0, 10n), estimatedMs: 1_000 },
        { ...position(1, 20n), estimatedMs: 9_000 },
        { ...position(1, 20n), estimatedMs: 3_000 }, // another group at the same record
        { ...position(2, 30n), estimatedMs: null },
        { ...position(3, 40n), estimatedMs: 5_000 },
      ],
      0,
    );
    expect(reads).toEqual([
      { topic: 't', partition: 1, offset: 20n },
      { topic: 't', partition: 3, offset: 40n },
    ]);
  });

  it('never reads caught-up partitions, partitions without a commit, or records already gone', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 10 });
    const reads = planner.plan(
      [
        { ...position(0, 100n), estimatedMs: 0 },
        { ...position(1, null), estimatedMs: null },
        { ...position(2, 5n, 100n, 50n), estimatedMs: 99_000 },
      ],
      0,
    );
    expect(reads).toEqual([]);
  });

  it('reads at most one batch per interval, and not at all with maxPartitions 0', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 15_000, maxPartitions: 5 });
    expect(planner.plan([{ ...position(0, 1n), estimatedMs: 1 }], 0)).toHaveLength(1);
    expect(planner.plan([{ ...position(1, 1n), estimatedMs: 1 }], 10_000)).toEqual([]);
    expect(planner.plan([{ ...position(1, 1n), estimatedMs: 1 }], 15_000)).toHaveLength(1);
    const off = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 0 });
    expect(off.plan([{ ...position(0, 1n), estimatedMs: 1 }], 0)).toEqual([]);
  });

  it('keeps an exact, growing value while the committed offset does not move, without new reads', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 5 });
    const stuck = position(0, 10n);
    planner.accept([{ topic: 't', partition: 0, offset: 10n, timestampMs: 1_000 }]);
    expect(planner.exactFor(stuck, 6_000)).toBe(5_000);
    expect(planner.exactFor(stuck, 60_000)).toBe(59_000);
    expect(planner.plan([{ ...stuck, estimatedMs: 59_000 }], 60_000)).toEqual([]);
    // The commit moves: the old timestamp no longer applies.
    expect(planner.exactFor(position(0, 11n), 60_000)).toBeNull();
  });

  it('is 0 when caught up, null without a commit or when the record is gone, never negative', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 5 });
    expect(planner.exactFor(position(0, 100n), 1)).toBe(0);
    expect(planner.exactFor(position(0, null), 1)).toBeNull();
    expect(planner.exactFor(position(0, 5n, 100n, 50n), 1)).toBeNull();
    planner.accept([{ topic: 't', partition: 0, offset: 10n, timestampMs: 9_000 }]); // producer clock ahead
    expect(planner.exactFor(position(0, 10n), 5_000)).toBe(0);
  });

  it('plans an unreadable record again and forgets timestamps no position uses', () => {
    const planner = new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 5 });
    planner.accept([
      { topic: 't', partition: 0, offset: 10n, timestampMs: null },
      { topic: 't', partition: 1, offset: 10n, timestampMs: 1 },
    ]);
    expect(planner.plan([{ ...position(0, 10n), estimatedMs: 1 }], 0)).toEqual([
      { topic: 't', partition: 0, offset: 10n },
    ]);
    planner.retainOnly([position(0, 10n)]);
    expect(planner.exactFor(position(1, 10n), 2)).toBeNull();
  });

  it('rejects bad options', () => {
    expect(() => new ExactTimeLagPlanner({ intervalMs: -1, maxPartitions: 1 })).toThrow(/intervalMs/);
    expect(() => new ExactTimeLagPlanner({ intervalMs: 0, maxPartitions: 1.5 })).toThrow(/maxPartitions/);
  });
});

import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { describeReset, planOffsetReset, resetRefusal } from './plan-offset-reset';

const logs = [
  { partition: 1, low: '5', high: '50' },
  { partition: 0, low: '0', high: '40' },
];
const committed = new Map<number, string | null>([
  [0, '12'],
  [1, null],
]);
const base = { topic: 'orders', reason: 'r' } as const;
const now = Date.parse('2026-11-29T12:00:00Z');

function refused(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('planOffsetReset', () => {
  it('moves every partition of the topic, in order, to its log start or end', () => {
    expect(planOffsetReset({ ...base, to: 'earliest' }, logs, committed, null, now)).toEqual([
      { partition: 0, previousOffset: '12', offset: '0' },
      { partition: 1, previousOffset: null, offset: '5' },
    ]);
    expect(planOffsetReset({ ...base, to: 'latest', partition: 1 }, logs, committed, null, now)).toEqual([
      { partition: 1, previousOffset: null, offset: '50' },
    ]);
  });

  it('takes the broker offsets for a time, and an explicit offset inside the log, both ends included', () => {
    const atTime = new Map([
      [0, '7'],
      [1, '50'],
    ]);
    expect(
      planOffsetReset(
        { ...base, to: 'timestamp', timestamp: '2026-11-29T11:00:00Z' },
        logs,
        committed,
        atTime,
        now,
      ).map((p) => p.offset),
    ).toEqual(['7', '50']);
    expect(
      planOffsetReset({ ...base, to: 'offset', partition: 1, offset: '5' }, logs, committed, null, now)[0]!.offset,
    ).toBe('5');
    expect(
      planOffsetReset({ ...base, to: 'offset', partition: 1, offset: '050' }, logs, committed, null, now)[0]!.offset,
    ).toBe('50');
  });

  it('refuses an offset outside the log, an unknown partition and a future time, naming the field', () => {
    const outside = refused(() =>
      planOffsetReset({ ...base, to: 'offset', partition: 1, offset: '4' }, logs, committed, null, now),
    );
    expect([outside.status, outside.field, outside.message]).toEqual([
      400,
      'offset',
      'offset: 4 is outside the log of orders-1: it must be between the log start 5 and the log end 50',
    ]);
    expect(
      refused(() => planOffsetReset({ ...base, to: 'offset', partition: 0, offset: '41' }, logs, committed, null, now))
        .field,
    ).toBe('offset');
    const unknown = refused(() =>
      planOffsetReset({ ...base, to: 'earliest', partition: 2 }, logs, committed, null, now),
    );
    expect([unknown.status, unknown.message]).toEqual([
      404,
      'partition: topic orders has no partition 2 (its partitions: 0-1)',
    ]);
    const future = refused(() =>
      planOffsetReset({ ...base, to: 'timestamp', timestamp: '2026-11-29T12:05:00Z' }, logs, committed, new Map(), now),
    );
    expect([future.status, future.field]).toEqual([400, 'timestamp']);
  });
});

describe('resetRefusal', () => {
  it('allows only Empty and Dead groups and explains the rest', () => {
    expect(resetRefusal('g', 'Empty', 0)).toBeNull();
    expect(resetRefusal('g', 'Dead', 0)).toBeNull();
    expect(resetRefusal('g', 'Stable', 2)).toMatch(
      /^consumer group "g" is Stable with 2 members: offsets can only be reset while no consumer is in the group/,
    );
    expect(resetRefusal('g', 'PreparingRebalance', 1)).toMatch(/is PreparingRebalance with 1 member:/);
  });
});

describe('describeReset', () => {
  it('says what moved where', () => {
    expect(describeReset({ to: 'earliest' }, { partition: 0, previousOffset: '12', offset: '0' })).toBe(
      'committed offset reset to the earliest offset: 12 → 0',
    );
    expect(
      describeReset(
        { to: 'timestamp', timestamp: '2026-11-29T11:00:00Z' },
        { partition: 0, previousOffset: null, offset: '7' },
      ),
    ).toBe('committed offset reset to the first offset at or after 2026-11-29T11:00:00Z: none → 7');
  });
});

import { describe, expect, it } from 'vitest';
import { countMoved } from './partitions-moved';

const member = (memberId: string, assignment: Record<string, number[]>) => ({ memberId, assignment });

describe('countMoved', () => {
  it('counts partitions whose owner changed, became owned or became unowned', () => {
    expect(countMoved([member('a', { t: [0, 1] })], [member('a', { t: [0] }), member('b', { t: [1], u: [0] })])).toBe(
      2,
    );
    expect(countMoved([member('a', { t: [0, 1] })], [])).toBe(2);
    expect(countMoved([member('a', { t: [0, 1] })], [member('a', { t: [0, 1] })])).toBe(0);
  });

  it('counts the partitions of a member that rejoined under a new member id as moved', () => {
    expect(countMoved([member('a', { t: [0, 1] })], [member('a2', { t: [0, 1] })])).toBe(2);
  });
});

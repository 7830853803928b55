import { describe, expect, it } from 'vitest';
import { inferredRebalanceRow } from './rebalance-rows';

describe('inferredRebalanceRow', () => {
  it('marks the duration as an upper bound and sorts each member assignment', () => {
    const row = inferredRebalanceRow({
      groupId: 'g',
      startedAtMs: 0,
      endedAtMs: 5_000,
      durationMs: 5_000,
      membersBefore: [],
      membersAfter: [{ memberId: 'b', clientId: 'c', clientHost: 'h', assignment: { z: [3, 1], a: [2] } }],
      membersJoined: ['b'],
      membersLeft: [],
      partitionsMoved: 3,
      trigger: 'join',
      statesSeen: [],
    });
    expect(row).toMatchObject({
      source: 'describe-groups',
      durationMs: 5_000,
      durationIsBound: true,
      trigger: 'join',
      partitionsMoved: 3,
    });
    expect(JSON.stringify(row.membersAfter[0]?.assignment)).toBe('{"a":[2],"z":[1,3]}');
  });
});

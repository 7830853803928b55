import { describe, expect, it } from 'vitest';
import { inferredRebalanceRow, measuredRebalanceRow } from './rebalance-rows';
import type { RebalanceTiming } from '../shared/worker-types';

const timing = (overrides: Partial<RebalanceTiming>): RebalanceTiming => ({
  groupId: 'g',
  memberId: 'm-1',
  leaderId: 'm-1',
  isLeader: true,
  groupProtocol: 'RoundRobinAssigner',
  cause: 'rebalance',
  startedAtMs: 1_000,
  endedAtMs: 1_250,
  assignmentBefore: [],
  assignmentAfter: [],
  ...overrides,
});

describe('measuredRebalanceRow', () => {
  it('records the measured stop of the member, its assignment before and after, and what moved', () => {
    const row = measuredRebalanceRow(
      timing({
        assignmentBefore: [
          { topic: 'in', partition: 1 },
          { topic: 'in', partition: 0 },
        ],
        assignmentAfter: [{ topic: 'in', partition: 0 }],
      }),
      { clientId: 'warden', clientHost: 'host-a' },
    );
    expect(row).toEqual({
      groupId: 'g',
      source: 'own-consumer',
      startedAt: new Date(1_000),
      endedAt: new Date(1_250),
      durationMs: 250,
      durationIsBound: false,
      membersBefore: [{ memberId: 'm-1', clientId: 'warden', clientHost: 'host-a', assignment: { in: [0, 1] } }],
      membersAfter: [{ memberId: 'm-1', clientId: 'warden', clientHost: 'host-a', assignment: { in: [0] } }],
      partitionsMoved: 1,
      trigger: 'unknown',
    });
  });

  it('records a first join as a join with no members before, and never a negative duration', () => {
    const row = measuredRebalanceRow(
      timing({ cause: 'join', startedAtMs: 2_000, endedAtMs: 1_900, assignmentAfter: [{ topic: 'in', partition: 0 }] }),
      { clientId: 'warden', clientHost: 'host-a' },
    );
    expect(row).toMatchObject({ trigger: 'join', membersBefore: [], durationMs: 0, partitionsMoved: 1 });
  });
});

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

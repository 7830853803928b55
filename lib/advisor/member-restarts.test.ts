import { describe, expect, it } from 'vitest';
import {
  countMemberRestarts,
  findMemberRestarts,
  looksStatic,
  parseStoredMembers,
  type MemberIdentity,
  type RebalanceMembership,
} from './member-restarts';

const UUIDS = [
  '0b7d3c55-1f0e-4a8e-9a52-8f7a3e3c1a01',
  '1c8e4d66-2a1f-4b9f-8b63-9a8b4f4d2b02',
  '2d9f5e77-3b2a-4ca0-9c74-ab9c5a5e3c03',
  '3ea06f88-4c3b-4db1-8d85-bcad6b6f4d04',
];
/** A dynamic member: Kafka names it `<client id>-<UUID>`. */
const member = (clientId: string, n: number, host = '/10.0.0.7'): MemberIdentity => ({
  memberId: `${clientId}-${UUIDS[n]}`,
  clientId,
  clientHost: host,
});
const row = (
  startedAtMs: number,
  endedAtMs: number,
  before: MemberIdentity[],
  after: MemberIdentity[],
): RebalanceMembership => ({
  startedAtMs,
  endedAtMs,
  membersBefore: before,
  membersAfter: after,
});

const a0 = member('orders-a', 0);
const a1 = member('orders-a', 1);
const a2 = member('orders-a', 2);
const b0 = member('orders-b', 0);
const b1 = member('orders-b', 1);

describe('findMemberRestarts', () => {
  it('finds a restart within one rebalance: same client and host, new member id', () => {
    const restarts = findMemberRestarts([row(0, 5_000, [a0, b0], [a1, b0])]);
    expect(restarts).toEqual([
      {
        clientId: 'orders-a',
        clientHost: '/10.0.0.7',
        leftMemberId: a0.memberId,
        joinedMemberId: a1.memberId,
        leftAtMs: 0,
        completedAtMs: 5_000,
        withNewMemberId: true,
        staticMember: false,
      },
    ]);
  });

  it('pairs a clean leave with a later join of the same identity, within the rejoin window', () => {
    const rows = [row(0, 5_000, [a0, b0], [b0]), row(60_000, 65_000, [b0], [a1, b0])];
    expect(findMemberRestarts(rows)).toMatchObject([
      {
        leftMemberId: a0.memberId,
        joinedMemberId: a1.memberId,
        leftAtMs: 0,
        completedAtMs: 65_000,
        withNewMemberId: true,
      },
    ]);
    // The gap is measured from the leave's start to the join's end: exactly the window still counts, 1 ms more does not.
    expect(findMemberRestarts(rows, { rejoinWithinMs: 65_000 })).toHaveLength(1);
    expect(findMemberRestarts(rows, { rejoinWithinMs: 64_999 })).toEqual([]);
  });

  it('does not count a member of another client id or another host as a restart', () => {
    const otherHost = member('orders-a', 1, '/10.0.0.8');
    expect(findMemberRestarts([row(0, 5_000, [a0, b0], [otherHost, b0])])).toEqual([]);
    expect(findMemberRestarts([row(0, 5_000, [a0], []), row(10_000, 15_000, [], [b1])])).toEqual([]);
  });

  it('does not count new members (scale-out) or members that leave for good (scale-in)', () => {
    expect(findMemberRestarts([row(0, 5_000, [b0], [a0, b0])])).toEqual([]);
    expect(findMemberRestarts([row(0, 5_000, [a0, b0], [b0])])).toEqual([]);
    // The same identity back after 10 minutes is a scale-in followed by a scale-out, not a restart.
    expect(findMemberRestarts([row(0, 5_000, [a0, b0], [b0]), row(600_000, 605_000, [b0], [a1, b0])])).toEqual([]);
  });

  it('finds a crash restart: the new member joined before the old session timed out', () => {
    const rows = [row(0, 5_000, [a0, b0], [a0, a1, b0]), row(30_000, 35_000, [a0, a1, b0], [a1, b0])];
    expect(findMemberRestarts(rows)).toMatchObject([
      {
        leftMemberId: a0.memberId,
        joinedMemberId: a1.memberId,
        leftAtMs: 0,
        completedAtMs: 35_000,
        withNewMemberId: true,
      },
    ]);
  });

  it('pairs a later leave only with an arrival that joined while it was there, never with itself', () => {
    // a1 joins first (no one of its identity there), then a2 joins; a1 leaving later is not a2 replacing it...
    const rows = [
      row(0, 5_000, [b0], [a1, b0]),
      row(10_000, 15_000, [a1, b0], [a1, a2, b0]),
      row(20_000, 25_000, [a1, a2, b0], [a2, b0]),
    ];
    // ...except that a2 joined while a1 was there: that is the crash-restart shape, and counts once.
    expect(findMemberRestarts(rows)).toMatchObject([{ leftMemberId: a1.memberId, joinedMemberId: a2.memberId }]);
    // A lone new member that later leaves replaced nobody.
    expect(findMemberRestarts([row(0, 5_000, [b0], [a1, b0]), row(10_000, 15_000, [a1, b0], [b0])])).toEqual([]);
    // An arrival that left itself is not paired with the member it was waiting for.
    const gone = [row(0, 5_000, [a0], [a0, a1]), row(10_000, 15_000, [a0, a1], [a0]), row(20_000, 25_000, [a0], [])];
    expect(findMemberRestarts(gone)).toEqual([]);
  });

  it('counts an id that left and came back as a restart without a new member id', () => {
    const restarts = findMemberRestarts([row(0, 5_000, [a0, b0], [b0]), row(20_000, 25_000, [b0], [a0, b0])]);
    expect(restarts).toMatchObject([
      { leftMemberId: a0.memberId, joinedMemberId: a0.memberId, withNewMemberId: false, staticMember: false },
    ]);
  });

  it('marks a restart whose new id carries a group.instance.id as a static member', () => {
    const staticOld = { memberId: `pod-0-${UUIDS[0]}`, clientId: 'orders', clientHost: '/10.0.0.9' };
    const staticNew = { memberId: `pod-0-${UUIDS[1]}`, clientId: 'orders', clientHost: '/10.0.0.9' };
    expect(findMemberRestarts([row(0, 5_000, [staticOld], [staticNew])])).toMatchObject([
      { withNewMemberId: true, staticMember: true },
    ]);
  });

  it('pairs several members of one identity in member-id order, and sorts by completion', () => {
    const rows = [row(50_000, 55_000, [b0], [b1]), row(0, 5_000, [a0, a1], [a2, member('orders-a', 3)])];
    const restarts = findMemberRestarts(rows);
    expect(restarts.map((r) => [r.leftMemberId, r.joinedMemberId])).toEqual([
      [a0.memberId, a2.memberId],
      [a1.memberId, member('orders-a', 3).memberId],
      [b0.memberId, b1.memberId],
    ]);
  });

  it('pairs a join with the oldest waiting departure of its identity', () => {
    const rows = [row(0, 5_000, [a0, a1], [a1]), row(10_000, 15_000, [a1], []), row(20_000, 25_000, [], [a2])];
    expect(findMemberRestarts(rows)).toMatchObject([
      { leftMemberId: a0.memberId, joinedMemberId: a2.memberId, leftAtMs: 0 },
    ]);
  });

  it('rejects a negative or non-finite rejoin window', () => {
    expect(() => findMemberRestarts([], { rejoinWithinMs: -1 })).toThrow(RangeError);
    expect(() => findMemberRestarts([], { rejoinWithinMs: Number.NaN })).toThrow(RangeError);
  });
});

describe('countMemberRestarts', () => {
  // A rolling restart of two dynamic members, then one departure the window only half covers.
  const rows = [
    row(0, 5_000, [a0, b0], [b0]), // a leaves before the window...
    row(40_000, 45_000, [b0], [a1, b0]), // ...and is back inside it
    row(100_000, 105_000, [a1, b0], [a1, b1]),
    row(200_000, 205_000, [a1, b1], [a0, b1]), // a1 -> a0: an old id, but not a1's: a new id for this session
  ];

  it('counts restarts completed inside the window, pairing with departures before it', () => {
    expect(countMemberRestarts(rows, { fromMs: 30_000, toMs: 300_000 })).toEqual({
      restarts: 3,
      restartsWithNewMemberId: 3,
      staticMemberRestarts: 0,
    });
    expect(countMemberRestarts(rows, { fromMs: 50_000, toMs: 150_000 })).toEqual({
      restarts: 1,
      restartsWithNewMemberId: 1,
      staticMemberRestarts: 0,
    });
    expect(countMemberRestarts(rows, { fromMs: 300_000, toMs: 400_000 })).toEqual({
      restarts: 0,
      restartsWithNewMemberId: 0,
      staticMemberRestarts: 0,
    });
  });

  it('is zero with no history', () => {
    expect(countMemberRestarts([], { fromMs: 0, toMs: 1 })).toEqual({
      restarts: 0,
      restartsWithNewMemberId: 0,
      staticMemberRestarts: 0,
    });
  });
});

describe('looksStatic and parseStoredMembers', () => {
  it('tells a group.instance.id prefix from a client id prefix', () => {
    expect(looksStatic(a0)).toBe(false);
    expect(looksStatic({ memberId: `pod-3-${UUIDS[0]}`, clientId: 'orders', clientHost: '/h' })).toBe(true);
    // Not Kafka's `<prefix>-<UUID>` shape (e.g. a KIP-848 member id): nothing to tell, so not static.
    expect(looksStatic({ memberId: 'Zm9vYmFyYmF6cXV4cXV1eA', clientId: 'orders', clientHost: '/h' })).toBe(false);
  });

  it('keeps only well-formed members of a stored column', () => {
    const stored = [
      { memberId: 'm', clientId: 'c', clientHost: '/h', assignment: { t: [0] } },
      'c /h',
      { memberId: 'x' },
      42,
      null,
      { memberId: 1, clientId: 'c', clientHost: '/h' },
    ];
    expect(parseStoredMembers(stored)).toEqual([{ memberId: 'm', clientId: 'c', clientHost: '/h' }]);
    expect(parseStoredMembers({ memberId: 'm' })).toEqual([]);
    expect(parseStoredMembers(null)).toEqual([]);
  });
});

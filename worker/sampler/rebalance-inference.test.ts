import { describe, expect, it } from 'vitest';
import { trackGroup, type GroupObservation, type RebalanceTracker } from './rebalance-inference';
import type { GroupMember } from '../../lib/kafka/cluster-observation';

const member = (id: string, assignment: Record<string, number[]>): GroupMember => ({
  memberId: id,
  clientId: `c-${id}`,
  clientHost: '/10.0.0.1',
  assignment,
});

function observe(
  atMs: number,
  state: string,
  members: GroupMember[],
  partitions: GroupObservation['partitions'] = [],
): GroupObservation {
  return { groupId: 'g', atMs, state, members, partitions };
}

/** Feeds observations in order; returns every rebalance reported. */
function run(observations: GroupObservation[], silenceMs?: number) {
  let tracker: RebalanceTracker | undefined;
  const rebalances = [];
  for (const o of observations) {
    const result = trackGroup(tracker, o, { silenceMs });
    tracker = result.tracker ?? undefined;
    if (result.rebalance) rebalances.push(result.rebalance);
  }
  return { rebalances, tracker };
}

const a = member('a', { t: [0, 1, 2, 3] });

describe('trackGroup', () => {
  it('reports a second member joining, seen in progress, with bounds and the partitions that moved', () => {
    const { rebalances } = run([
      observe(1_000, 'Stable', [a]),
      observe(2_000, 'PreparingRebalance', [a]),
      observe(3_000, 'CompletingRebalance', [member('a', {}), member('b', {})]),
      observe(4_000, 'Stable', [member('a', { t: [0, 1] }), member('b', { t: [2, 3] })]),
    ]);
    expect(rebalances).toHaveLength(1);
    expect(rebalances[0]).toMatchObject({
      startedAtMs: 1_000,
      endedAtMs: 4_000,
      durationMs: 3_000,
      membersJoined: ['b'],
      membersLeft: [],
      partitionsMoved: 2,
      trigger: 'join',
      statesSeen: ['PreparingRebalance', 'CompletingRebalance'],
    });
    expect(rebalances[0]?.membersBefore.map((m) => m.memberId)).toEqual(['a']);
    expect(rebalances[0]?.membersAfter.map((m) => m.memberId)).toEqual(['a', 'b']);
  });

  it('reports a rebalance that happened entirely between two samples', () => {
    const { rebalances } = run([
      observe(1_000, 'Stable', [member('a', { t: [0, 1] }), member('b', { t: [2, 3] })]),
      observe(6_000, 'Stable', [a]),
    ]);
    expect(rebalances).toMatchObject([
      {
        startedAtMs: 1_000,
        endedAtMs: 6_000,
        membersLeft: ['b'],
        partitionsMoved: 2,
        trigger: 'leave',
        statesSeen: [],
      },
    ]);
  });

  it('calls a departure a timeout when the leaving member had stopped committing its lagging partitions', () => {
    const before = [member('a', { t: [0] }), member('b', { t: [1] })];
    const lagging = (committed: bigint) => [
      { topic: 't', partition: 0, committedOffset: 100n, lag: 0n },
      { topic: 't', partition: 1, committedOffset: committed, lag: 50n },
    ];
    const stuck = run(
      [
        observe(0, 'Stable', before, lagging(10n)),
        observe(5_000, 'Stable', before, lagging(10n)),
        observe(15_000, 'Stable', before, lagging(10n)),
        observe(20_000, 'Stable', [member('a', { t: [0, 1] })], lagging(10n)),
      ],
      10_000,
    );
    expect(stuck.rebalances.map((r) => r.trigger)).toEqual(['timeout']);

    const committing = run(
      [
        observe(0, 'Stable', before, lagging(10n)),
        observe(5_000, 'Stable', before, lagging(20n)),
        observe(15_000, 'Stable', before, lagging(30n)),
        observe(20_000, 'Stable', [member('a', { t: [0, 1] })], lagging(30n)),
      ],
      10_000,
    );
    expect(committing.rebalances.map((r) => r.trigger)).toEqual(['leave']);
  });

  it('reports the last member leaving (Stable to Empty) and the first joining (Empty to Stable)', () => {
    const { rebalances } = run([
      observe(0, 'Stable', [a]),
      observe(5_000, 'Empty', []),
      observe(10_000, 'Stable', [member('c', { t: [0, 1, 2, 3] })]),
    ]);
    expect(rebalances.map((r) => [r.trigger, r.partitionsMoved, r.membersAfter.length])).toEqual([
      ['leave', 4, 0],
      ['join', 4, 1],
    ]);
  });

  it('reports a new assignment of the same members as an assignment change, and nothing when nothing changed', () => {
    const { rebalances } = run([
      observe(0, 'Stable', [a]),
      observe(5_000, 'Stable', [a]),
      observe(10_000, 'Stable', [member('a', { t: [0, 1, 2, 3, 4] })]), // partitions added to the topic
    ]);
    expect(rebalances.map((r) => [r.trigger, r.partitionsMoved, r.membersJoined, r.membersLeft])).toEqual([
      ['assignment', 1, [], []],
    ]);
  });

  it('reports a rebalance seen in progress that changed nothing as unknown with nothing moved', () => {
    const { rebalances } = run([
      observe(0, 'Stable', [a]),
      observe(5_000, 'PreparingRebalance', [member('a', {})]),
      observe(10_000, 'Stable', [a]),
    ]);
    expect(rebalances.map((r) => [r.trigger, r.partitionsMoved])).toEqual([['unknown', 0]]);
  });

  it('reports a member that came back under a new member id (same client id and host) as a leave and a join', () => {
    const restarted: GroupMember = { ...a, memberId: 'a2' };
    const { rebalances } = run([observe(0, 'Stable', [a]), observe(5_000, 'Stable', [restarted])]);
    expect(rebalances).toMatchObject([
      { trigger: 'leave', membersLeft: ['a'], membersJoined: ['a2'], partitionsMoved: 4 },
    ]);
  });

  it('never describes a rebalance as unknown while members changed or partitions moved (every small case)', () => {
    // Every pair of settled states over two partitions and three member ids (a2 is a's client and host under
    // another member id), each partition owned by one of the present members or by nobody.
    const ids = ['a', 'b', 'a2'];
    const states: GroupMember[][] = [];
    for (let mask = 0; mask < 1 << ids.length; mask++) {
      const present = ids.filter((_, i) => mask & (1 << i));
      const owners = [null, ...present];
      for (const owner0 of owners)
        for (const owner1 of owners)
          states.push(
            present.map((id) => ({
              memberId: id,
              clientId: id === 'a2' ? 'c-a' : `c-${id}`,
              clientHost: '/10.0.0.1',
              assignment: { t: [owner0 === id ? [0] : [], owner1 === id ? [1] : []].flat() },
            })),
          );
    }
    let described = 0;
    for (const before of states) {
      for (const after of states) {
        for (const between of [[], ['PreparingRebalance']]) {
          const observations = [
            observe(0, before.length === 0 ? 'Empty' : 'Stable', before),
            ...between.map((state) => observe(5_000, state, [])),
            observe(10_000, after.length === 0 ? 'Empty' : 'Stable', after),
          ];
          for (const r of run(observations).rebalances) {
            described++;
            const changed = r.membersJoined.length + r.membersLeft.length + r.partitionsMoved > 0;
            expect(r.trigger === 'unknown' && changed, JSON.stringify(r)).toBe(false);
            if (r.membersLeft.length > 0) expect(r.trigger).toBe('leave');
            else if (r.membersJoined.length > 0) expect(r.trigger).toBe('join');
          }
        }
      }
    }
    expect(described).toBeGreaterThan(states.length * states.length);
  });

  it('reports nothing for a rebalance already in progress when tracking starts', () => {
    const { rebalances } = run([observe(0, 'PreparingRebalance', [a]), observe(5_000, 'Stable', [a, member('b', {})])]);
    expect(rebalances).toEqual([]);
  });

  it('forgets a Dead group and ignores stale observations', () => {
    const first = trackGroup(undefined, observe(5_000, 'Stable', [a]));
    expect(trackGroup(first.tracker ?? undefined, observe(4_000, 'Empty', [])).rebalance).toBeNull();
    expect(trackGroup(first.tracker ?? undefined, observe(6_000, 'Dead', [])).tracker).toBeNull();
  });
});

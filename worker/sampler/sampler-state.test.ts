import { describe, expect, it } from 'vitest';
import { SamplerState } from './sampler-state';
import type { GroupSnapshot, TopicWatermarks, ClusterObservation } from '../../lib/kafka/cluster-observation';

// The sampler's round logic on plain data: every edge case that does not need a broker.

const options = {
  timeLagPoints: 10,
  timeLagSpacingMs: 0,
  rateWindowMs: 60_000,
  exactTimeLagIntervalMs: 0,
  exactTimeLagMaxPartitions: 10,
};

function group(overrides: Partial<GroupSnapshot> & { committed?: GroupSnapshot['committed'] }): GroupSnapshot {
  return {
    groupId: 'g',
    state: 'Stable',
    protocol: 'RoundRobinAssigner',
    members: [{ memberId: 'm1', clientId: 'c1', clientHost: '/h', assignment: { t: [0] } }],
    committed: [],
    ...overrides,
  };
}

const marks = (topic: string, ...partitions: Array<[low: number, high: number]>): TopicWatermarks => ({
  topic,
  partitions: partitions.map(([low, high], partition) => ({ partition, low: String(low), high: String(high) })),
});

const commits = (topic: string, ...offsets: number[]) => [
  { topic, partitions: offsets.map((o, partition) => ({ partition, offset: String(o) })) },
];

/** A full round with no exact reads answered. */
function round(state: SamplerState, observation: ClusterObservation, nowMs: number) {
  const prepared = state.prepareRound(observation, nowMs);
  return { prepared, rows: state.completeRound(prepared, []) };
}

describe('SamplerState', () => {
  it('reports an idle, caught-up partition as 0 ms caught-up (never NaN), with rates of 0', () => {
    const state = new SamplerState(options);
    const observation = { groups: [group({ committed: commits('t', 50) })], watermarks: [marks('t', [0, 50])] };
    round(state, observation, 0);
    const { rows } = round(state, observation, 5_000);
    expect(rows[0]).toMatchObject({
      lag: 0n,
      timeLagMs: 0n,
      timeLagKind: 'caught-up',
      exactTimeLagMs: 0n,
      arrivalRatePerSec: 0,
      consumptionRatePerSec: 0,
      groupProtocol: 'RoundRobinAssigner',
    });
  });

  it('shows a group with no commits yet as unknown: no lag, no time lag, no consumption rate', () => {
    const state = new SamplerState(options);
    const observation = { groups: [group({ committed: [] })], watermarks: [marks('t', [0, 10])] };
    round(state, observation, 0);
    const { rows } = round(state, { ...observation, watermarks: [marks('t', [0, 20])] }, 1_000);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      committedOffset: null,
      lag: null,
      timeLagMs: null,
      timeLagKind: 'unknown',
      exactTimeLagMs: null,
      arrivalRatePerSec: 10,
      consumptionRatePerSec: null,
    });
  });

  it('interpolates time lag between log-end points and grows it while the consumer is stopped', () => {
    const state = new SamplerState(options);
    const at = (logEnd: number, nowMs: number) =>
      round(state, { groups: [group({ committed: commits('t', 100) })], watermarks: [marks('t', [0, logEnd])] }, nowMs)
        .rows[0];
    at(100, 0);
    expect(at(200, 10_000)).toMatchObject({ lag: 100n, timeLagKind: 'interpolated', timeLagMs: 10_000n });
    expect(at(200, 20_000)).toMatchObject({ lag: 100n, timeLagKind: 'interpolated', timeLagMs: 20_000n });
  });

  it('gives a consumer rewound to the start a lower-bound time lag and asks to read the exact age', () => {
    const state = new SamplerState(options);
    const observe = (committed: number, nowMs: number) =>
      state.prepareRound(
        { groups: [group({ committed: commits('t', committed) })], watermarks: [marks('t', [0, 1_000])] },
        nowMs,
      );
    const hour = 3_600_000;
    state.completeRound(observe(1_000, hour), []);
    const rewound = observe(0, hour + 30_000);
    expect(rewound.rows[0]).toMatchObject({ timeLag: { ms: 30_000, kind: 'lower-bound' }, row: { lag: 1_000n } });
    expect(rewound.reads).toEqual([{ topic: 't', partition: 0, offset: 0n }]);
    // The record at offset 0 was produced an hour before the window started: only the exact read knows.
    const [row] = state.completeRound(rewound, [{ topic: 't', partition: 0, offset: 0n, timestampMs: 0 }]);
    expect(row).toMatchObject({
      timeLagKind: 'lower-bound',
      timeLagMs: 30_000n,
      exactTimeLagMs: BigInt(hour + 30_000),
    });
  });

  it('drops a deleted topic: no rows for it, and its stored points are deleted', () => {
    const state = new SamplerState(options);
    const both = group({
      committed: [...commits('t', 5), ...commits('gone', 5)],
      members: [{ memberId: 'm1', clientId: 'c1', clientHost: '/h', assignment: { t: [0], gone: [0] } }],
    });
    round(state, { groups: [both], watermarks: [marks('gone', [0, 9]), marks('t', [0, 9])] }, 0);
    const changes = state.points.takeChanges();
    state.points.confirmInserted(changes.inserts.map((insert, i) => ({ point: insert.point, id: BigInt(i + 1) })));
    const goneId = BigInt(changes.inserts.findIndex((i) => i.topic === 'gone') + 1);

    const { rows } = round(state, { groups: [both], watermarks: [marks('t', [0, 9])] }, 1_000);
    expect(rows.map((r) => r.topic)).toEqual(['t']);
    expect(state.points.takeChanges().deletes).toEqual([goneId]);
  });

  it('keeps the history of a partition left out of one round while its topic exists (no leader during an election)', () => {
    const state = new SamplerState(options);
    const g = group({ committed: commits('t', 3, 4) });
    round(state, { groups: [g], watermarks: [marks('t', [0, 3], [0, 4])] }, 0);
    round(
      state,
      { groups: [g], watermarks: [{ topic: 't', partitions: [{ partition: 0, low: '0', high: '3' }] }], topics: ['t'] },
      1_000,
    );
    expect(state.points.pointsOf('t', 1)).toEqual([{ offset: 4, atMs: 0 }]);
  });

  it('picks up partitions added to a topic, without commits until the group commits them', () => {
    const state = new SamplerState(options);
    const g = group({ committed: commits('t', 3, 4) });
    round(state, { groups: [g], watermarks: [marks('t', [0, 3], [0, 4])] }, 0);
    const { rows } = round(state, { groups: [g], watermarks: [marks('t', [0, 3], [0, 4], [0, 2])] }, 1_000);
    expect(rows.map((r) => [r.partition, r.committedOffset, r.lag, r.timeLagKind])).toEqual([
      [0, 3n, 0n, 'caught-up'],
      [1, 4n, 0n, 'caught-up'],
      [2, null, null, 'unknown'],
    ]);
  });

  it('forgets a deleted group: no rows, and no stale rebalance when a group of that name returns', () => {
    const state = new SamplerState(options);
    const observation = { groups: [group({ committed: commits('t', 1) })], watermarks: [marks('t', [0, 1])] };
    round(state, observation, 0);
    expect(round(state, { groups: [], watermarks: [] }, 1_000).rows).toEqual([]);
    const back = group({
      committed: commits('t', 1),
      members: [{ memberId: 'other', clientId: 'c', clientHost: '/h', assignment: { t: [0] } }],
    });
    expect(round(state, { groups: [back], watermarks: [marks('t', [0, 1])] }, 2_000).prepared.rebalances).toEqual([]);
  });

  it('reports a rebalance when a second member joins between rounds', () => {
    const state = new SamplerState(options);
    const one = group({
      committed: commits('t', 1, 1),
      members: [{ memberId: 'm1', clientId: 'c1', clientHost: '/h', assignment: { t: [0, 1] } }],
    });
    const two = group({
      committed: commits('t', 1, 1),
      members: [
        { memberId: 'm1', clientId: 'c1', clientHost: '/h', assignment: { t: [0] } },
        { memberId: 'm2', clientId: 'c2', clientHost: '/h', assignment: { t: [1] } },
      ],
    });
    const w = [marks('t', [0, 1], [0, 1])];
    round(state, { groups: [one], watermarks: w }, 0);
    const { prepared } = round(state, { groups: [two], watermarks: w }, 5_000);
    expect(prepared.rebalances).toMatchObject([
      { groupId: 'g', trigger: 'join', membersJoined: ['m2'], partitionsMoved: 1, startedAtMs: 0, endedAtMs: 5_000 },
    ]);
  });

  it('asks for one read per record shared by several groups, and gives both groups the exact age', () => {
    const state = new SamplerState(options);
    const observation = {
      groups: [
        group({ groupId: 'a', committed: commits('t', 7) }),
        group({ groupId: 'b', committed: commits('t', 7) }),
      ],
      watermarks: [marks('t', [0, 10])],
    };
    const prepared = state.prepareRound(observation, 10_000);
    expect(prepared.reads).toEqual([{ topic: 't', partition: 0, offset: 7n }]);
    const rows = state.completeRound(prepared, [{ topic: 't', partition: 0, offset: 7n, timestampMs: 4_000 }]);
    expect(rows.map((r) => [r.groupId, r.exactTimeLagMs])).toEqual([
      ['a', 6_000n],
      ['b', 6_000n],
    ]);
  });
});

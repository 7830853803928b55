import { describe, expect, it } from 'vitest';
import {
  clusterRebalanceRows,
  isCompleteAfter,
  mergeRebalanceRows,
  REBALANCE_MERGE_TOLERANCE_MS,
  type StoredRebalanceRow,
} from './merge-rebalances';

// Rows as the demo story wrote them before the merge (npm run demo, DEMO_STORY_SPEED=2): one Warden worker
// ("warden"), a second one ("warden-2") joining and leaving 30 s later, the sampler every 5 s. The measured
// rows name the host as the worker knows itself ("vm"), the inferred ones as the broker sees it.
const W1 = 'warden-e785944a-7cdb-4e0f-96d9-6f6b8e88289b';
const W2 = 'warden-2-db3c5464-adcb-4a07-b0c4-234628f85e56';
const T = 'warden.demo.events';
const at = (time: string) => Date.parse(`2026-12-01T08:${time}Z`);
const self = (memberId: string, partitions: number[], host = 'vm') => ({
  memberId,
  clientId: memberId === W1 ? 'warden' : 'warden-2',
  clientHost: host,
  assignment: { [T]: partitions },
});
const group = (memberId: string, partitions: number[]) => self(memberId, partitions, '/127.0.0.1');

let nextId = 1;
function row(
  source: 'own-consumer' | 'describe-groups',
  from: string,
  to: string,
  fields: Partial<StoredRebalanceRow> = {},
): StoredRebalanceRow {
  return {
    id: String(nextId++),
    groupId: 'warden-pipeline',
    source,
    startedAtMs: at(from),
    endedAtMs: at(to),
    trigger: 'unknown',
    membersBefore: [],
    membersAfter: [],
    partitionsMoved: 0,
    ...fields,
  };
}

const startupJoin = row('own-consumer', '05:18.693', '05:19.042', {
  trigger: 'join',
  membersAfter: [self(W1, [0, 1, 2, 3, 4, 5])],
  partitionsMoved: 6,
});
const joinInferred = row('describe-groups', '06:05.321', '06:15.306', {
  trigger: 'join',
  membersBefore: [group(W1, [0, 1, 2, 3, 4, 5])],
  membersAfter: [group(W1, [3, 4, 5]), group(W2, [0, 1, 2])],
  partitionsMoved: 3,
});
const joinMeasuredByW2 = row('own-consumer', '06:08.616', '06:10.892', {
  trigger: 'join',
  membersAfter: [self(W2, [0, 1, 2])],
  partitionsMoved: 3,
});
const joinMeasuredByW1 = row('own-consumer', '06:10.848', '06:10.920', {
  membersBefore: [self(W1, [0, 1, 2, 3, 4, 5])],
  membersAfter: [self(W1, [3, 4, 5])],
  partitionsMoved: 3,
});
const leaveInferred = row('describe-groups', '06:30.390', '06:40.314', {
  trigger: 'leave',
  membersBefore: [group(W1, [3, 4, 5]), group(W2, [0, 1, 2])],
  membersAfter: [group(W1, [0, 1, 2, 3, 4, 5])],
  partitionsMoved: 3,
});
const leaveMeasuredByW1 = row('own-consumer', '06:35.613', '06:35.632', {
  membersBefore: [self(W1, [3, 4, 5])],
  membersAfter: [self(W1, [0, 1, 2, 3, 4, 5])],
  partitionsMoved: 3,
});
const demoRows = [startupJoin, joinInferred, joinMeasuredByW2, joinMeasuredByW1, leaveInferred, leaveMeasuredByW1];

const names = (members: Array<{ name: string; change: string }>) => members.map((m) => `${m.name} (${m.change})`);

describe('mergeRebalanceRows', () => {
  it('makes one rebalance of what two Warden members measured and the sampler inferred of one change', () => {
    const [join] = mergeRebalanceRows([joinMeasuredByW1, joinInferred, joinMeasuredByW2]);
    expect(mergeRebalanceRows([joinMeasuredByW1, joinInferred, joinMeasuredByW2])).toHaveLength(1);
    expect(join).toMatchObject({
      // From the first member's stop to the last one's resume, measured: not the samples' bound.
      startedAtMs: at('06:08.616'),
      endedAtMs: at('06:10.920'),
      durationMs: 2_304,
      durationIsBound: false,
      sampledBetween: { fromMs: at('06:05.321'), toMs: at('06:15.306') },
      trigger: 'join',
      membersSeenBy: 'group',
      partitionsMoved: 3,
      rowIds: [joinInferred.id, joinMeasuredByW2.id, joinMeasuredByW1.id], // numeric order: the first written first
    });
    // Each member's own stop, named as the group names it (the broker's view of the host, not "vm").
    expect(join!.stops).toEqual([
      {
        name: 'warden-2 127.0.0.1 #f85e56',
        memberId: W2,
        startedAtMs: at('06:08.616'),
        endedAtMs: at('06:10.892'),
        durationMs: 2_276,
        joining: true,
      },
      {
        name: 'warden 127.0.0.1 #88289b',
        memberId: W1,
        startedAtMs: at('06:10.848'),
        endedAtMs: at('06:10.920'),
        durationMs: 72,
        joining: false,
      },
    ]);
    expect(names(join!.membersBefore)).toEqual(['warden 127.0.0.1 #88289b (stayed)']);
    expect(names(join!.membersAfter)).toEqual([
      'warden 127.0.0.1 #88289b (stayed)',
      'warden-2 127.0.0.1 #f85e56 (joined)',
    ]);
  });

  it('makes one rebalance with both stop times when two Warden members measured it and the sampler did not', () => {
    const merged = mergeRebalanceRows([joinMeasuredByW2, joinMeasuredByW1]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.stops.map((s) => [s.memberId, s.durationMs])).toEqual([
      [W2, 2_276],
      [W1, 72],
    ]);
    expect(merged[0]).toMatchObject({
      durationIsBound: false,
      sampledBetween: null,
      // warden-2 joined from scratch: that is the one trigger a measuring member knows.
      trigger: 'join',
      membersSeenBy: 'measuring-members',
      // Counted once over both members' assignments (3 partitions went from warden to warden-2), not 3 + 3.
      partitionsMoved: 3,
    });
    expect(names(merged[0]!.membersAfter)).toEqual(['warden-2 vm #f85e56 (joined)', 'warden vm #88289b (stayed)']);
  });

  it('keeps two rebalances a few seconds apart apart, each with its own samples', () => {
    const measuredStop = (from: string, to: string, before: number[], after: number[]) =>
      row('own-consumer', from, to, { membersBefore: [self(W1, before)], membersAfter: [self(W1, after)] });
    const first = measuredStop('10:10.000', '10:10.300', [0, 1, 2, 3, 4, 5], [3, 4, 5]);
    const second = measuredStop('10:13.000', '10:13.200', [3, 4, 5], [0, 1, 2, 3, 4, 5]);
    const sampledFirst = row('describe-groups', '10:06.000', '10:11.000', { trigger: 'join', partitionsMoved: 3 });
    const sampledSecond = row('describe-groups', '10:11.000', '10:16.000', { trigger: 'leave', partitionsMoved: 3 });

    const merged = mergeRebalanceRows([first, second, sampledFirst, sampledSecond]);
    expect(merged.map((r) => [r.trigger, r.startedAtMs, r.rowIds])).toEqual([
      ['leave', at('10:13.000'), [second.id, sampledSecond.id]],
      ['join', at('10:10.000'), [first.id, sampledFirst.id]],
    ]);

    // The sampler saw both between the same two rounds: still two; its view goes to the later one, whose
    // after-state it saw, and the earlier one keeps what its member measured.
    const sampledBoth = row('describe-groups', '10:06.000', '10:16.000', { trigger: 'unknown' });
    const alone = mergeRebalanceRows([first, second, sampledBoth]);
    expect(alone.map((r) => [r.rowIds, r.membersSeenBy])).toEqual([
      [[second.id, sampledBoth.id], 'group'],
      [[first.id], 'measuring-members'],
    ]);
  });

  it('shows a rebalance only the sampler saw with its bound, trigger and the whole group', () => {
    const [only] = mergeRebalanceRows([leaveInferred]);
    expect(only).toMatchObject({
      startedAtMs: at('06:30.390'),
      endedAtMs: at('06:40.314'),
      durationMs: 9_924,
      durationIsBound: true,
      stops: [],
      trigger: 'leave',
      membersSeenBy: 'group',
      partitionsMoved: 3,
    });
    expect(names(only!.membersBefore)).toEqual([
      'warden 127.0.0.1 #88289b (stayed)',
      'warden-2 127.0.0.1 #f85e56 (left)',
    ]);
  });

  it('shows a rebalance only one Warden member measured with its exact stop and its own view', () => {
    const [only] = mergeRebalanceRows([joinMeasuredByW1]);
    expect(only).toMatchObject({
      durationMs: 72,
      durationIsBound: false,
      sampledBetween: null,
      trigger: 'unknown',
      membersSeenBy: 'measuring-members',
      partitionsMoved: 3,
    });
  });

  it('turns the demo story into one row per change, named one way', () => {
    const merged = mergeRebalanceRows(demoRows).map((r) => ({
      start: new Date(r.startedAtMs).toISOString(),
      duration: r.durationMs,
      bound: r.durationIsBound,
      trigger: r.trigger,
      before: r.membersBefore.map((m) => m.name),
      after: r.membersAfter.map((m) => m.name),
      moved: r.partitionsMoved,
    }));
    const w1 = 'warden 127.0.0.1 #88289b';
    const w2 = 'warden-2 127.0.0.1 #f85e56';
    expect(merged).toEqual([
      {
        start: '2026-12-01T08:06:35.613Z',
        duration: 19,
        bound: false,
        trigger: 'leave',
        before: [w1, w2],
        after: [w1],
        moved: 3,
      },
      {
        start: '2026-12-01T08:06:08.616Z',
        duration: 2_304,
        bound: false,
        trigger: 'join',
        before: [w1],
        after: [w1, w2],
        moved: 3,
      },
      // The first join happened before the sampler tracked the group: measured only. Its member is still named
      // as the group names it, from the later rows that saw it.
      {
        start: '2026-12-01T08:05:18.693Z',
        duration: 349,
        bound: false,
        trigger: 'join',
        before: [],
        after: [w1],
        moved: 6,
      },
    ]);
  });

  it('never lets one member stop twice in one rebalance, however close the ends', () => {
    const a = row('own-consumer', '20:00.000', '20:00.100', { membersAfter: [self(W1, [0])] });
    const b = row('own-consumer', '20:00.200', '20:00.600', { membersAfter: [self(W1, [0, 1])] });
    expect(mergeRebalanceRows([a, b])).toHaveLength(2);
    const other = row('own-consumer', '20:00.050', '20:00.650', { membersAfter: [self(W2, [1])] });
    expect(mergeRebalanceRows([a, other])).toHaveLength(1);
  });

  it('puts a stop with the nearest ends when a member stopped twice within the tolerance', () => {
    // Seen on the broker: warden's first join ended, warden-2 joined 900 ms later, and warden's stop for that
    // join ended 30 ms after warden-2's. warden-2's stop belongs to the second rebalance, not the first.
    const firstJoin = row('own-consumer', '50:00.000', '50:00.100', {
      trigger: 'join',
      membersAfter: [self(W1, [0, 1])],
    });
    const joining = row('own-consumer', '50:00.300', '50:01.000', { trigger: 'join', membersAfter: [self(W2, [1])] });
    const rebalanced = row('own-consumer', '50:00.700', '50:01.030', {
      membersBefore: [self(W1, [0, 1])],
      membersAfter: [self(W1, [0])],
    });
    expect(mergeRebalanceRows([firstJoin, joining, rebalanced]).map((r) => r.rowIds)).toEqual([
      [joining.id, rebalanced.id],
      [firstJoin.id],
    ]);
  });

  it('names a stored "unknown" inferred row from its members: same members, new assignment is an assignment change', () => {
    const written = row('describe-groups', '30:00.000', '30:05.000', {
      trigger: 'unknown',
      membersBefore: [group(W1, [0, 1])],
      membersAfter: [group(W1, [0, 1, 2])],
      partitionsMoved: 1,
    });
    expect(mergeRebalanceRows([written])[0]!.trigger).toBe('assignment');
    const nothing = { ...written, id: 'x', membersAfter: [group(W1, [0, 1])], partitionsMoved: 0 };
    expect(mergeRebalanceRows([nothing])[0]!.trigger).toBe('unknown');
  });

  it('reads odd stored member columns without throwing, keeping the stored partition count', () => {
    const odd = row('describe-groups', '40:00.000', '40:05.000', {
      trigger: 'join',
      membersBefore: [{ clientId: 'consumer-0', clientHost: '/10.0.0.7' }],
      membersAfter: [
        'consumer-0 /10.0.0.7',
        { memberId: 'm-2' },
        { clientId: 'c', clientHost: '/h', memberId: 'c-0123456789' },
        42,
        null,
      ],
      partitionsMoved: 3,
    });
    const [merged] = mergeRebalanceRows([odd, row('own-consumer', '40:01.000', '40:02.000', { membersAfter: 'nope' })]);
    expect(merged!.membersAfter.map((m) => m.name)).toEqual([
      'consumer-0 /10.0.0.7',
      'm-2',
      'c h #456789',
      '42',
      'null',
    ]);
    expect(merged!.partitionsMoved).toBe(3);
    expect(merged!.stops[0]!.name).toBe('unknown member');
    expect(
      mergeRebalanceRows([
        row('own-consumer', '41:00.000', '41:01.000', { partitionsMoved: 2, membersAfter: [{ clientId: 'x' }] }),
      ])[0]!.partitionsMoved,
    ).toBe(2);
  });

  it('never merges rows of different groups', () => {
    expect(mergeRebalanceRows([joinInferred, { ...joinMeasuredByW1, groupId: 'other' }])).toHaveLength(2);
  });
});

describe('clusterRebalanceRows', () => {
  const span = (source: string, startedAtMs: number, endedAtMs: number | null) => ({ source, startedAtMs, endedAtMs });

  it('merges measured ends up to the tolerance apart, and an inferred bound up to the tolerance around an end', () => {
    const tol = REBALANCE_MERGE_TOLERANCE_MS;
    expect(clusterRebalanceRows([span('own-consumer', 0, 1_000), span('own-consumer', 500, 1_000 + tol)])).toHaveLength(
      1,
    );
    expect(clusterRebalanceRows([span('own-consumer', 0, 1_000), span('own-consumer', 500, 1_001 + tol)])).toHaveLength(
      2,
    );
    expect(
      clusterRebalanceRows([span('own-consumer', 0, 6_000 + tol), span('describe-groups', 1_000, 6_000)]),
    ).toHaveLength(1);
    expect(
      clusterRebalanceRows([span('own-consumer', 0, 6_001 + tol), span('describe-groups', 1_000, 6_000)]),
    ).toHaveLength(2);
    expect(
      clusterRebalanceRows([span('own-consumer', 0, 1_001 - tol), span('describe-groups', 1_000, 6_000)]),
    ).toHaveLength(1);
    expect(
      clusterRebalanceRows([span('own-consumer', 0, 1_000 - tol), span('describe-groups', 1_000, 6_000)]),
    ).toHaveLength(2);
  });

  it('gives an end on the sample shared by two bounds to the bound it lies in', () => {
    const clusters = clusterRebalanceRows([
      span('describe-groups', 0, 5_000),
      span('describe-groups', 5_000, 10_000),
      span('own-consumer', 4_000, 5_000),
    ]);
    expect(clusters.map((c) => [c.measured.length, c.inferred?.startedAtMs])).toEqual([
      [0, 5_000],
      [1, 0],
    ]);
  });
});

describe('isCompleteAfter', () => {
  it('is complete only when no row ending at or before the cut could belong to the rebalance', () => {
    const [merged] = clusterRebalanceRows([
      { source: 'own-consumer', startedAtMs: 8_000, endedAtMs: 9_000 },
      { source: 'describe-groups', startedAtMs: 5_000, endedAtMs: 10_000 },
    ]);
    expect(isCompleteAfter(merged!, 3_999, 1_000)).toBe(true);
    expect(isCompleteAfter(merged!, 4_000, 1_000)).toBe(false);
    const [measuredOnly] = clusterRebalanceRows([{ source: 'own-consumer', startedAtMs: 0, endedAtMs: 9_000 }]);
    expect(isCompleteAfter(measuredOnly!, 7_999, 1_000)).toBe(true);
    expect(isCompleteAfter(measuredOnly!, 8_000, 1_000)).toBe(false);
  });
});

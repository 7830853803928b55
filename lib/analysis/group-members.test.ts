import { describe, expect, it } from 'vitest';
import { analyzeGroup, type LatestPartitionRow } from './group-analysis';

const row = (partition: number, owner: Partial<LatestPartitionRow>): LatestPartitionRow => ({
  topic: 'orders',
  partition,
  committedOffset: 10n,
  logStartOffset: 0n,
  logEndOffset: 10n,
  lag: 0n,
  memberClientId: 'worker',
  memberHost: '/10.0.0.7',
  timeLagMs: null,
  timeLagKind: null,
  exactTimeLagMs: null,
  arrivalRatePerSec: null,
  consumptionRatePerSec: null,
  ...owner,
});

const membersOf = (rows: LatestPartitionRow[]) =>
  analyzeGroup({ rows, history: new Map(), quarantined: [], timeLagObjectiveMs: null, rateWindowMs: 60_000, nowMs: 0 })
    .members;

describe('analyzeGroup members', () => {
  it('tells apart two members of one program on one host by member id, and names each one way', () => {
    const members = membersOf([
      row(0, { memberId: 'worker-0000-aaaaaa' }),
      row(1, { memberId: 'worker-0000-bbbbbb' }),
      row(2, { memberId: 'worker-0000-aaaaaa' }),
    ]);
    expect(members.map((m) => [m.name, m.partitions.map((p) => p.partition)])).toEqual([
      ['worker 10.0.0.7 #aaaaaa', [0, 2]],
      ['worker 10.0.0.7 #bbbbbb', [1]],
    ]);
  });

  it('falls back to client id and host for samples stored without member ids', () => {
    const members = membersOf([row(0, { memberId: null }), row(1, {})]);
    expect(members.map((m) => [m.name, m.memberId, m.partitions.length])).toEqual([['worker 10.0.0.7', null, 2]]);
  });
});

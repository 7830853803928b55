import { describe, expect, it } from 'vitest';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { sortPartitions } from './partition-sort';

const row = (partition: number, over: Partial<TPartitionDetail>): TPartitionDetail =>
  ({
    topic: 't',
    partition,
    status: 'OK',
    quarantine: null,
    lag: 0,
    timeLag: null,
    arrivalRatePerSec: null,
    consumptionRatePerSec: null,
    owner: null,
    ...over,
  }) as TPartitionDetail;

const atRisk = (earliestMs: number): TPartitionDetail['retentionRisk'] => ({
  kind: 'at-risk',
  earliestMs,
  latestMs: earliestMs * 2,
  earliestAt: null,
  latestAt: null,
  rules: ['time'],
  basis: '',
  alsoCompacted: false,
  summary: '',
});

const rows = [
  row(0, { lag: 5, status: 'OK' }),
  row(1, { lag: null, status: 'STOP' }),
  row(2, { lag: 900, status: 'WARN', quarantine: { offset: '1' } as TPartitionDetail['quarantine'] }),
  row(3, { lag: 40, status: 'REWIND' }),
];
const order = (key: Parameters<typeof sortPartitions>[1]['key'], descending: boolean) =>
  sortPartitions(rows, { key, descending }).map((p) => p.partition);

describe('sortPartitions', () => {
  it('sorts by lag both ways, unknown lag last either way', () => {
    expect(order('lag', true)).toEqual([2, 3, 0, 1]);
    expect(order('lag', false)).toEqual([0, 3, 2, 1]);
  });
  it('puts held partitions, then the worst status, first when descending', () => {
    expect(order('status', true)).toEqual([2, 3, 1, 0]);
  });
  it('sorts by retention: lost, then the soonest deletion, then unknown, then the rest', () => {
    const risky = [
      row(0, { retentionRisk: { kind: 'caught-up', summary: '' } }),
      row(1, { retentionRisk: { kind: 'unknown', reason: 'not read yet', summary: '' } }),
      row(2, { retentionRisk: atRisk(3_600_000) }),
      row(3, { retentionRisk: { kind: 'lost', fromOffset: '1', toOffset: '5', count: '5', summary: '' } }),
      row(4, { retentionRisk: atRisk(60_000) }),
    ];
    expect(sortPartitions(risky, { key: 'retention', descending: true }).map((p) => p.partition)).toEqual([
      3, 4, 2, 1, 0,
    ]);
    expect(sortPartitions(risky, { key: 'retention', descending: false }).map((p) => p.partition)).toEqual([
      0, 1, 2, 4, 3,
    ]);
  });
  it('sorts by partition number and does not change its input', () => {
    expect(order('partition', true)).toEqual([3, 2, 1, 0]);
    expect(rows.map((p) => p.partition)).toEqual([0, 1, 2, 3]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TopicRetentionSettings } from '../lag/retention-risk';
import { analyzeGroup, partitionKey, type LatestPartitionRow } from './group-analysis';
import type { SamplePoint } from './partition-analysis';
import {
  clockText,
  deadlineIfUnread,
  deletionWindowText,
  isAcknowledged,
  lossSummary,
  partitionRetentionRisk,
  recordLossJson,
  retentionRiskJson,
  soonestDeletion,
  type LossEpisode,
} from './retention';

const HOUR = 3_600_000;
const MIN = 60_000;
const NOW = Date.parse('2026-12-07T12:00:00.000Z');

const threeHours: TopicRetentionSettings = {
  cleanupPolicy: 'delete',
  retentionMs: 3 * HOUR,
  retentionBytes: -1,
  segmentMs: 30 * MIN,
  segmentBytes: 1_073_741_824,
  checkIntervalMs: 5 * MIN,
  recordBytes: null,
  readError: null,
};

const stopped = {
  committedOffset: 1_000n,
  logStartOffset: 0n,
  logEndOffset: 5_000n,
  timeLag: { ms: 20 * MIN, kind: 'exact' as const, basis: 'record-timestamp' as const },
  arrivalRatePerSec: 10,
  consumptionRatePerSec: 0,
};

const loss = (fields: Partial<LossEpisode> = {}): LossEpisode => ({
  id: 7n,
  topic: 'orders',
  partition: 4,
  fromOffset: 88_100n,
  toOffset: 89_303n,
  count: 1_204n,
  basis: 'below-log-start',
  detectedAt: new Date('2026-12-07T14:02:00.000Z'),
  updatedAt: new Date('2026-12-07T14:02:00.000Z'),
  endedAt: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
  acknowledgeReason: null,
  acknowledgedToOffset: null,
  ...fields,
});

describe('partitionRetentionRisk', () => {
  it('judges the partition by its resolved time lag and rates', () => {
    expect(partitionRetentionRisk(threeHours, stopped)).toMatchObject({
      kind: 'at-risk',
      earliestMs: 2 * HOUR + 40 * MIN,
      latestMs: 3 * HOUR + 15 * MIN,
    });
  });

  it('a topic with no stored settings is unknown, not read yet, where something is unread', () => {
    expect(partitionRetentionRisk(undefined, stopped)).toEqual({ kind: 'unknown', reason: 'not read yet' });
    expect(partitionRetentionRisk(undefined, { ...stopped, committedOffset: 5_000n })).toEqual({ kind: 'caught-up' });
  });

  it('the deadline if nothing more is read: ageing one second per second', () => {
    // Read at half the arrival rate, the window is twice as far; unread, it is the stopped group's.
    expect(partitionRetentionRisk(threeHours, { ...stopped, consumptionRatePerSec: 5 })).toMatchObject({
      earliestMs: 2 * (2 * HOUR + 40 * MIN),
    });
    expect(deadlineIfUnread(threeHours, { ...stopped, consumptionRatePerSec: 5 })).toEqual({
      earliestMs: 2 * HOUR + 40 * MIN,
    });
    expect(deadlineIfUnread(threeHours, { ...stopped, committedOffset: 5_000n })).toBeNull();
    expect(deadlineIfUnread({ ...threeHours, retentionMs: -1 }, stopped)).toBeNull();
  });
});

describe('retentionRiskJson', () => {
  const ref = { topic: 'orders', partition: 4 };

  it('an at-risk window: ms from the round, times, and the sentence', () => {
    const json = retentionRiskJson(partitionRetentionRisk(threeHours, stopped), ref, NOW);
    expect(json).toMatchObject({
      kind: 'at-risk',
      earliestMs: 9_600_000,
      latestMs: 11_700_000,
      earliestAt: '2026-12-07T14:40:00.000Z',
      latestAt: '2026-12-07T15:15:00.000Z',
      rules: ['time'],
      summary: 'In 2 h 40 min to 3 h 15 min records of orders-4 start being deleted unread',
    });
  });

  it('bigints as strings, and a sentence for every kind', () => {
    expect(
      retentionRiskJson({ kind: 'lost', fromOffset: 88_100n, toOffset: 89_303n, count: 1_204n }, ref, NOW),
    ).toEqual({
      kind: 'lost',
      fromOffset: '88100',
      toOffset: '89303',
      count: '1204',
      summary: '1,204 records (offsets 88,100–89,303) were deleted unread: the committed offset is below the log start',
    });
    expect(retentionRiskJson({ kind: 'unknown', reason: 'not read yet' }, ref, NOW)).toEqual({
      kind: 'unknown',
      reason: 'not read yet',
      summary: 'retention risk unknown: not read yet',
    });
    expect(
      retentionRiskJson({ kind: 'keeping-pace', oldestUnreadAgeMs: 20 * MIN, retentionMs: 3 * HOUR }, ref, NOW).summary,
    ).toBe('keeping pace: its oldest unread record is 20 min old of 3 h retention');
  });

  it('says what it knows of an open-ended window', () => {
    expect(deletionWindowText('orders-4', 0, null)).toBe('records of orders-4 can be deleted unread at any moment');
    expect(deletionWindowText('orders-4', null, 2 * HOUR)).toBe(
      'by 2 h at the latest records of orders-4 start being deleted unread',
    );
    expect(deletionWindowText('orders-4', HOUR, null)).toBe(
      'in 1 h or later records of orders-4 start being deleted unread',
    );
  });
});

describe('soonestDeletion', () => {
  it('picks the partition that can go first, an unknown lower bound counted by its upper one', () => {
    const at = (earliestMs: number | null, latestMs: number | null) => ({
      kind: 'at-risk' as const,
      earliestMs,
      latestMs,
      rules: ['time' as const],
      basis: '',
      alsoCompacted: false,
    });
    const soonest = soonestDeletion(
      [
        { topic: 't', partition: 0, risk: at(2 * HOUR, 3 * HOUR) },
        { topic: 't', partition: 1, risk: at(null, HOUR) },
        { topic: 't', partition: 2, risk: { kind: 'caught-up' } },
      ],
      NOW,
    );
    expect(soonest).toMatchObject({ topic: 't', partition: 1, earliestMs: null, latestAt: '2026-12-07T13:00:00.000Z' });
    expect(soonestDeletion([{ topic: 't', partition: 2, risk: { kind: 'caught-up' } }], NOW)).toBeNull();
  });
});

describe('record losses', () => {
  it('reads as the page says it', () => {
    expect(lossSummary(loss(), Date.parse('2026-12-07T15:00:00.000Z'))).toBe(
      '1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC',
    );
    expect(lossSummary(loss({ count: 1n, toOffset: 88_100n }), Date.parse('2026-12-08T01:00:00.000Z'))).toBe(
      '1 record (offset 88,100) deleted unread, first seen 2026-12-07 14:02 UTC',
    );
    expect(clockText(new Date('2026-12-07T09:05:00.000Z'), NOW)).toBe('09:05 UTC');
  });

  it('is acknowledged until the sampler extends it past the offset acknowledged', () => {
    expect(isAcknowledged(loss())).toBe(false);
    const acked = loss({ acknowledgedAt: new Date(NOW), acknowledgedBy: 'alice', acknowledgedToOffset: 89_303n });
    expect(isAcknowledged(acked)).toBe(true);
    expect(isAcknowledged({ ...acked, toOffset: 89_400n, count: 1_301n })).toBe(false);
    expect(recordLossJson({ ...acked, toOffset: 89_400n }, NOW)).toMatchObject({
      id: '7',
      acknowledged: false,
      acknowledgedBy: 'alice',
      acknowledgedToOffset: '89303',
      open: true,
    });
  });
});

describe('analyzeGroup with retention and losses', () => {
  const history: SamplePoint[] = Array.from({ length: 12 }, (_, i) => ({
    atMs: NOW - (11 - i) * 5_000,
    committedOffset: 1_000,
    logEndOffset: 5_000 + i * 50,
  }));
  const row = (partition: number): LatestPartitionRow => ({
    topic: 'orders',
    partition,
    committedOffset: 1_000n,
    logStartOffset: 0n,
    logEndOffset: 5_550n,
    lag: 4_550n,
    memberClientId: 'c',
    memberHost: 'h',
    timeLagMs: 20 * MIN,
    timeLagKind: 'interpolated',
    exactTimeLagMs: null,
    arrivalRatePerSec: 10,
    consumptionRatePerSec: 0,
  });
  const input = (losses: LossEpisode[], retention = new Map([['orders', threeHours]])) => ({
    rows: [row(0), row(4)],
    history: new Map([
      [partitionKey(row(0)), history],
      [partitionKey(row(4)), history],
    ]),
    quarantined: [],
    timeLagObjectiveMs: null,
    rateWindowMs: 60_000,
    nowMs: NOW,
    groupState: 'Stable',
    retention,
    losses,
  });

  it('a partition with an unacknowledged loss is LOST, louder than its STOP, and so is the group', () => {
    const analysis = analyzeGroup(input([loss()]));
    const [p0, p4] = analysis.partitions;
    expect(p0!.status).toBe('STOP');
    expect(p4!.status).toBe('LOST');
    expect(p4!.evaluation.status).toBe('STOP');
    expect(p4!.statusReason).toBe('1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC');
    expect(analysis.status.status).toBe('LOST');
    expect(analysis.status.reasons[0]).toBe(
      'orders-4 LOST: 1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC',
    );
    expect(analysis.status.reasons[1]).toMatch(/^orders-0 STOP: /);
    expect(analysis.unacknowledgedLosses.map((l) => l.id)).toEqual([7n]);
  });

  it('an acknowledged loss leaves Burrow status as it is; a loss of a partition not in the round still counts', () => {
    const acked = loss({ acknowledgedAt: new Date(NOW), acknowledgedBy: 'a', acknowledgedToOffset: 89_303n });
    expect(analyzeGroup(input([acked])).status.status).toBe('ERR');
    const elsewhere = analyzeGroup(input([loss({ topic: 'payments', partition: 1 })]));
    expect(elsewhere.partitions.map((p) => p.status)).toEqual(['STOP', 'STOP']);
    expect(elsewhere.status.status).toBe('LOST');
    expect(elsewhere.status.reasons[0]).toMatch(/^payments-1 LOST: 1,204 records/);
  });

  it('gives every partition its retention risk and the group its soonest deletion; a topic not read is unknown', () => {
    const analysis = analyzeGroup(input([]));
    expect(analysis.partitions[0]!.retentionRisk).toMatchObject({ kind: 'at-risk', earliestMs: 2 * HOUR + 40 * MIN });
    expect(analysis.retentionAtRiskPartitions).toBe(2);
    expect(analysis.soonestDeletion).toMatchObject({ topic: 'orders', partition: 0, earliestMs: 9_600_000 });
    const unread = analyzeGroup(input([], new Map()));
    expect(unread.partitions[0]!.retentionRisk).toEqual({ kind: 'unknown', reason: 'not read yet' });
    expect(unread.retentionUnknownPartitions).toBe(2);
    expect(unread.soonestDeletion).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { TRetentionRisk } from '@/lib/schemas/groups';
import type { TRecordLoss } from '@/lib/schemas/record-losses';
import {
  acknowledgementText,
  deletionWindowShort,
  groupDigits,
  lossStateText,
  retentionCell,
  retentionSortValue,
  retentionVerdictText,
  soonestDeletionText,
  willBeLostText,
} from './retention-text';

const H = 3_600_000;
const MIN = 60_000;

const atRisk = (earliestMs: number | null, latestMs: number | null): TRetentionRisk => ({
  kind: 'at-risk',
  earliestMs,
  latestMs,
  earliestAt: null,
  latestAt: null,
  rules: ['time'],
  basis: 'time retention: oldest unread record 20 min old of 3 h',
  alsoCompacted: false,
  summary: 'In 2 h 40 min to 3 h 10 min records of orders-4 start being deleted unread',
});

describe('deletionWindowShort', () => {
  it('says from when and by when the oldest unread record is deleted', () => {
    expect(deletionWindowShort(2 * H + 40 * MIN, 3 * H + 10 * MIN)).toBe(
      'deleted from 2 h 40 min, at the latest 3 h 10 min',
    );
    expect(deletionWindowShort(20 * MIN, null)).toBe('deleted from 20 min');
    expect(deletionWindowShort(null, 55 * MIN)).toBe('deleted at the latest 55 min');
    expect(deletionWindowShort(null, null)).toBe('at risk, when not known');
  });
  it('says one time when both bounds read the same', () => {
    expect(deletionWindowShort(3 * H, 3 * H + 1_000)).toBe('deleted in about 3 h');
    expect(deletionWindowShort(20 * MIN, 20 * MIN + 10_000)).toBe('deleted from 20 min, at the latest 20 min 10 s');
  });
  it('says now once the record is old enough to go, and once even the latest bound passed', () => {
    expect(deletionWindowShort(0, 30 * MIN)).toBe('deletable now, at the latest 30 min');
    expect(deletionWindowShort(0, null)).toBe('deletable now');
    expect(deletionWindowShort(0, 0)).toBe('being deleted now');
  });
});

describe('retentionCell', () => {
  it('marks an at-risk partition, louder once deletion can start at any moment', () => {
    const cell = retentionCell(atRisk(2 * H + 40 * MIN, 3 * H + 10 * MIN));
    expect(cell).toMatchObject({ text: 'deleted from 2 h 40 min, at the latest 3 h 10 min', tone: 'warn' });
    expect(cell.title).toBe(
      'In 2 h 40 min to 3 h 10 min records of orders-4 start being deleted unread. Time retention: oldest unread record 20 min old of 3 h.',
    );
    expect(retentionCell(atRisk(0, H)).tone).toBe('bad');
    expect(retentionCell({ ...atRisk(H, 2 * H), alsoCompacted: true } as TRetentionRisk).title).toMatch(
      /also compacted/,
    );
  });
  it('says unknown with its reason in the title, never quiet', () => {
    expect(
      retentionCell({ kind: 'unknown', reason: 'not read yet', summary: 'retention risk unknown: not read yet' }),
    ).toEqual({ text: 'unknown', tone: 'unknown', title: 'Retention risk unknown: not read yet' });
  });
  it('counts lost records', () => {
    const lost = (count: string): TRetentionRisk => ({
      kind: 'lost',
      fromOffset: '800',
      toOffset: '899',
      count,
      summary: `${count} records (offsets 800–899) were deleted unread: the committed offset is below the log start`,
    });
    expect(retentionCell(lost('1204'))).toMatchObject({ text: 'lost: 1,204 records', tone: 'bad' });
    expect(retentionCell(lost('1')).text).toBe('lost: 1 record');
  });
  it('is quiet for what retention cannot harm', () => {
    const quiet: TRetentionRisk[] = [
      { kind: 'caught-up', summary: 'nothing unread' },
      { kind: 'not-committed', summary: 'never committed: nothing read yet, nothing to lose' },
      { kind: 'unlimited', summary: 'the topic keeps records without a time or size limit' },
      { kind: 'compacted', summary: 'compacted: records are replaced' },
      { kind: 'keeping-pace', oldestUnreadAgeMs: 1_000, retentionMs: H, summary: 'keeping pace' },
    ];
    expect(quiet.map((r) => [retentionCell(r).text, retentionCell(r).tone])).toEqual([
      ['caught up', 'quiet'],
      ['nothing read', 'quiet'],
      ['no limit', 'quiet'],
      ['compacted', 'quiet'],
      ['keeping pace', 'quiet'],
    ]);
    expect(retentionCell(quiet[0]!).title).toBe('Nothing unread');
  });
});

describe('retentionSortValue', () => {
  it('orders lost, then at risk soonest first (unbounded last of them), then unknown, then the rest', () => {
    const risks: Array<[string, TRetentionRisk]> = [
      ['quiet', { kind: 'caught-up', summary: '' }],
      ['later', atRisk(3 * H, 4 * H)],
      ['unknown', { kind: 'unknown', reason: 'x', summary: '' }],
      ['lost', { kind: 'lost', fromOffset: '1', toOffset: '2', count: '2', summary: '' }],
      ['unbounded', atRisk(null, null)],
      ['sooner', atRisk(20 * MIN, H)],
      ['only-latest', atRisk(null, 2 * H)],
    ];
    const order = [...risks].sort((a, b) => retentionSortValue(b[1]) - retentionSortValue(a[1])).map(([n]) => n);
    expect(order).toEqual(['lost', 'sooner', 'only-latest', 'later', 'unbounded', 'unknown', 'quiet']);
  });
});

describe('soonestDeletionText', () => {
  const soonest = { topic: 'orders', partition: 4, earliestAt: null, latestAt: null, summary: '' };
  it('names the partition and the earliest deletion', () => {
    expect(soonestDeletionText({ ...soonest, earliestMs: 3 * H + 10 * MIN, latestMs: 4 * H })).toBe(
      'orders-4 in 3 h 10 min',
    );
    expect(soonestDeletionText({ ...soonest, earliestMs: 0, latestMs: H })).toBe('orders-4 now');
    expect(soonestDeletionText({ ...soonest, earliestMs: null, latestMs: H })).toBe('orders-4 by 1 h');
    expect(soonestDeletionText({ ...soonest, earliestMs: null, latestMs: null })).toBe('orders-4, when not known');
  });
});

describe('loss texts', () => {
  const loss: TRecordLoss = {
    id: '7',
    topic: 'orders',
    partition: 4,
    fromOffset: '88100',
    toOffset: '89303',
    count: '1204',
    basis: 'below-log-start',
    detectedAt: '2026-12-07T14:02:00.000Z',
    updatedAt: '2026-12-07T14:05:00.000Z',
    endedAt: null,
    open: true,
    acknowledged: false,
    acknowledgedBy: null,
    acknowledgedAt: null,
    acknowledgeReason: null,
    acknowledgedToOffset: null,
    summary: '1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC',
  };
  it('says whether the episode is open or when it ended', () => {
    expect(lossStateText(loss, 'utc')).toBe('open: the committed offset is still below the log start');
    expect(lossStateText({ open: false, endedAt: '2026-12-07T14:10:02.000Z' }, 'utc')).toBe(
      'ended 2026-12-07 14:10:02',
    );
  });
  it('says who acknowledged, when and why, and when more records were lost since', () => {
    expect(acknowledgementText(loss, 'utc')).toBeNull();
    const acknowledged = {
      ...loss,
      acknowledged: true,
      acknowledgedBy: 'alice',
      acknowledgedAt: '2026-12-07T14:20:00.000Z',
      acknowledgeReason: 'replayed from the producer',
      acknowledgedToOffset: '89303',
    };
    expect(acknowledgementText(acknowledged, 'utc')).toBe(
      'acknowledged by alice at 2026-12-07 14:20:00: replayed from the producer',
    );
    expect(acknowledgementText({ ...acknowledged, acknowledged: false }, 'utc')).toBe(
      'acknowledged by alice at 2026-12-07 14:20:00 up to offset 89,303; more records were lost since, so it needs acknowledging again',
    );
  });
  it('groups digits exactly at any size', () => {
    expect(groupDigits('9223372036854775807')).toBe('9,223,372,036,854,775,807');
    expect(groupDigits('999')).toBe('999');
  });
});

describe("the capacity plan's retention verdict", () => {
  it('says how many consumers finish before deletion, or that none can', () => {
    expect(retentionVerdictText({ state: 'in-time', consumers: 3 })).toBe(
      '3 consumers read everything at risk before deletion',
    );
    expect(retentionVerdictText({ state: 'finish-first', consumers: 5 })).toBe(
      '5 consumers needed to finish before deletion',
    );
    expect(retentionVerdictText({ state: 'none-can', consumers: 12 })).toBe(
      'no consumer count finishes first: records will be lost',
    );
    expect(retentionVerdictText({ state: 'not-planned', consumers: null })).toMatch(/^no plan/);
  });
  it('says which records will go, from when and how fast', () => {
    const p = {
      topic: 'orders',
      partition: 4,
      fromOffset: '88100',
      startsAt: '2026-12-07T14:02:00.000Z',
      perMinute: 600,
    };
    expect(willBeLostText(p, 'utc')).toBe(
      'orders-4 from offset 88,100, starting 2026-12-07 14:02:00, about 600 a minute',
    );
    expect(willBeLostText({ ...p, fromOffset: null, startsAt: null, perMinute: null }, 'utc')).toBe(
      'orders-4, when not known',
    );
  });
});

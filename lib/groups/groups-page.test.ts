import { describe, expect, it } from 'vitest';
import type { TGroupStatus, TGroupSummary } from '../schemas/groups';
import { compareBytes, groupComparator, groupsPageRequest, OVERVIEW_STATUS_REASONS, pageGroups } from './groups-page';

function group(
  groupId: string,
  status: TGroupStatus,
  fields: {
    ms?: number | null;
    totalLag?: number;
    cluster?: string;
    quarantined?: number;
    rebalanceAt?: string;
    reasons?: string[];
  } = {},
): TGroupSummary {
  return {
    cluster: fields.cluster ?? 'default',
    groupId,
    state: 'Stable',
    protocol: null,
    sampledAt: '2026-12-02T10:00:00.000Z',
    status,
    statusReasons: fields.reasons ?? [],
    statusReasonCount: fields.reasons?.length ?? 0,
    commitSource: null,
    totalLag: fields.totalLag ?? 0,
    partitionsWithoutCommit: 0,
    partitionCount: 1,
    members: 1,
    worstTimeLag:
      fields.ms === undefined || fields.ms === null
        ? null
        : { ms: fields.ms, kind: 'interpolated', basis: 'sampler', topic: 't', partition: 0 },
    quarantinedPartitions: fields.quarantined ?? 0,
    soonestDeletion: null,
    retentionAtRiskPartitions: 0,
    retentionUnknownPartitions: 0,
    unacknowledgedLosses: status === 'LOST' ? 1 : 0,
    lastRebalance: fields.rebalanceAt
      ? { startedAt: fields.rebalanceAt, durationMs: 10, durationIsBound: false }
      : null,
    trend: [],
  };
}

const ids = (groups: readonly TGroupSummary[]) => groups.map((g) => `${g.cluster}/${g.groupId}`);

const fleet = [
  group('ok-small', 'OK', { ms: 1_000, totalLag: 5 }),
  group('ok-old', 'OK', { ms: 90_000, totalLag: 1, rebalanceAt: '2026-12-02T09:00:00.000Z' }),
  group('err', 'ERR', { totalLag: 0 }),
  group('ok-unknown', 'OK', { totalLag: 500 }),
  group('quarantined', 'QUARANTINED', { ms: 10, totalLag: 1, quarantined: 2 }),
  group('warn', 'WARN', { ms: 5, totalLag: 1, rebalanceAt: '2026-12-02T09:30:00.000Z' }),
  group('warn', 'WARN', { ms: 5, totalLag: 1, cluster: 'eu' }),
];

const page = (query: Parameters<typeof groupsPageRequest>[1], clusters = ['default', 'eu']) =>
  pageGroups(fleet, groupsPageRequest(clusters, query));

describe('pageGroups', () => {
  it('orders worst first: status, worst time lag (unknown last), total lag, then cluster and id', () => {
    expect(ids(page({}).groups)).toEqual([
      'default/err',
      'default/quarantined',
      'default/warn',
      'eu/warn',
      'default/ok-old',
      'default/ok-small',
      'default/ok-unknown',
    ]);
  });

  it('puts LOST before ERR, counts it as a facet and filters by it', () => {
    const withLost = [...fleet, group('lost', 'LOST', { ms: 1 })];
    const all = pageGroups(withLost, groupsPageRequest(['default', 'eu'], {}));
    expect(ids(all.groups).slice(0, 2)).toEqual(['default/lost', 'default/err']);
    expect(all.counts).toEqual({ LOST: 1, ERR: 1, QUARANTINED: 1, WARN: 2, OK: 3 });
    expect(ids(pageGroups(withLost, groupsPageRequest(['default', 'eu'], { status: 'LOST' })).groups)).toEqual([
      'default/lost',
    ]);
  });

  it('reversing the worst-first order reverses it whole', () => {
    expect(ids(page({ order: 'reversed' }).groups)).toEqual(ids(page({}).groups).reverse());
  });

  it('another order falls back to worst first on ties, whichever direction it runs', () => {
    expect(ids(page({ sort: 'totalLag' }).groups).slice(0, 2)).toEqual(['default/ok-unknown', 'default/ok-small']);
    // Total lag 1 four times: worst first among them, in both directions.
    expect(ids(page({ sort: 'totalLag' }).groups).slice(2, 6)).toEqual([
      'default/quarantined',
      'default/warn',
      'eu/warn',
      'default/ok-old',
    ]);
    expect(ids(page({ sort: 'totalLag', order: 'reversed' }).groups).slice(1, 5)).toEqual([
      'default/quarantined',
      'default/warn',
      'eu/warn',
      'default/ok-old',
    ]);
    expect(ids(page({ sort: 'rebalance' }).groups).slice(0, 2)).toEqual(['default/warn', 'default/ok-old']);
    expect(ids(page({ sort: 'quarantined' }).groups)[0]).toBe('default/quarantined');
    expect(ids(page({ sort: 'group' }).groups)).toEqual([
      'default/err',
      'default/ok-old',
      'default/ok-small',
      'default/ok-unknown',
      'default/quarantined',
      'default/warn',
      'eu/warn',
    ]);
    expect(ids(page({ sort: 'cluster', order: 'reversed' }).groups)[0]).toBe('eu/warn');
  });

  it('filters by a case-insensitive part of the id and by status; facets ignore only the status filter', () => {
    const named = page({ q: '  OK-', status: 'OK' });
    expect(ids(named.groups)).toEqual(['default/ok-old', 'default/ok-small', 'default/ok-unknown']);
    expect(named.total).toBe(3);
    expect(named.counts).toEqual({ LOST: 0, ERR: 0, QUARANTINED: 0, WARN: 0, OK: 3 });
    const warned = page({ status: 'WARN' });
    expect(warned.total).toBe(2);
    expect(warned.counts).toEqual({ LOST: 0, ERR: 1, QUARANTINED: 1, WARN: 2, OK: 3 });
    expect(warned.clusters).toEqual(['default', 'eu']);
  });

  it('pages with offset and limit over the whole ordered match, the total counting every match', () => {
    const all = ids(page({}).groups);
    expect(ids(page({ limit: 3 }).groups)).toEqual(all.slice(0, 3));
    expect(ids(page({ limit: 3, offset: 3 }).groups)).toEqual(all.slice(3, 6));
    const beyond = page({ limit: 3, offset: 100 });
    expect(beyond.groups).toEqual([]);
    expect(beyond.total).toBe(7);
  });

  it("keeps a row's most severe reasons only, and counts them all", () => {
    const reasons = Array.from({ length: OVERVIEW_STATUS_REASONS + 7 }, (_, i) => `t-${i} stopped`);
    const few = ['t-0 stopped', 't-1 stopped'];
    const rows = pageGroups(
      [group('wide', 'ERR', { reasons }), group('narrow', 'ERR', { reasons: few })],
      groupsPageRequest(['default'], {}),
    ).groups;
    expect(rows.map((r) => [r.groupId, r.statusReasons, r.statusReasonCount])).toEqual([
      ['narrow', few, 2],
      ['wide', reasons.slice(0, OVERVIEW_STATUS_REASONS), OVERVIEW_STATUS_REASONS + 7],
    ]);
  });
});

describe('compareBytes', () => {
  it("orders as Postgres's C collation does: UTF-8 bytes, so upper case before lower and astral after U+FFFD", () => {
    expect(['b', 'a', 'B', '_'].sort(compareBytes)).toEqual(['B', '_', 'a', 'b']);
    // UTF-16 code units would put the astral character (a surrogate pair, 0xD83D...) before U+FFFD.
    expect(['\u{1F600}', '\uFFFD'].sort(compareBytes)).toEqual(['\uFFFD', '\u{1F600}']);
    expect(groupComparator('group', false)(group('a', 'OK'), group('a', 'OK'))).toBe(0);
  });
});

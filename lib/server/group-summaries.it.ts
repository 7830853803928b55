import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { ZGroupsQuery, type TGroupsQueryInput } from '../schemas/groups';
import { listGroupsPage, refreshGroupSummaries, SYNC_REFRESH_GROUPS } from './group-summaries';
import { listGroups } from './list-groups';

// GET /api/groups on real Postgres: the summaries kept in group_summary, filtered, sorted and paged in SQL,
// must list what analysing every group on the spot (listGroups) lists, in the same order, and follow new
// rounds and quarantines. Each describe uses a cluster of its own, so other tests' groups never show.

let db: Database;
const EVERY_MS = 5_000;
const ROUNDS = 13;
const options = { timeLagObjectiveMs: null, rateWindowMs: 300_000 };

beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

/** `ROUNDS` rounds ending at `endMs` of a group with 2 partitions, each `lag` behind and keeping pace. */
async function seedGroup(cluster: string, groupId: string, lag: number, endMs: number, rounds = ROUNDS) {
  const data = [];
  for (let round = 0; round < rounds; round++) {
    const back = rounds - 1 - round;
    for (let partition = 0; partition < 2; partition++) {
      const logEnd = 1_000_000 - back * 100;
      data.push({
        cluster,
        sampledAt: new Date(endMs - back * EVERY_MS),
        groupId,
        topic: `${groupId}-topic`,
        partition,
        committedOffset: BigInt(logEnd - lag),
        logStartOffset: 0n,
        logEndOffset: BigInt(logEnd),
        lag: BigInt(lag),
        groupState: 'Stable',
        memberClientId: `c-${partition}`,
        memberHost: '/10.0.0.1',
      });
    }
  }
  await db.lagSample.createMany({ data });
}

async function quarantine(cluster: string, groupId: string) {
  await db.partitionQuarantine.create({
    data: {
      cluster,
      groupId,
      topic: `${groupId}-topic`,
      partition: 1,
      offset: 999_000n,
      reason: 'result key missing',
      errorClass: 'missing-result-key',
      since: new Date(),
      attempts: 0,
      recordHeaders: {},
    },
  });
}

const page = (cluster: string, query: TGroupsQueryInput = {}, now = Date.now()) =>
  listGroupsPage(db, [cluster], ZGroupsQuery.parse(query), { ...options, now: new Date(now) });
const ids = (groups: Array<{ groupId: string }>) => groups.map((g) => g.groupId);

describe('the overview from group_summary', () => {
  const cluster = `sum-${randomUUID().slice(0, 8)}`;
  const endMs = Date.now() - 2_000;
  // Names with LIKE's wildcards: the text filter must match them literally.
  const lags: Record<string, number> = {
    'alpha-orders': 50,
    beta_payments: 900,
    'gamma%clicks': 10,
    'delta-orders': 400,
    'epsilon-audit': 0,
  };
  const held = 'zeta-held';

  beforeAll(async () => {
    for (const [groupId, lag] of Object.entries(lags)) await seedGroup(cluster, groupId, lag, endMs);
    await seedGroup(cluster, held, 5, endMs);
    await quarantine(cluster, held);
  });

  it('lists what listGroups lists, worst first, with the totals', async () => {
    const direct = await listGroups(db, [cluster], { ...options, now: new Date(endMs + 1_000) });
    const listed = await page(cluster);
    expect(ids(listed.groups)).toEqual(ids(direct.groups));
    expect(listed.groups).toEqual(direct.groups);
    expect(listed.groups[0]?.groupId).toBe(held);
    expect(listed.page).toEqual({ number: 1, size: 100, total: 6 });
    expect(listed.groupCount).toBe(6);
    expect(listed.statusCounts.QUARANTINED).toBe(1);
    expect(Object.values(listed.statusCounts).reduce((a, b) => a + b, 0)).toBe(6);
    expect(listed.clusters).toContain(cluster);
    expect(listed.summarizedAt).not.toBeNull();
  });

  it('sorts by any key in SQL, both ways, and pages', async () => {
    const byLag = await page(cluster, { sort: 'totalLag' });
    const totals = byLag.groups.map((g) => g.totalLag);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(totals[0]).toBe(1_800);
    const reversed = await page(cluster, { sort: 'totalLag', order: 'reversed' });
    expect(reversed.groups.map((g) => g.totalLag)).toEqual([...totals].reverse());
    const byName = await page(cluster, { sort: 'group' });
    expect(ids(byName.groups)).toEqual([...ids(byName.groups)].sort());
    expect(ids(byName.groups)[0]).toBe('alpha-orders');

    const second = await page(cluster, { sort: 'totalLag', page: '2', pageSize: '2' });
    expect(ids(second.groups)).toEqual(ids(byLag.groups).slice(2, 4));
    expect(second.page).toEqual({ number: 2, size: 2, total: 6 });
    const past = await page(cluster, { page: '9', pageSize: '2' });
    expect(past.groups).toEqual([]);
    expect(past.page.total).toBe(6);
  });

  it('filters by status and by literal text; the chips count across statuses', async () => {
    const held_ = await page(cluster, { status: 'QUARANTINED' });
    expect(ids(held_.groups)).toEqual([held]);
    expect(held_.page.total).toBe(1);
    expect(held_.statusCounts.QUARANTINED).toBe(1);
    expect(Object.values(held_.statusCounts).reduce((a, b) => a + b, 0)).toBe(6);

    expect(ids((await page(cluster, { q: 'ORDERS', sort: 'group' })).groups)).toEqual(['alpha-orders', 'delta-orders']);
    // '_' and '%' are literal: 'a_p' matches beta_payments only, not every 'a?p'.
    expect(ids((await page(cluster, { q: 'a_p' })).groups)).toEqual(['beta_payments']);
    expect(ids((await page(cluster, { q: '%' })).groups)).toEqual(['gamma%clicks']);
    const none = await page(cluster, { q: 'no-such-group' });
    expect(none.groups).toEqual([]);
    expect(none.statusCounts).toEqual({ ERR: 0, QUARANTINED: 0, WARN: 0, OK: 0 });
    expect(none.groupCount).toBe(6);
  });

  it('follows a new round and a new quarantine of a small fleet on the next request', async () => {
    await page(cluster);
    // A newer round of alpha-orders, 5,000 behind per partition.
    await seedGroup(cluster, 'alpha-orders', 5_000, endMs + EVERY_MS, 1);
    await quarantine(cluster, 'epsilon-audit');
    const next = await page(cluster, { sort: 'totalLag' }, endMs + EVERY_MS + 1_000);
    expect(next.groups[0]).toMatchObject({ groupId: 'alpha-orders', totalLag: 10_000 });
    expect(next.groups.find((g) => g.groupId === 'epsilon-audit')).toMatchObject({
      status: 'QUARANTINED',
      quarantinedPartitions: 1,
    });
    expect(next.statusCounts.QUARANTINED).toBe(2);
  });

  it('drops a group whose newest round left the window', async () => {
    const later = endMs + 11 * 60_000;
    const listed = await page(cluster, {}, later);
    expect(listed.groups).toEqual([]);
    expect(await db.groupSummary.count({ where: { cluster } })).toBe(0);
  });
});

describe('a fleet round that changes more groups than a request waits for', () => {
  const cluster = `sum-${randomUUID().slice(0, 8)}`;
  const endMs = Date.now() - 2_000;
  const groups = Array.from({ length: SYNC_REFRESH_GROUPS + 10 }, (_, i) => `fleet-${String(i).padStart(3, '0')}`);

  it('waits for every group the first time, then answers from the rows while the recomputation runs', async () => {
    for (const g of groups) await seedGroup(cluster, g, 10, endMs, 2);
    const first = await page(cluster, { pageSize: '500' }, endMs + 1_000);
    expect(first.groups).toHaveLength(groups.length);
    expect(first.groups.every((g) => g.totalLag === 20)).toBe(true);

    for (const g of groups) await seedGroup(cluster, g, 70, endMs + EVERY_MS, 1);
    const now = endMs + EVERY_MS + 1_000;
    const during = await page(cluster, { pageSize: '500' }, now);
    expect(during.groups).toHaveLength(groups.length);
    // Served from the rows as they were: none waited for.
    expect(during.groups.filter((g) => g.totalLag === 140).length).toBeLessThan(groups.length);
    // The refresh the request started brings every row to the new round.
    await refreshGroupSummaries(db, cluster, options, now, { waitForAll: true });
    const after = await page(cluster, { pageSize: '500' }, now);
    expect(after.groups.map((g) => g.totalLag)).toEqual(groups.map(() => 140));
  });
});

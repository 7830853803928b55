import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../lib/db';
import { ZGroupStatus, type TGroupSummary, type TGroupsQuery } from '../../lib/schemas/groups';
import { GROUP_SORT_KEYS } from '../../lib/schemas/values';
import { groupsPageRequest, pageGroups } from '../../lib/groups/groups-page';
import { summarizeGroups } from '../../lib/groups/summarize-groups';
import { listGroups } from '../../lib/server/list-groups';
import { readSummaryPage, summaryFreshness } from '../../lib/groups/stored-group-summaries';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { seededRandom } from '../../test-support/seeded-random';
import { recordGroupSummaries } from './record-group-summaries';

// The overview's stored rows on the real Postgres: what the evaluation writes, read back sorted, filtered and
// paged in SQL, must be the page the in-memory path gives for the same groups, in every order.

const NOW = Date.parse('2026-12-02T10:00:00.000Z');
const SINCE = new Date(NOW - 10 * 60_000);

/** `count` summaries with colliding statuses, lags and names (case, punctuation, non-ASCII) to stress ties. */
function generatedSummaries(cluster: string, count: number, seed: number): TGroupSummary[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const names = ['orders', 'Orders', 'billing', 'é-mails', 'zeta', '_internal', 'a.b', 'ünicode', 'x'];
  return Array.from({ length: count }, (_, i) => {
    // Up to twice as many reasons as an overview row keeps, so both paths must cap them alike.
    const reasons = Array.from({ length: Math.floor(random() * 11) }, (_, k) => `reason ${k} of ${i}`);
    return {
      cluster,
      groupId: `${pick(names)}-${i % 7}-${i}`,
      state: 'Stable',
      protocol: 'range',
      sampledAt: new Date(NOW - Math.floor(random() * 20) * 60_000).toISOString(),
      status: pick(ZGroupStatus.options),
      statusReasons: reasons,
      statusReasonCount: reasons.length,
      commitSource: 'sampled',
      totalLag: pick([0, 1, 5, 5, 1_000, 2 ** 40]),
      partitionsWithoutCommit: 0,
      partitionCount: 3,
      members: 1,
      worstTimeLag:
        random() < 0.3
          ? null
          : { ms: pick([0, 10, 10, 60_000]), kind: 'exact', basis: 'sampler', topic: 't', partition: 0 },
      quarantinedPartitions: pick([0, 0, 1, 2]),
      soonestDeletion: null,
      retentionAtRiskPartitions: 0,
      retentionUnknownPartitions: pick([0, 3]),
      unacknowledgedLosses: 0,
      lastRebalance:
        random() < 0.4
          ? null
          : {
              startedAt: new Date(NOW - pick([1, 1, 2, 3]) * 60_000).toISOString(),
              durationMs: 100,
              durationIsBound: false,
            },
      trend: [{ at: new Date(NOW).toISOString(), totalLag: 4 }],
    };
  });
}

const key = (g: TGroupSummary) => `${g.cluster}/${g.groupId}`;

describe('recordGroupSummaries and the stored-summary page', () => {
  let db: Database;

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  it('reads the same page in SQL as in memory for every order, direction, filter and page', async () => {
    const clusters = [uniqueName('east'), uniqueName('west')];
    const all = [...generatedSummaries(clusters[0]!, 120, 7), ...generatedSummaries(clusters[1]!, 80, 11)];
    await recordGroupSummaries(
      db,
      clusters[0]!,
      all.filter((g) => g.cluster === clusters[0]),
      new Date(NOW),
    );
    await recordGroupSummaries(
      db,
      clusters[1]!,
      all.filter((g) => g.cluster === clusters[1]),
      new Date(NOW),
    );
    // The live path lists only recently sampled groups; the stored path filters on sampled_at the same way.
    const listed = all.filter((g) => Date.parse(g.sampledAt) >= SINCE.getTime());

    const queries: TGroupsQuery[] = [];
    for (const sort of GROUP_SORT_KEYS)
      for (const order of ['natural', 'reversed'] as const) queries.push({ sort, order, limit: 40, offset: 20 });
    queries.push(
      {},
      { q: 'ORDERS' },
      { q: 'é-' },
      { status: 'WARN', sort: 'group' },
      { q: 'zeta', status: 'OK', limit: 3 },
    );
    queries.push({ limit: 1000, offset: 190 }, { q: 'no-such-group' });
    let compared = 0;
    for (const query of queries) {
      for (const scope of [clusters, [clusters[1]!]]) {
        const request = groupsPageRequest(scope, query);
        const inMemory = pageGroups(
          listed.filter((g) => scope.includes(g.cluster)),
          request,
        );
        const stored = await readSummaryPage(db, request, SINCE);
        expect(stored, JSON.stringify(query)).not.toBeNull();
        expect(stored!.groups.map(key), JSON.stringify(query)).toEqual(inMemory.groups.map(key));
        expect(stored!.total).toBe(inMemory.total);
        expect(stored!.counts).toEqual(inMemory.counts);
        expect(stored!.clusters).toEqual(inMemory.clusters);
        compared += stored!.groups.length;
      }
    }
    // The pages were not all empty: the comparison compared something.
    expect(compared).toBeGreaterThan(500);
    expect((await readSummaryPage(db, groupsPageRequest(clusters, {}), SINCE))!.groups).toEqual(
      pageGroups(listed, groupsPageRequest(clusters, {})).groups,
    );
  });

  it('replaces changed rows, deletes groups no longer listed, and keeps the rows while the sampler fails', async () => {
    const cluster = uniqueName('c');
    const [a, b] = generatedSummaries(cluster, 2, 3).map((g) => ({ ...g, sampledAt: new Date(NOW).toISOString() }));
    await recordGroupSummaries(db, cluster, [a!, b!], new Date(NOW));
    await recordGroupSummaries(db, cluster, [{ ...a!, totalLag: 77, status: 'ERR' }], new Date(NOW + 5_000));
    const after = await readSummaryPage(db, groupsPageRequest([cluster], {}), SINCE);
    expect(after!.groups.map((g) => [g.groupId, g.totalLag, g.status])).toEqual([[a!.groupId, 77, 'ERR']]);

    await recordGroupSummaries(db, cluster, null, new Date(NOW + 10_000));
    const round = await db.groupSummaryRound.findUniqueOrThrow({ where: { cluster } });
    expect(round.evaluatedAt.getTime()).toBe(NOW + 10_000);
    expect(round.summarizedAt.getTime()).toBe(NOW + 5_000);
    expect((await readSummaryPage(db, groupsPageRequest([cluster], {}), SINCE))!.total).toBe(1);
  });

  it('is current only while every asked-for cluster was evaluated within the bound', async () => {
    const [fresh, old, never] = [uniqueName('fresh'), uniqueName('old'), uniqueName('never')];
    await recordGroupSummaries(db, fresh, [], new Date(NOW));
    await recordGroupSummaries(db, old, [], new Date(NOW - 60_000));
    const bound = new Date(NOW - 15_000);
    expect(await summaryFreshness(db, [fresh], bound)).toEqual({ current: true, summarizedAt: new Date(NOW) });
    expect((await summaryFreshness(db, [fresh, old], bound)).current).toBe(false);
    expect(await summaryFreshness(db, [fresh, never], bound)).toEqual({ current: false, summarizedAt: null });
  });

  it('listGroups answers from the stored rows what the live analysis answers, and live once they are stale', async () => {
    const cluster = uniqueName('live');
    const groupIds = ['lagging', 'idle'].map((g) => uniqueName(g));
    await db.lagSample.createMany({
      data: groupIds.flatMap((groupId, g) =>
        [0, 1, 2].map((i) => ({
          cluster,
          sampledAt: new Date(NOW - (2 - i) * 5_000),
          groupId,
          topic: 't',
          partition: 0,
          committedOffset: BigInt(10 + i),
          logStartOffset: 0n,
          logEndOffset: BigInt(10 + i + (g === 0 ? 50 * (i + 1) : 0)),
          lag: BigInt(g === 0 ? 50 * (i + 1) : 0),
          groupState: 'Stable',
        })),
      ),
    });
    const options = { timeLagObjectiveMs: null, rateWindowMs: 60_000, summariesCurrentWithinMs: 15_000 };
    const now = new Date(NOW + 1_000);
    const live = await listGroups(db, [cluster], { sort: 'totalLag' }, { ...options, now });
    expect(live.source).toBe('live');
    expect(live.groups.map((g) => g.groupId)).toEqual(groupIds);

    await recordGroupSummaries(db, cluster, await summarizeGroups(db, [cluster], { ...options, now }), now);
    const stored = await listGroups(db, [cluster], { sort: 'totalLag' }, { ...options, now });
    expect(stored.source).toBe('summaries');
    expect(stored.summarizedAt).toBe(now.toISOString());
    expect({ ...stored, source: 'live', summarizedAt: null }).toEqual(live);

    const later = new Date(NOW + 60_000);
    expect((await listGroups(db, [cluster], {}, { ...options, now: later })).source).toBe('live');
  });

  it('a stored row that no longer fits the schema is not served: the page is analysed live', async () => {
    const cluster = uniqueName('shape');
    await recordGroupSummaries(
      db,
      cluster,
      generatedSummaries(cluster, 1, 5).map((g) => ({ ...g, sampledAt: new Date(NOW).toISOString() })),
      new Date(NOW),
    );
    await db.$executeRaw`UPDATE group_summary SET summary = '{"groupId": 3}'::jsonb WHERE cluster = ${cluster}`;
    expect(await readSummaryPage(db, groupsPageRequest([cluster], {}), SINCE)).toBeNull();
    const page = await listGroups(
      db,
      [cluster],
      {},
      {
        timeLagObjectiveMs: null,
        rateWindowMs: 60_000,
        summariesCurrentWithinMs: 15_000,
        now: new Date(NOW + 1_000),
      },
    );
    expect(page.source).toBe('live');
    // No samples exist for this cluster: live lists nothing rather than the broken row.
    expect(page.groups).toEqual([]);
  });
});

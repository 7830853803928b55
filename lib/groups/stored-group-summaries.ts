import type { Database } from '../db';
import { Prisma } from '../generated/prisma/client';
import { ZGroupStatus, ZGroupSummary, type TGroupSort, type TGroupSummary } from '../schemas/groups';
import { compareBytes, emptyStatusCounts, STATUS_RANK, type GroupsPageRequest } from './groups-page';

/**
 * group_summary holds the overview's row of every listed group of a cluster as the worker's evaluation
 * computed it after that cluster's newest round (worker/alerts/record-group-summaries.ts writes it). Reading a
 * page is then a sort over a few thousand narrow rows instead of an analysis of every partition's history.
 */

/** The sort columns of a summary; the writer stores them and groupsOrderBy sorts on them. */
export function summaryColumns(summary: TGroupSummary) {
  return {
    statusRank: STATUS_RANK[summary.status],
    worstTimeLagMs: summary.worstTimeLag?.ms ?? -1,
    totalLag: summary.totalLag,
    quarantinedPartitions: summary.quarantinedPartitions,
    lastRebalanceAt: summary.lastRebalance ? new Date(summary.lastRebalance.startedAt) : null,
  };
}

// The SQL twin of groups-page.ts's comparators (byte order under COLLATE "C" = compareBytes); a page read
// either way is the same page, which worker/alerts/record-group-summaries.it.ts checks for every order.
const WORST = [
  'status_rank ASC',
  'worst_time_lag_ms DESC',
  'total_lag DESC',
  'cluster COLLATE "C" ASC',
  'group_id COLLATE "C" ASC',
];
const PRIMARY: Record<Exclude<TGroupSort, 'worst'>, string> = {
  cluster: 'cluster COLLATE "C" ASC',
  group: 'group_id COLLATE "C" ASC',
  totalLag: 'total_lag DESC',
  timeLag: 'worst_time_lag_ms DESC',
  quarantined: 'quarantined_partitions DESC',
  rebalance: "coalesce(last_rebalance_at, '-infinity') DESC",
};

const flip = (term: string) => (term.endsWith(' ASC') ? `${term.slice(0, -4)} DESC` : `${term.slice(0, -5)} ASC`);

function groupsOrderBy(sort: TGroupSort, reversed: boolean): Prisma.Sql {
  const terms =
    sort === 'worst'
      ? WORST.map((t) => (reversed ? flip(t) : t))
      : [reversed ? flip(PRIMARY[sort]) : PRIMARY[sort], ...WORST];
  // Only the fixed strings above reach Prisma.raw.
  return Prisma.raw(`ORDER BY ${terms.join(', ')}`);
}

export interface SummaryFreshness {
  /** The oldest of the asked-for clusters' last stored summaries; null when one has none. */
  summarizedAt: Date | null;
  /** Whether every asked-for cluster's evaluation ran within the freshness bound. */
  current: boolean;
}

/** Whether the stored summaries of `clusters` may answer: every cluster's evaluation ran since `since`. */
export async function summaryFreshness(
  db: Database,
  clusters: readonly string[],
  since: Date,
): Promise<SummaryFreshness> {
  const rounds = await db.groupSummaryRound.findMany({ where: { cluster: { in: [...clusters] } } });
  const current =
    clusters.length > 0 && rounds.length === clusters.length && rounds.every((r) => r.evaluatedAt >= since);
  const summarizedAt =
    rounds.length === clusters.length && rounds.length > 0
      ? new Date(Math.min(...rounds.map((r) => r.summarizedAt.getTime())))
      : null;
  return { current, summarizedAt };
}

/**
 * One page of the stored summaries of groups sampled since `sampledSince`, with the totals pageGroups gives
 * the live path: matching count, per-status facets (every filter but the status), the clusters listed. Null
 * when a stored summary does not parse.
 */
export async function readSummaryPage(db: Database, request: GroupsPageRequest, sampledSince: Date) {
  const clusters = [...request.clusters];
  const nameMatches =
    request.needle === '' ? Prisma.sql`TRUE` : Prisma.sql`strpos(lower(group_id), ${request.needle}) > 0`;
  const statusMatches = request.status === null ? Prisma.sql`` : Prisma.sql`AND status = ${request.status}`;
  const limit = request.limit === null ? Prisma.sql`` : Prisma.sql`LIMIT ${request.limit}`;
  const [facets, rows] = await Promise.all([
    db.$queryRaw<Array<{ cluster: string; status: string; named: boolean; groups: number }>>`
      SELECT cluster, status, ${nameMatches} AS named, count(*)::int AS groups
      FROM group_summary
      WHERE cluster = ANY(${clusters}::text[]) AND sampled_at >= ${sampledSince}
      GROUP BY 1, 2, 3`,
    // The page is chosen first and only its rows' summaries are turned into text: a cast in the same
    // SELECT as the sort would detoast and convert every matching group's summary (86 ms at 2,000 groups,
    // against 10 ms this way).
    db.$queryRaw<Array<{ summary: string }>>`
      SELECT summary::text AS summary FROM (
        SELECT * FROM group_summary
        WHERE cluster = ANY(${clusters}::text[]) AND sampled_at >= ${sampledSince} AND ${nameMatches} ${statusMatches}
        ${groupsOrderBy(request.sort, request.reversed)} ${limit} OFFSET ${request.offset}
      ) AS page
      ${groupsOrderBy(request.sort, request.reversed)}`,
  ]);
  const counts = emptyStatusCounts();
  const listed = new Set<string>();
  for (const facet of facets) {
    const status = ZGroupStatus.safeParse(facet.status);
    // A status this dashboard does not know (a newer worker's): the caller answers live instead.
    if (!status.success) return null;
    listed.add(facet.cluster);
    if (facet.named) counts[status.data] += facet.groups;
  }
  const total = request.status === null ? Object.values(counts).reduce((a, b) => a + b, 0) : counts[request.status];
  const groups: TGroupSummary[] = [];
  for (const row of rows) {
    const parsed = ZGroupSummary.safeParse(JSON.parse(row.summary));
    // A summary an older or newer worker stored in another shape: the caller answers live instead.
    if (!parsed.success) return null;
    groups.push(parsed.data);
  }
  return { groups, total, counts, clusters: [...listed].sort(compareBytes) };
}

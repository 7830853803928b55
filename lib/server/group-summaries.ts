import type { Database } from '../db';
import { Prisma } from '../generated/prisma/client';
import {
  GROUPS_PAGE_SIZE_DEFAULT,
  ZGroupsResponse,
  ZGroupSummary,
  type TGroupSortKey,
  type TGroupsQuery,
  type TGroupsResponse,
  type TGroupStatus,
  type TGroupSummary,
} from '../schemas/groups';
import { SAMPLED_WITHIN_MS_DEFAULT, summarizeGroups, type ListGroupsOptions } from './list-groups';

// The overview at fleet size. Analysing a group needs minutes of its history (every partition's samples), so
// analysing 2,000 groups per request cannot answer in time. Instead each group's summary is kept in
// group_summary, one row per group, recomputed when the group has a newer round, a changed quarantine count
// or a rebalance that ended after the row was computed; GET /api/groups then filters, sorts and pages those
// rows in SQL.
//
// Freshness: a request first finds what changed (one scan of the recent rounds, the quarantine counts and the
// recent rebalances). When at most SYNC_REFRESH_GROUPS groups changed (a small deployment, or an ordinary
// round of a fleet whose groups are mostly idle) it waits for them, so the answer is as fresh as analysing
// every group would be. When more changed (the first request against a fleet, a busy round) the
// recomputation goes on in the background and the answer is the rows as they are: at most that one
// recomputation behind, and `summarizedAt` says how old. The very first request of a cluster with no rows
// waits for all of them. One refresh per cluster runs at a time in a process; a row is only ever replaced by
// one summarising the same or a newer round, so two dashboards refreshing at once cannot move a row back.

/** Changed groups a request waits for; more are recomputed in the background. */
export const SYNC_REFRESH_GROUPS = 50;
/** Groups analysed per read of their history (bounds the memory of one step). */
const CHUNK_GROUPS = 100;
/**
 * Rounds are looked for from this long before the newest summarised one: a round is inserted some time after
 * its sampled_at (the sampler's compute and write), so one sampled earlier may become visible later.
 */
const LATE_ROUND_MARGIN_MS = 30_000;

export type GroupSummaryOptions = Omit<ListGroupsOptions, 'now'>;

interface Refresh {
  /** Resolves with the number of groups to recompute once they are known. */
  planned: Promise<{ changed: number; firstRun: boolean }>;
  done: Promise<void>;
}

const refreshes = new Map<string, Refresh>();

/** The key of the settings a row was computed with; a row with another key is recomputed. */
export function analysisKey(options: GroupSummaryOptions): string {
  return JSON.stringify([
    options.timeLagObjectiveMs,
    options.rateWindowMs,
    options.historyMs ?? null,
    options.trendBuckets ?? null,
  ]);
}

/**
 * Brings `cluster`'s rows up to date (see the header for when it waits; `waitForAll` always waits). A refresh
 * already running for the cluster in this process is joined rather than repeated.
 */
export async function refreshGroupSummaries(
  db: Database,
  cluster: string,
  options: GroupSummaryOptions,
  nowMs: number,
  { waitForAll = false }: { waitForAll?: boolean } = {},
): Promise<void> {
  let refresh = refreshes.get(cluster);
  if (!refresh) {
    refresh = startRefresh(db, cluster, options, nowMs);
    refreshes.set(cluster, refresh);
    const started = refresh;
    void started.done.then(
      () => refreshes.delete(cluster),
      (error: unknown) => {
        refreshes.delete(cluster);
        console.error(`group summaries of cluster "${cluster}": refresh failed`, error);
      },
    );
  }
  const plan = await refresh.planned;
  if (waitForAll || plan.firstRun || plan.changed <= SYNC_REFRESH_GROUPS) await refresh.done;
}

function startRefresh(db: Database, cluster: string, options: GroupSummaryOptions, nowMs: number): Refresh {
  let resolvePlan!: (plan: { changed: number; firstRun: boolean }) => void;
  let rejectPlan!: (error: unknown) => void;
  const planned = new Promise<{ changed: number; firstRun: boolean }>((resolve, reject) => {
    resolvePlan = resolve;
    rejectPlan = reject;
  });
  const done = (async () => {
    let plan: { changed: string[]; firstRun: boolean };
    try {
      plan = await changedGroups(db, cluster, options, nowMs);
    } catch (error) {
      rejectPlan(error);
      throw error;
    }
    resolvePlan({ changed: plan.changed.length, firstRun: plan.firstRun });
    for (let i = 0; i < plan.changed.length; i += CHUNK_GROUPS) {
      const chunk = plan.changed.slice(i, i + CHUNK_GROUPS);
      const summaries = await summarizeGroups(db, cluster, new Date(nowMs), options, chunk);
      await storeSummaries(db, cluster, summaries, analysisKey(options), new Date(nowMs));
    }
  })();
  // A failed plan rejects `planned` for the waiting request; `done` is observed by refreshGroupSummaries.
  return { planned, done };
}

/** The groups of `cluster` whose row is missing or out of date; rows of groups gone from the window are deleted. */
async function changedGroups(
  db: Database,
  cluster: string,
  options: GroupSummaryOptions,
  nowMs: number,
): Promise<{ changed: string[]; firstRun: boolean }> {
  const windowStart = new Date(nowMs - (options.sampledWithinMs ?? SAMPLED_WITHIN_MS_DEFAULT));
  await db.groupSummary.deleteMany({ where: { cluster, sampledAt: { lt: windowStart } } });
  const stored = await db.groupSummary.findMany({
    where: { cluster },
    select: { groupId: true, sampledAt: true, analysisKey: true, quarantinedPartitions: true, computedAt: true },
  });
  const firstRun = stored.length === 0;
  const newestStored = Math.max(windowStart.getTime(), ...stored.map((s) => s.sampledAt.getTime()));
  const scanFrom = firstRun
    ? windowStart
    : new Date(Math.max(windowStart.getTime(), newestStored - LATE_ROUND_MARGIN_MS));
  const [rounds, quarantines, rebalances] = await Promise.all([
    db.$queryRaw<Array<{ group_id: string; sampled_at: Date }>>`
      SELECT group_id, max(sampled_at) AS sampled_at FROM lag_sample
      WHERE cluster = ${cluster} AND sampled_at >= ${scanFrom}
      GROUP BY group_id`,
    db.partitionQuarantine.groupBy({ by: ['groupId'], where: { cluster }, _count: { _all: true } }),
    db.$queryRaw<Array<{ group_id: string; ended_at: Date }>>`
      SELECT group_id, max(ended_at) AS ended_at FROM rebalance_event
      WHERE cluster = ${cluster} AND ended_at >= ${windowStart}
      GROUP BY group_id`,
  ]);
  const key = analysisKey(options);
  const byGroup = new Map(stored.map((s) => [s.groupId, s]));
  const quarantined = new Map(quarantines.map((q) => [q.groupId, q._count._all]));
  const rebalanced = new Map(rebalances.map((r) => [r.group_id, r.ended_at.getTime()]));
  const changed = new Set<string>();
  for (const round of rounds) {
    const row = byGroup.get(round.group_id);
    if (!row || round.sampled_at > row.sampledAt) changed.add(round.group_id);
  }
  for (const row of stored) {
    if (
      row.analysisKey !== key ||
      (quarantined.get(row.groupId) ?? 0) !== row.quarantinedPartitions ||
      (rebalanced.get(row.groupId) ?? 0) > row.computedAt.getTime()
    ) {
      changed.add(row.groupId);
    }
  }
  return { changed: [...changed], firstRun };
}

const STATUS_RANK: Record<TGroupStatus, number> = { ERR: 0, QUARANTINED: 1, WARN: 2, OK: 3 };

/** Upserts the rows in one statement; a row summarising a newer round than the one given is kept. */
async function storeSummaries(
  db: Database,
  cluster: string,
  summaries: readonly TGroupSummary[],
  key: string,
  computedAt: Date,
): Promise<void> {
  if (summaries.length === 0) return;
  const rows = summaries.map((s) => ({
    group_id: s.groupId,
    sampled_at: s.sampledAt,
    status: s.status,
    status_rank: STATUS_RANK[s.status],
    worst_time_lag_ms: s.worstTimeLag?.ms ?? -1,
    total_lag: s.totalLag,
    quarantined_partitions: s.quarantinedPartitions,
    last_rebalance_at: s.lastRebalance?.startedAt ?? null,
    summary: s,
  }));
  await db.$executeRaw`
    INSERT INTO group_summary (cluster, group_id, sampled_at, analysis_key, computed_at, status, status_rank,
      worst_time_lag_ms, total_lag, quarantined_partitions, last_rebalance_at, summary)
    SELECT ${cluster}, r.group_id, r.sampled_at, ${key}, ${computedAt}, r.status, r.status_rank, r.worst_time_lag_ms,
      r.total_lag, r.quarantined_partitions, r.last_rebalance_at, r.summary
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(group_id text, sampled_at timestamptz, status text,
      status_rank int, worst_time_lag_ms float8, total_lag float8, quarantined_partitions int,
      last_rebalance_at timestamptz, summary jsonb)
    ON CONFLICT (cluster, group_id) DO UPDATE SET
      sampled_at = EXCLUDED.sampled_at, analysis_key = EXCLUDED.analysis_key, computed_at = EXCLUDED.computed_at,
      status = EXCLUDED.status, status_rank = EXCLUDED.status_rank, worst_time_lag_ms = EXCLUDED.worst_time_lag_ms,
      total_lag = EXCLUDED.total_lag, quarantined_partitions = EXCLUDED.quarantined_partitions,
      last_rebalance_at = EXCLUDED.last_rebalance_at, summary = EXCLUDED.summary
    WHERE group_summary.sampled_at <= EXCLUDED.sampled_at`;
}

/** Worst first: status, worst time lag, total lag; then cluster and group, so every order is total. */
const WORST_FIRST = Prisma.sql`status_rank ASC, worst_time_lag_ms DESC, total_lag DESC, cluster ASC, group_id ASC`;

/** Each key's column in its natural direction, and reversed (NULLS move with the direction). */
const SORT_COLUMNS: Record<Exclude<TGroupSortKey, 'worst'>, { natural: Prisma.Sql; reversed: Prisma.Sql }> = {
  cluster: { natural: Prisma.sql`cluster ASC`, reversed: Prisma.sql`cluster DESC` },
  group: { natural: Prisma.sql`group_id ASC`, reversed: Prisma.sql`group_id DESC` },
  totalLag: { natural: Prisma.sql`total_lag DESC`, reversed: Prisma.sql`total_lag ASC` },
  timeLag: { natural: Prisma.sql`worst_time_lag_ms DESC`, reversed: Prisma.sql`worst_time_lag_ms ASC` },
  quarantined: { natural: Prisma.sql`quarantined_partitions DESC`, reversed: Prisma.sql`quarantined_partitions ASC` },
  rebalance: {
    natural: Prisma.sql`last_rebalance_at DESC NULLS LAST`,
    reversed: Prisma.sql`last_rebalance_at ASC NULLS FIRST`,
  },
};

const WORST_REVERSED = Prisma.sql`status_rank DESC, worst_time_lag_ms ASC, total_lag ASC, cluster DESC, group_id DESC`;

function orderBy(sort: TGroupSortKey, reversed: boolean): Prisma.Sql {
  if (sort === 'worst') return reversed ? WORST_REVERSED : WORST_FIRST;
  const column = SORT_COLUMNS[sort];
  return Prisma.sql`${reversed ? column.reversed : column.natural}, ${WORST_FIRST}`;
}

/** `text` as a literal ILIKE substring pattern (its % _ and \ match themselves). */
export function substringPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * GET /api/groups: the groups of `clusters` sampled within the window, filtered (status, text), sorted and
 * paged in SQL over group_summary after bringing each cluster's rows up to date.
 */
export async function listGroupsPage(
  db: Database,
  clusters: readonly string[],
  query: TGroupsQuery,
  options: GroupSummaryOptions & { now?: Date },
): Promise<TGroupsResponse> {
  const now = options.now ?? new Date();
  await Promise.all(clusters.map((cluster) => refreshGroupSummaries(db, cluster, options, now.getTime())));
  const windowStart = new Date(now.getTime() - (options.sampledWithinMs ?? SAMPLED_WITHIN_MS_DEFAULT));
  const page = query.page ?? 1;
  const size = query.pageSize ?? GROUPS_PAGE_SIZE_DEFAULT;
  const scope = Prisma.sql`cluster = ANY(${[...clusters]}::text[]) AND sampled_at >= ${windowStart}`;
  const text = query.q?.trim() ? Prisma.sql` AND group_id ILIKE ${substringPattern(query.q.trim())}` : Prisma.empty;
  const status = query.status ? Prisma.sql` AND status = ${query.status}` : Prisma.empty;
  const [rows, counts, clusterCounts] = await Promise.all([
    db.$queryRaw<Array<{ summary: unknown; computed_at: Date }>>`
      SELECT summary, computed_at FROM group_summary
      WHERE ${scope}${text}${status}
      ORDER BY ${orderBy(query.sort ?? 'worst', query.order === 'reversed')}
      LIMIT ${size} OFFSET ${(page - 1) * size}`,
    db.$queryRaw<Array<{ status: TGroupStatus; count: number }>>`
      SELECT status, count(*)::int AS count FROM group_summary WHERE ${scope}${text} GROUP BY status`,
    db.$queryRaw<Array<{ cluster: string; count: number; in_scope: boolean }>>`
      SELECT cluster, count(*)::int AS count, cluster = ANY(${[...clusters]}::text[]) AS in_scope
      FROM group_summary WHERE sampled_at >= ${windowStart} GROUP BY cluster ORDER BY cluster`,
  ]);
  const statusCounts = { ERR: 0, QUARANTINED: 0, WARN: 0, OK: 0 };
  for (const c of counts) statusCounts[c.status] = c.count;
  const total = query.status ? statusCounts[query.status] : counts.reduce((sum, c) => sum + c.count, 0);
  const oldest = rows.reduce<Date | null>((o, r) => (o === null || r.computed_at < o ? r.computed_at : o), null);
  return ZGroupsResponse.parse({
    generatedAt: now.toISOString(),
    summarizedAt: oldest?.toISOString() ?? null,
    groups: rows.map((r) => ZGroupSummary.parse(r.summary)),
    page: { number: page, size, total },
    statusCounts,
    groupCount: clusterCounts.filter((c) => c.in_scope).reduce((sum, c) => sum + c.count, 0),
    clusters: clusterCounts.map((c) => c.cluster),
  });
}

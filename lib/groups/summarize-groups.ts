import type { Database } from '../db';
import type { TGroupSummary } from '../schemas/groups';
import { analyzeRound, groupSummaryFields } from '../analysis/group-analysis';
import { lagTrend } from '../analysis/partition-analysis';
import { loadGroupRounds } from './load-group-rounds';
import { lastRebalanceSummary, loadLatestRebalances } from './load-rebalances';
import { compareWorstFirst } from './groups-page';

// The overview's analysis of every recently sampled group, shared by the dashboard (which answers with it
// when no worker's stored summaries are current) and the worker's alert evaluation (which stores it as the
// overview's rows and alerts on it), so an alert says exactly what the dashboard shows.

/** Groups not sampled within this are gone, and the history behind status, time lag and trend, by default. */
export const DEFAULT_WINDOW_MS = 10 * 60_000;

export interface ListGroupsOptions {
  timeLagObjectiveMs: number | null;
  rateWindowMs: number;
  now?: Date;
  /** Groups not sampled for this long are considered gone and omitted. Default 10 min. */
  sampledWithinMs?: number;
  /** History behind status, time lag and the trend. Default 10 min. */
  historyMs?: number;
  trendBuckets?: number;
}

/**
 * Every recently sampled group of `clusters` analysed from its samples (each cluster read on its own, as
 * every other read is), worst first: what the worker's evaluation stores and alerts on.
 */
export async function summarizeGroups(
  db: Database,
  clusters: readonly string[],
  options: ListGroupsOptions,
): Promise<TGroupSummary[]> {
  const now = options.now ?? new Date();
  const groups = (await Promise.all(clusters.map((cluster) => listClusterGroups(db, cluster, now, options)))).flat();
  return groups.sort(compareWorstFirst);
}

async function listClusterGroups(
  db: Database,
  cluster: string,
  now: Date,
  options: ListGroupsOptions,
): Promise<TGroupSummary[]> {
  const historyMs = options.historyMs ?? DEFAULT_WINDOW_MS;
  const rounds = await loadGroupRounds(db, {
    cluster,
    sampledWithinMs: options.sampledWithinMs ?? DEFAULT_WINDOW_MS,
    historyMs: Math.max(historyMs, options.rateWindowMs),
    nowMs: now.getTime(),
  });
  if (rounds.length === 0) return [];
  const groupIds = rounds.map((r) => r.groupId);

  const [quarantines, lastRebalances] = await Promise.all([
    db.partitionQuarantine.findMany({
      where: { cluster, groupId: { in: groupIds } },
      select: { groupId: true, topic: true, partition: true },
    }),
    loadLatestRebalances(db, cluster, groupIds),
  ]);

  return rounds.map((round): TGroupSummary => {
    const nowMs = round.sampledAt.getTime();
    const quarantined = quarantines.filter((q) => q.groupId === round.groupId);
    const analysis = analyzeRound(round, quarantined, options);
    return {
      ...groupSummaryFields(
        round,
        analysis,
        quarantined.length,
        lastRebalanceSummary(lastRebalances.get(round.groupId)),
      ),
      trend: lagTrend(round.rounds, nowMs - historyMs, nowMs + 1, options.trendBuckets ?? 30).map((b) => ({
        at: new Date(b.atMs).toISOString(),
        totalLag: b.totalLag,
      })),
    };
  });
}

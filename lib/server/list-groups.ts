import type { Database } from '../db';
import { ZGroupsResponse, type TGroupSummary, type TGroupsResponse } from '../schemas/groups';
import { analyzeGroup, compareGroupsWorstFirst, groupSummaryFields } from './analysis/group-analysis';
import { lagTrend } from './analysis/partition-analysis';
import { loadGroupRounds } from './load-group-rounds';
import { lastRebalanceSummary, loadLatestRebalances } from './load-rebalances';

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
 * GET /api/groups: every recently sampled group of `clusters` (each cluster read on its own, as every other
 * read is), worst first (status, worst time lag, total lag).
 */
export async function listGroups(
  db: Database,
  clusters: readonly string[],
  options: ListGroupsOptions,
): Promise<TGroupsResponse> {
  const now = options.now ?? new Date();
  const groups = (await Promise.all(clusters.map((cluster) => listClusterGroups(db, cluster, now, options)))).flat();
  groups.sort(compareGroupsWorstFirst);
  return ZGroupsResponse.parse({ generatedAt: now.toISOString(), groups });
}

async function listClusterGroups(
  db: Database,
  cluster: string,
  now: Date,
  options: ListGroupsOptions,
): Promise<TGroupSummary[]> {
  const historyMs = options.historyMs ?? 10 * 60_000;
  const rounds = await loadGroupRounds(db, {
    cluster,
    sampledWithinMs: options.sampledWithinMs ?? 10 * 60_000,
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
    const analysis = analyzeGroup({
      rows: round.rows,
      groupState: round.state,
      observedCommits: round.observedCommits,
      history: round.history,
      quarantined,
      timeLagObjectiveMs: options.timeLagObjectiveMs,
      rateWindowMs: options.rateWindowMs,
      nowMs,
    });
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

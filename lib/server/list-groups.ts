import type { DashboardConfig } from '../config';
import type { Database } from '../db';
import { analysisOptions } from './analysis-options';
import { ZGroupsResponse, type TGroupSummary, type TGroupsQuery, type TGroupsResponse } from '../schemas/groups';
import { analyzeGroup, groupSummaryFields } from './analysis/group-analysis';
import { lagTrend } from './analysis/partition-analysis';
import { loadGroupRounds } from './load-group-rounds';
import { lastRebalanceSummary, loadLatestRebalances } from './load-rebalances';
import { compareWorstFirst, groupsPageRequest, pageGroups } from './groups-page';
import { readSummaryPage, summaryFreshness } from './stored-group-summaries';

const DEFAULT_WINDOW_MS = 10 * 60_000;

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

/** What listGroups needs beyond the analysis settings: when the worker's stored summaries may answer. */
export interface GroupsListing extends ListGroupsOptions {
  /** The stored summaries answer while every asked-for cluster's evaluation ran within this long. */
  summariesCurrentWithinMs: number;
}

/** A cluster's evaluation that has not run for this many sample intervals has stopped (its worker is gone). */
const SUMMARY_CURRENT_INTERVALS = 3;

/** The dashboard's listing settings: the shared analysis settings and the stored summaries' freshness bound. */
export function groupsListing(
  config: Parameters<typeof analysisOptions>[0] & Pick<DashboardConfig, 'SAMPLE_INTERVAL_MS'>,
): GroupsListing {
  return {
    ...analysisOptions(config),
    summariesCurrentWithinMs: Math.max(SUMMARY_CURRENT_INTERVALS * config.SAMPLE_INTERVAL_MS, 15_000),
  };
}

/**
 * GET /api/groups: one page of the recently sampled groups of `clusters`, filtered and ordered as asked. While
 * the worker evaluates every asked-for cluster, its stored summaries answer (sorted, filtered and paged in
 * SQL; at most one round behind the samples); otherwise every group is analysed for this request (no worker
 * runs, or one cluster's evaluation stopped), which is right but costs time in proportion to the fleet.
 */
export async function listGroups(
  db: Database,
  clusters: readonly string[],
  query: TGroupsQuery,
  options: GroupsListing,
): Promise<TGroupsResponse> {
  const now = options.now ?? new Date();
  const request = groupsPageRequest(clusters, query);
  const sampledSince = new Date(now.getTime() - (options.sampledWithinMs ?? DEFAULT_WINDOW_MS));
  const freshness = await summaryFreshness(db, clusters, new Date(now.getTime() - options.summariesCurrentWithinMs));
  if (freshness.current && freshness.summarizedAt) {
    const page = await readSummaryPage(db, request, sampledSince);
    if (page) {
      return ZGroupsResponse.parse({
        generatedAt: now.toISOString(),
        ...page,
        source: 'summaries',
        summarizedAt: freshness.summarizedAt.toISOString(),
      });
    }
  }
  const page = pageGroups(await summarizeGroups(db, clusters, { ...options, now }), request);
  return ZGroupsResponse.parse({ generatedAt: now.toISOString(), ...page, source: 'live', summarizedAt: null });
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

import type { Database } from '../db';
import type { TGroupSummary } from '../schemas/groups';
import { analyzeRound, groupSummaryFields, type GroupAnalysis } from '../analysis/group-analysis';
import { lagTrend } from '../analysis/partition-analysis';
import { lossSummary, type LossEpisode } from '../analysis/retention';
import type { BurrowStatus, PartitionStatus } from '../lag/partition-status';
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
 * A group's overview row, and what the alert evaluation needs of its partitions beyond it: which are not OK
 * and why, which have unread records retention is set to delete, and its unacknowledged record losses.
 */
export interface GroupFindings {
  summary: TGroupSummary;
  /** Partitions whose status is not OK (Burrow's, or LOST), by topic and partition. */
  problems: Array<{
    topic: string;
    partition: number;
    status: PartitionStatus;
    burrowStatus: BurrowStatus;
    reason: string | null;
  }>;
  /** At-risk partitions: the window of the earliest deletion (ms from the round) and the topic's retention.ms. */
  retention: Array<{
    topic: string;
    partition: number;
    earliestMs: number | null;
    latestMs: number | null;
    retentionMs: number | null;
    basis: string;
  }>;
  /** Loss episodes nobody acknowledged, with their sentence. */
  losses: Array<{ id: string; topic: string; partition: number; count: bigint; summary: string; detectedAtMs: number }>;
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
  return (await analyzeGroups(db, clusters, options)).map((g) => g.summary);
}

/** summarizeGroups with each group's findings (GroupFindings), worst first. */
export async function analyzeGroups(
  db: Database,
  clusters: readonly string[],
  options: ListGroupsOptions,
): Promise<GroupFindings[]> {
  const now = options.now ?? new Date();
  const groups = (await Promise.all(clusters.map((cluster) => listClusterGroups(db, cluster, now, options)))).flat();
  return groups.sort((a, b) => compareWorstFirst(a.summary, b.summary));
}

async function listClusterGroups(
  db: Database,
  cluster: string,
  now: Date,
  options: ListGroupsOptions,
): Promise<GroupFindings[]> {
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

  return rounds.map((round): GroupFindings => {
    const nowMs = round.sampledAt.getTime();
    const quarantined = quarantines.filter((q) => q.groupId === round.groupId);
    const analysis = analyzeRound(round, quarantined, options);
    const summary: TGroupSummary = {
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
    return { summary, ...findingsOf(analysis, round.retention, nowMs) };
  });
}

function findingsOf(
  analysis: GroupAnalysis,
  retention: ReadonlyMap<string, { retentionMs: number | null }>,
  nowMs: number,
): Omit<GroupFindings, 'summary'> {
  return {
    problems: analysis.partitions
      .filter((p) => p.status !== 'OK')
      .map((p) => ({
        topic: p.row.topic,
        partition: p.row.partition,
        status: p.status,
        burrowStatus: p.evaluation.status,
        reason: p.statusReason,
      })),
    retention: analysis.partitions.flatMap((p) =>
      p.retentionRisk.kind === 'at-risk'
        ? [
            {
              topic: p.row.topic,
              partition: p.row.partition,
              earliestMs: p.retentionRisk.earliestMs,
              latestMs: p.retentionRisk.latestMs,
              retentionMs: retention.get(p.row.topic)?.retentionMs ?? null,
              basis: p.retentionRisk.basis,
            },
          ]
        : [],
    ),
    losses: analysis.unacknowledgedLosses.map((loss: LossEpisode) => ({
      id: loss.id.toString(),
      topic: loss.topic,
      partition: loss.partition,
      count: loss.count,
      summary: lossSummary(loss, nowMs),
      detectedAtMs: loss.detectedAt.getTime(),
    })),
  };
}

import type { Database } from '../../lib/db';
import type { TGroupSummary } from '../../lib/schemas/groups';
import { overviewRow } from '../../lib/groups/groups-page';
import { summaryColumns } from '../../lib/groups/stored-group-summaries';

/**
 * Stores what one evaluation of `cluster` computed as the overview's rows (lib/groups/stored-group-summaries.ts
 * reads them): every listed group's row replaced where it changed, groups no longer listed deleted, and the
 * cluster's round marker moved on, all in one transaction, so a reader sees one evaluation's rows or the
 * previous one's, never a mix. `summaries` null (the sampler is failing, so nothing new was written) only
 * marks the evaluation as running: the stored rows stay what the samples still say. A failure writes nothing
 * and the next round's evaluation writes again.
 */
export async function recordGroupSummaries(
  db: Database,
  cluster: string,
  summaries: readonly TGroupSummary[] | null,
  evaluatedAt: Date,
): Promise<void> {
  if (summaries === null) {
    await db.groupSummaryRound.updateMany({ where: { cluster }, data: { evaluatedAt } });
    return;
  }
  // One JSON parameter for every row: the row count is the cluster's group count (thousands), which as
  // separate bind parameters would pass Postgres's 65,535-parameter limit.
  const rows = JSON.stringify(
    summaries.map((summary) => {
      const columns = summaryColumns(summary);
      return {
        cluster,
        group_id: summary.groupId,
        sampled_at: summary.sampledAt,
        status: summary.status,
        status_rank: columns.statusRank,
        worst_time_lag_ms: columns.worstTimeLagMs,
        total_lag: columns.totalLag,
        quarantined_partitions: columns.quarantinedPartitions,
        last_rebalance_at: columns.lastRebalanceAt?.toISOString() ?? null,
        // As the overview shows it; the alerts keep every reason (record-alert-evaluation.ts).
        summary: overviewRow(summary),
      };
    }),
  );
  const groupIds = summaries.map((s) => s.groupId);
  await db.$transaction([
    db.$executeRaw`
      INSERT INTO group_summary (cluster, group_id, sampled_at, status, status_rank, worst_time_lag_ms, total_lag,
        quarantined_partitions, last_rebalance_at, summary)
      SELECT r.cluster, r.group_id, r.sampled_at, r.status, r.status_rank, r.worst_time_lag_ms, r.total_lag,
        r.quarantined_partitions, r.last_rebalance_at, r.summary
      FROM jsonb_to_recordset(${rows}::jsonb) AS r(cluster text, group_id text, sampled_at timestamptz, status text,
        status_rank int, worst_time_lag_ms float8, total_lag float8, quarantined_partitions int,
        last_rebalance_at timestamptz, summary jsonb)
      ON CONFLICT (cluster, group_id) DO UPDATE SET sampled_at = EXCLUDED.sampled_at, status = EXCLUDED.status,
        status_rank = EXCLUDED.status_rank, worst_time_lag_ms = EXCLUDED.worst_time_lag_ms,
        total_lag = EXCLUDED.total_lag, quarantined_partitions = EXCLUDED.quarantined_partitions,
        last_rebalance_at = EXCLUDED.last_rebalance_at, summary = EXCLUDED.summary
      WHERE group_summary.summary IS DISTINCT FROM EXCLUDED.summary`,
    db.$executeRaw`DELETE FROM group_summary WHERE cluster = ${cluster} AND NOT (group_id = ANY(${groupIds}::text[]))`,
    db.groupSummaryRound.upsert({
      where: { cluster },
      create: { cluster, evaluatedAt, summarizedAt: evaluatedAt, groups: summaries.length },
      update: { evaluatedAt, summarizedAt: evaluatedAt, groups: summaries.length },
    }),
  ]);
}

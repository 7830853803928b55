import type { Database } from '../db';
import type { GroupRoundTotals } from '../advisor/scaling-efficiency';
import type { RoundLag } from '../advisor/track-record';

export type GroupRoundSums = GroupRoundTotals & RoundLag;

/**
 * One row per sampler round of `groupId` in [fromMs, toMs], oldest first: the members owning its partitions,
 * and its committed, log-end and lag totals (committed and lag null when any partition never committed).
 * Summed in Postgres: hours of rounds at a few seconds each are thousands of rows per partition.
 */
export async function loadGroupRoundTotals(
  db: Database,
  cluster: string,
  groupId: string,
  range: { fromMs: number; toMs: number },
): Promise<GroupRoundSums[]> {
  const rows = await db.$queryRaw<
    Array<{ at_ms: bigint; consumers: bigint; committed: string | null; log_end: string; lag: string | null }>
  >`
    SELECT (extract(epoch FROM sampled_at) * 1000)::bigint AS at_ms,
      count(DISTINCT member_id) AS consumers,
      CASE WHEN bool_and(committed_offset IS NOT NULL) THEN sum(committed_offset)::text END AS committed,
      sum(log_end_offset)::text AS log_end,
      CASE WHEN bool_and(lag IS NOT NULL) THEN sum(lag)::text END AS lag
    FROM lag_sample
    WHERE cluster = ${cluster} AND group_id = ${groupId} AND sampled_at >= ${new Date(range.fromMs)} AND sampled_at <= ${new Date(range.toMs)}
    GROUP BY sampled_at
    ORDER BY sampled_at`;
  return rows.map((r) => ({
    atMs: Number(r.at_ms),
    consumers: Number(r.consumers),
    committedTotal: r.committed === null ? null : Number(r.committed),
    logEndTotal: Number(r.log_end),
    totalLag: r.lag === null ? null : Number(r.lag),
  }));
}

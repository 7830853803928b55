import type { Database } from '../../lib/db';
import type { LagSampleRow } from './sampler-state';

/**
 * Inserts a round's lag_sample rows in one statement: one array parameter per column, unnested by Postgres.
 * (Prisma's createMany binds every value separately and splits large rounds into many statements.) All rows
 * are written or none; a row whose key (cluster, group, topic, partition, time) is already stored is kept
 * once. Every row is of `cluster`.
 */
export async function insertLagSamples(db: Database, cluster: string, rows: readonly LagSampleRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const column = <K extends keyof LagSampleRow>(key: K): Array<LagSampleRow[K]> => rows.map((row) => row[key]);
  return db.$executeRaw`
    INSERT INTO lag_sample (
      cluster, sampled_at, group_id, topic, partition, committed_offset, log_start_offset, log_end_offset, lag, group_state,
      member_id, member_client_id, member_host, group_protocol, time_lag_ms, time_lag_kind, exact_time_lag_ms,
      arrival_rate_per_sec, consumption_rate_per_sec)
    SELECT ${cluster}, * FROM unnest(
      ${column('sampledAt')}::timestamptz[], ${column('groupId')}::text[], ${column('topic')}::text[],
      ${column('partition')}::int[], ${column('committedOffset')}::bigint[], ${column('logStartOffset')}::bigint[],
      ${column('logEndOffset')}::bigint[], ${column('lag')}::bigint[], ${column('groupState')}::text[],
      ${column('memberId')}::text[], ${column('memberClientId')}::text[], ${column('memberHost')}::text[], ${column('groupProtocol')}::text[],
      ${column('timeLagMs')}::bigint[], ${column('timeLagKind')}::text[], ${column('exactTimeLagMs')}::bigint[],
      ${column('arrivalRatePerSec')}::float8[], ${column('consumptionRatePerSec')}::float8[])
    ON CONFLICT DO NOTHING`;
}

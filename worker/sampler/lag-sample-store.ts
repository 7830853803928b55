import type pg from 'pg';
import { copyLines, copyNullableText, copyNumber, copyText, inTransaction } from './copy-text';
import type { LagSampleRow } from './sampler-state';

const COLUMNS =
  'cluster, sampled_at, group_id, topic, partition, committed_offset, log_start_offset, log_end_offset, lag, ' +
  'group_state, member_id, member_client_id, member_host, group_protocol, time_lag_ms, time_lag_kind, ' +
  'exact_time_lag_ms, arrival_rate_per_sec, consumption_rate_per_sec';

/**
 * Inserts a round's lag_sample rows: COPY into a session-local staging table, then one INSERT ... SELECT into
 * lag_sample, in one transaction. All rows are written or none; a row whose key (cluster, group, topic,
 * partition, time) is already stored is kept once (COPY alone cannot skip a duplicate: it would fail the
 * round). Every row is of `cluster`. Returns the rows inserted.
 */
export async function insertLagSamples(pool: pg.Pool, cluster: string, rows: readonly LagSampleRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const clusterText = copyText(cluster);
  // A round's rows share one sampled_at: its text is made once per distinct time.
  let lastAt: Date | null = null;
  let lastAtText = '';
  const line = (row: LagSampleRow): string => {
    if (row.sampledAt !== lastAt) {
      lastAt = row.sampledAt;
      lastAtText = row.sampledAt.toISOString();
    }
    return `${clusterText}\t${lastAtText}\t${copyText(row.groupId)}\t${copyText(row.topic)}\t${row.partition}\t${copyNumber(row.committedOffset)}\t${row.logStartOffset}\t${row.logEndOffset}\t${copyNumber(row.lag)}\t${copyText(row.groupState)}\t${copyNullableText(row.memberId)}\t${copyNullableText(row.memberClientId)}\t${copyNullableText(row.memberHost)}\t${copyNullableText(row.groupProtocol)}\t${copyNumber(row.timeLagMs)}\t${copyNullableText(row.timeLagKind)}\t${copyNumber(row.exactTimeLagMs)}\t${copyNumber(row.arrivalRatePerSec)}\t${copyNumber(row.consumptionRatePerSec)}`;
  };
  return inTransaction(pool, async (client) => {
    // Temporary, so per connection; emptied at every commit (and dropped with a rollback that created it).
    await client.query('CREATE TEMP TABLE IF NOT EXISTS lag_sample_incoming (LIKE lag_sample) ON COMMIT DELETE ROWS');
    await copyLines(client, `lag_sample_incoming (${COLUMNS})`, rows, line);
    const inserted = await client.query(
      `INSERT INTO lag_sample (${COLUMNS}) SELECT ${COLUMNS} FROM lag_sample_incoming ON CONFLICT DO NOTHING`,
    );
    return inserted.rowCount ?? 0;
  });
}

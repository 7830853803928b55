import type pg from 'pg';
import type { TopicRetentionRow } from './topic-settings';

/**
 * topic_retention rows of one cluster: read once per leadership (what is stored, so only changes are written)
 * and upserted in one statement per round that has changes. A failed write rejects; the tracker keeps the
 * rows unconfirmed, so the next round writes them again.
 */
export class TopicRetentionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly cluster: string,
  ) {}

  async load(): Promise<TopicRetentionRow[]> {
    const { rows } = await this.pool.query<{
      topic: string;
      cleanup_policy: string | null;
      retention_ms: string | null;
      retention_bytes: string | null;
      segment_ms: string | null;
      segment_bytes: string | null;
      check_interval_ms: string | null;
      read_error: string | null;
      record_bytes: number | null;
      read_at: Date;
      changed_at: Date;
    }>(
      `SELECT topic, cleanup_policy, retention_ms, retention_bytes, segment_ms, segment_bytes, check_interval_ms,
              read_error, record_bytes, read_at, changed_at
       FROM topic_retention WHERE cluster = $1`,
      [this.cluster],
    );
    const big = (value: string | null) => (value === null ? null : BigInt(value));
    return rows.map((r) => ({
      topic: r.topic,
      cleanupPolicy: r.cleanup_policy,
      retentionMs: big(r.retention_ms),
      retentionBytes: big(r.retention_bytes),
      segmentMs: big(r.segment_ms),
      segmentBytes: big(r.segment_bytes),
      checkIntervalMs: big(r.check_interval_ms),
      readError: r.read_error,
      recordBytes: r.record_bytes,
      readAt: r.read_at,
      changedAt: r.changed_at,
    }));
  }

  /** Inserts or replaces `rows` (every column), in one statement. */
  async upsert(rows: readonly TopicRetentionRow[]): Promise<void> {
    if (rows.length === 0) return;
    const text = (value: bigint | null) => (value === null ? null : value.toString());
    await this.pool.query(
      `INSERT INTO topic_retention (cluster, topic, cleanup_policy, retention_ms, retention_bytes, segment_ms,
                                    segment_bytes, check_interval_ms, read_error, record_bytes, read_at, changed_at)
       SELECT $1::text, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
                                $8::bigint[], $9::text[], $10::float8[], $11::timestamptz[], $12::timestamptz[])
       ON CONFLICT (cluster, topic) DO UPDATE SET
         cleanup_policy = EXCLUDED.cleanup_policy, retention_ms = EXCLUDED.retention_ms,
         retention_bytes = EXCLUDED.retention_bytes, segment_ms = EXCLUDED.segment_ms,
         segment_bytes = EXCLUDED.segment_bytes, check_interval_ms = EXCLUDED.check_interval_ms,
         read_error = EXCLUDED.read_error, record_bytes = EXCLUDED.record_bytes, read_at = EXCLUDED.read_at,
         changed_at = EXCLUDED.changed_at`,
      [
        this.cluster,
        rows.map((r) => r.topic),
        rows.map((r) => r.cleanupPolicy),
        rows.map((r) => text(r.retentionMs)),
        rows.map((r) => text(r.retentionBytes)),
        rows.map((r) => text(r.segmentMs)),
        rows.map((r) => text(r.segmentBytes)),
        rows.map((r) => text(r.checkIntervalMs)),
        rows.map((r) => r.readError),
        rows.map((r) => r.recordBytes),
        rows.map((r) => r.readAt),
        rows.map((r) => r.changedAt),
      ],
    );
  }
}

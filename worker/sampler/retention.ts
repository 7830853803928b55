import type { Database } from '../../lib/db';
import { deleteExpiredDefaultSamples, dropExpiredSamplePartitions, ensureSamplePartitions } from './sample-partitions';

// Rollups and retention, run by the leading sampler about once a minute.
// - 1-minute rollups of lag_sample into lag_rollup: every complete minute from the newest bucket already
//   rolled up before the current minute, always including the last ROLLUP_LOOKBACK_MINUTES (recomputed, so
//   rows written late count), up to the start of the current minute. Idempotent (upsert): a crash or a second
//   run never double counts, and a bucket in the future (clock jump) never stops the rollups.
// - 10-minute rollups of those into lag_rollup_10m (long chart ranges): every ten minutes holding a minute the
//   1-minute rollup just (re)computed is recomputed from its 1-minute rows, so the current ten minutes is
//   partial (up to its last_minute) and brought up to date every run, never double counted.
// - lag_sample's day partitions (sample-partitions.ts) exist for the raw retention and SAMPLE_PARTITION_DAYS_AHEAD
//   days ahead; raw retention drops a day's partition once the whole day is older than the retention and
//   rolled up (so raw rows are kept up to one day longer than the retention), and deletes the default
//   partition's expired rows in bounded batches so a large backlog never holds long locks.
// - lag_rollup, lag_rollup_10m, rebalance_event and sampler_gap keep the longer rollup retention; log_end_point rows of
//   partitions not observed for the raw retention go; consumer_partition_state rows not refreshed for an hour
//   belong to instances that stopped and are removed.
// - record_loss rows are history: an episode is kept RECORD_LOSS_RETENTION_DAYS after it ended (an open one
//   is kept); topic_retention rows of topics no sampler has read for the raw retention go.

export interface RetentionOptions {
  now: Date;
  rawRetentionDays: number;
  rollupRetentionDays: number;
  /** Rows deleted per statement. Default 20,000. */
  batchSize?: number;
  /** Statements per table per run; the rest waits for the next run. Default 50. */
  maxBatches?: number;
}

export interface MaintenanceResult {
  rolledUpBuckets: number;
  /** Rows deleted from the default partition. */
  deletedSamples: number;
  createdSamplePartitions: string[];
  droppedSamplePartitions: string[];
  /** 1-minute and 10-minute rollup rows. */
  deletedRollups: number;
  deletedRebalances: number;
  deletedGaps: number;
  deletedPoints: number;
  deletedStaleStates: number;
  deletedLosses: number;
  deletedTopicRetention: number;
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
export const TEN_MINUTES_MS = 10 * MINUTE_MS;
export const ROLLUP_LOOKBACK_MINUTES = 2;
export const STALE_CONSUMER_STATE_MS = 3_600_000;
/** Day partitions of lag_sample kept ready after today. */
export const SAMPLE_PARTITION_DAYS_AHEAD = 2;
/** Records deleted unread stay in the history this long after their episode ended. */
export const RECORD_LOSS_RETENTION_DAYS = 90;

export async function runMaintenance(db: Database, options: RetentionOptions): Promise<MaintenanceResult> {
  const createdSamplePartitions = await ensureSamplePartitions(db, {
    now: options.now,
    daysBack: options.rawRetentionDays,
    daysAhead: SAMPLE_PARTITION_DAYS_AHEAD,
  });
  const rolledUpBuckets = await rollUpLagSamples(db, options.now, options.rawRetentionDays);
  const rawCutoff = new Date(options.now.getTime() - options.rawRetentionDays * DAY_MS);
  const rollupCutoff = new Date(options.now.getTime() - options.rollupRetentionDays * DAY_MS);
  const batchSize = options.batchSize ?? 20_000;
  const maxBatches = options.maxBatches ?? 50;

  // Never delete raw rows of a minute that is not rolled up yet (the rollup above covers everything before
  // the current minute, so this only matters when the rollup failed).
  const rolledUpTo = await newestBucketBefore(db, options.now);
  const sampleCutoff = rolledUpTo === null ? null : new Date(Math.min(rawCutoff.getTime(), rolledUpTo.getTime()));
  const droppedSamplePartitions = sampleCutoff === null ? [] : await dropExpiredSamplePartitions(db, sampleCutoff);
  const deletedSamples =
    sampleCutoff === null ? 0 : await deleteExpiredDefaultSamples(db, sampleCutoff, batchSize, maxBatches);
  const deletedRollups =
    (await db.lagRollup.deleteMany({ where: { bucket: { lt: rollupCutoff } } })).count +
    (await db.lagRollup10m.deleteMany({ where: { bucket: { lt: rollupCutoff } } })).count;
  const deletedRebalances = (await db.rebalanceEvent.deleteMany({ where: { startedAt: { lt: rollupCutoff } } })).count;
  const deletedGaps = (
    await db.samplerGap.deleteMany({ where: { startedAt: { lt: rollupCutoff }, endedAt: { not: null } } })
  ).count;
  const deletedPoints = await db.$executeRaw`
    DELETE FROM log_end_point p
    WHERE NOT EXISTS (
      SELECT 1 FROM log_end_point q WHERE q.cluster = p.cluster AND q.topic = p.topic AND q.partition = p.partition AND q.at >= ${rawCutoff}
    )`;
  const deletedStaleStates = (
    await db.consumerPartitionState.deleteMany({
      where: { sampledAt: { lt: new Date(options.now.getTime() - STALE_CONSUMER_STATE_MS) } },
    })
  ).count;
  const lossCutoff = new Date(options.now.getTime() - RECORD_LOSS_RETENTION_DAYS * DAY_MS);
  const deletedLosses = (await db.recordLoss.deleteMany({ where: { endedAt: { lt: lossCutoff } } })).count;
  const deletedTopicRetention = (await db.topicRetention.deleteMany({ where: { readAt: { lt: rawCutoff } } })).count;
  return {
    rolledUpBuckets,
    deletedSamples,
    createdSamplePartitions,
    droppedSamplePartitions,
    deletedRollups,
    deletedRebalances,
    deletedGaps,
    deletedPoints,
    deletedStaleStates,
    deletedLosses,
    deletedTopicRetention,
  };
}

/**
 * Upserts one lag_rollup row per cluster/group/topic/partition/minute, then the lag_rollup_10m rows of the ten
 * minutes those minutes fall in (rollUpTenMinutes). max_time_lag_ms takes the exact time lag where the sampler
 * read it and the estimate otherwise. Returns the number of 1-minute rows written.
 */
export async function rollUpLagSamples(db: Database, now: Date, rawRetentionDays: number): Promise<number> {
  const currentMinute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const newest = await newestBucketBefore(db, currentMinute);
  const oldestKept = now.getTime() - rawRetentionDays * DAY_MS;
  const lookback = currentMinute.getTime() - ROLLUP_LOOKBACK_MINUTES * MINUTE_MS;
  const from = new Date(Math.max(oldestKept, Math.min(newest?.getTime() ?? oldestKept, lookback)));
  if (from >= currentMinute) return 0;
  const written = await db.$executeRaw`
    INSERT INTO lag_rollup (cluster, group_id, topic, partition, bucket, max_lag, avg_lag, max_time_lag_ms, last_committed, last_log_end, samples)
    SELECT cluster, group_id, topic, partition, date_trunc('minute', sampled_at) AS bucket,
           max(lag), avg(lag)::float8, max(COALESCE(exact_time_lag_ms, time_lag_ms)),
           (array_agg(committed_offset ORDER BY sampled_at DESC))[1],
           (array_agg(log_end_offset ORDER BY sampled_at DESC))[1],
           count(*)::int
    FROM lag_sample
    WHERE sampled_at >= ${from} AND sampled_at < ${currentMinute}
    GROUP BY cluster, group_id, topic, partition, date_trunc('minute', sampled_at)
    ON CONFLICT (cluster, group_id, topic, partition, bucket) DO UPDATE SET
      max_lag = EXCLUDED.max_lag, avg_lag = EXCLUDED.avg_lag, max_time_lag_ms = EXCLUDED.max_time_lag_ms,
      last_committed = EXCLUDED.last_committed, last_log_end = EXCLUDED.last_log_end, samples = EXCLUDED.samples`;
  await rollUpTenMinutes(db, from, currentMinute);
  return written;
}

/**
 * Recomputes the lag_rollup_10m row of every cluster/group/topic/partition/ten minutes holding a 1-minute bucket in
 * [from, to), from all of those ten minutes' 1-minute rows before `to`: the maximum lag and time lag, the
 * newest minute's committed and log-end offsets, the sample count, and the minutes' average lag weighted by
 * their sample counts. Ten minutes are aligned to the epoch (as date_bin aligns chart steps). Idempotent.
 */
export async function rollUpTenMinutes(db: Database, from: Date, to: Date): Promise<number> {
  const start = new Date(Math.floor(from.getTime() / TEN_MINUTES_MS) * TEN_MINUTES_MS);
  if (start >= to) return 0;
  return db.$executeRaw`
    INSERT INTO lag_rollup_10m (cluster, group_id, topic, partition, bucket, last_minute, max_lag, avg_lag, max_time_lag_ms, last_committed, last_log_end, samples)
    SELECT cluster, group_id, topic, partition, date_bin('10 minutes', bucket, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS ten,
           max(bucket), max(max_lag),
           (sum(avg_lag * samples) / NULLIF(sum(samples) FILTER (WHERE avg_lag IS NOT NULL), 0))::float8,
           max(max_time_lag_ms),
           (array_agg(last_committed ORDER BY bucket DESC))[1],
           (array_agg(last_log_end ORDER BY bucket DESC))[1],
           sum(samples)::int
    FROM lag_rollup
    WHERE bucket >= ${start} AND bucket < ${to}
    GROUP BY cluster, group_id, topic, partition, ten
    ON CONFLICT (cluster, group_id, topic, partition, bucket) DO UPDATE SET
      last_minute = EXCLUDED.last_minute, max_lag = EXCLUDED.max_lag, avg_lag = EXCLUDED.avg_lag,
      max_time_lag_ms = EXCLUDED.max_time_lag_ms, last_committed = EXCLUDED.last_committed,
      last_log_end = EXCLUDED.last_log_end, samples = EXCLUDED.samples`;
}

async function newestBucketBefore(db: Database, before: Date): Promise<Date | null> {
  const newest = await db.lagRollup.aggregate({ where: { bucket: { lt: before } }, _max: { bucket: true } });
  return newest._max.bucket;
}

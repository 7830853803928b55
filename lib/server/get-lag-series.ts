import type { Database } from '../db';
import { Prisma } from '../generated/prisma/client';
import { MAX_IDLE_GAP_MS } from '../lag/idle-samples';
import { appendLogEndPoint, estimateTimeLag, type LogEndPoint } from '../lag/time-lag';
import {
  MAX_SERIES_POINTS,
  MAX_SERIES_SPAN_MS,
  ZLagSeries,
  type TLagSeries,
  type TLagSeriesQuery,
  type TTimeLagKind,
} from '../schemas/groups';
import { LAG_RANGES } from '../schemas/values';
import { ApiError, notFound } from './api-error';
import { neverSampled } from './request-cluster';
import { FALLBACK_MAX_POINTS } from '../analysis/partition-analysis';

/** Steps the automatic choice picks from, so chart buckets fall on round times. */
const NICE_STEPS_SEC = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 21_600, 43_200, 86_400];
/** Automatic steps aim at about this many points per chart. */
const TARGET_POINTS = 240;
/** The one-minute rollup is used for steps of at least its own width, when it covers the range. */
const ROLLUP_WIDTH_MS = 60_000;
/**
 * The ten-minute rollup is used for steps that are whole multiples of ten minutes (so no ten minutes straddles
 * two steps: both are aligned to the epoch), when it covers the range: a 24-hour chart reads 144 rows per
 * partition instead of 1,440.
 */
const TEN_MINUTE_WIDTH_MS = 600_000;
/**
 * When the sampler stored no time lag, the estimate needs log-end history from before the range too (a record
 * older than the range is still dated, not just "older than the chart"); this much is read, coarsely.
 */
const LOOKBACK_MIN_MS = 15 * 60_000;
const LOOKBACK_MAX_MS = 6 * 3_600_000;
const STORED_KINDS: ReadonlySet<string> = new Set<TTimeLagKind>(['exact', 'caught-up', 'interpolated', 'lower-bound']);

export interface SeriesWindow {
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/** Turns the query into a window; refuses spans and steps a chart cannot use (400 naming the field). */
export function resolveSeriesWindow(query: TLagSeriesQuery, nowMs: number): SeriesWindow {
  let fromMs: number;
  let toMs: number;
  if (query.from !== undefined || query.to !== undefined) {
    toMs = query.to !== undefined ? Date.parse(query.to) : nowMs;
    fromMs = query.from !== undefined ? Date.parse(query.from) : toMs - LAG_RANGES['1h'];
    if (fromMs >= toMs) throw new ApiError(400, 'from: must be before to', 'from');
  } else {
    toMs = nowMs;
    fromMs = nowMs - LAG_RANGES[query.range ?? '1h'];
  }
  const spanMs = toMs - fromMs;
  if (spanMs > MAX_SERIES_SPAN_MS) throw new ApiError(400, 'from: the series can span at most 31 days', 'from');
  let stepMs: number;
  if (query.step !== undefined) {
    stepMs = query.step * 1000;
    if (Math.ceil(spanMs / stepMs) > MAX_SERIES_POINTS) {
      throw new ApiError(
        400,
        `step: ${query.step} s gives more than ${MAX_SERIES_POINTS} points over this range; use at least ${Math.ceil(spanMs / MAX_SERIES_POINTS / 1000)} s`,
        'step',
      );
    }
  } else {
    const wanted = spanMs / TARGET_POINTS / 1000;
    stepMs = (NICE_STEPS_SEC.find((s) => s >= wanted) ?? NICE_STEPS_SEC[NICE_STEPS_SEC.length - 1]!) * 1000;
  }
  return { fromMs, toMs, stepMs };
}

/** One step of one partition. Times in epoch ms, offsets as numbers (exact: offsets stay below 2^53). */
interface BucketRow {
  topic: string;
  partition: number;
  bucketMs: number;
  lastAtMs: number;
  maxLag: number | null;
  maxTimeLagMs: number | null;
  timeLagKind: string | null;
  lastLogEnd: number;
  lastCommitted: number | null;
}

type PointRow = Pick<BucketRow, 'topic' | 'partition' | 'lastAtMs' | 'lastLogEnd'>;

/**
 * Runs `steps` (one row per partition and step: bucket, last_at and the aggregates) and returns each
 * partition's steps, oldest first. Postgres hands each partition's steps over as one JSON text of
 * [bucket ms, last_at ms, max_lag, max_time_lag_ms, time_lag_kind, last_log_end, last_committed] tuples:
 * decoding thousands of rows of timestamps and bigints (or of text arrays) cost the client several times
 * what the query costs the server, and JSON.parse is the cheapest decoder at hand. Offsets and times are
 * exact as JSON numbers (below 2^53). The tuples come in no particular order and are sorted here.
 */
async function readBuckets(db: Database, steps: Prisma.Sql): Promise<BucketRow[][]> {
  const partitions = await db.$queryRaw<Array<{ topic: string; partition: number; steps: string }>>`
    SELECT topic, partition,
      json_agg(json_build_array(
        (extract(epoch FROM bucket) * 1000)::bigint, (extract(epoch FROM last_at) * 1000)::bigint,
        max_lag, max_time_lag_ms, time_lag_kind, last_log_end, last_committed))::text AS steps
    FROM (${steps}) AS steps
    GROUP BY topic, partition`;
  type Tuple = [number, number, number | null, number | null, string | null, number, number | null];
  return partitions
    .sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1))
    .map((p) =>
      (JSON.parse(p.steps) as Tuple[])
        .map(([bucketMs, lastAtMs, maxLag, maxTimeLagMs, timeLagKind, lastLogEnd, lastCommitted]) => ({
          topic: p.topic,
          partition: p.partition,
          bucketMs,
          lastAtMs,
          maxLag,
          maxTimeLagMs,
          timeLagKind,
          lastLogEnd,
          lastCommitted,
        }))
        .sort((a, b) => a.bucketMs - b.bucketMs),
    );
}

const keyOf = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;

/**
 * GET /api/groups/{groupId}/lag: per-partition series bucketed by `step`. Lag and time lag are the maximum in
 * each bucket (a chart must show spikes, not average them away; a bucket holding any lower bound is marked
 * one); rates come from the change of the last log end and committed offset between consecutive buckets.
 * Where the sampler stored no time lag, it is estimated from the series' own log-end offsets over time
 * (lib/lag/time-lag.ts), with log-end history from before the range read only in that case.
 */
export async function getLagSeries(
  db: Database,
  cluster: string,
  groupId: string,
  window: SeriesWindow,
  /** SAMPLER_RETENTION_DAYS, passed through for the chart's wording of an empty stretch. */
  rawRetentionDays: number,
): Promise<TLagSeries> {
  const from = new Date(window.fromMs);
  const to = new Date(window.toMs);
  const stepSec = window.stepMs / 1000;
  const firstStepEnd = new Date(window.fromMs + window.stepMs);
  // Independent look-ups, in parallel: each is one index probe.
  const [known, tenMinutesCover, minutesCover] = await Promise.all([
    db.lagSample.findFirst({
      where: { cluster, groupId },
      orderBy: { sampledAt: 'asc' },
      select: { sampledAt: true },
    }),
    window.stepMs % TEN_MINUTE_WIDTH_MS === 0
      ? db.lagRollup10m.findFirst({
          where: { cluster, groupId, bucket: { lte: firstStepEnd } },
          select: { samples: true },
        })
      : null,
    window.stepMs >= ROLLUP_WIDTH_MS
      ? db.lagRollup.findFirst({
          where: { cluster, groupId, bucket: { lte: firstStepEnd } },
          select: { samples: true },
        })
      : null,
  ]);
  if (!known) throw notFound(neverSampled(cluster, groupId));
  const rollup = tenMinutesCover !== null ? 'ten-minutes' : minutesCover !== null ? 'minutes' : null;
  const source: TLagSeries['source'] = rollup !== null ? 'rollup' : 'samples';
  const bin = Prisma.sql`make_interval(secs => ${stepSec}::double precision)`;
  // The ten minutes that hold `from` belong to the first step (steps are whole ten minutes, both aligned to
  // the epoch): it is read whole, so the first step is never left empty for starting mid-way.
  const tenMinutesFrom = new Date(Math.floor(window.fromMs / TEN_MINUTE_WIDTH_MS) * TEN_MINUTE_WIDTH_MS);
  let steps: Prisma.Sql;
  if (rollup === 'ten-minutes' && window.stepMs === TEN_MINUTE_WIDTH_MS) {
    // Each ten minutes is a step of its own (a 24-hour chart): no regrouping, no sort of the whole range.
    steps = Prisma.sql`
      SELECT topic, partition, bucket, last_minute + interval '1 minute' AS last_at, max_lag, max_time_lag_ms,
        NULL::text AS time_lag_kind, last_log_end, last_committed
      FROM lag_rollup_10m
      WHERE cluster = ${cluster} AND group_id = ${groupId} AND bucket >= ${tenMinutesFrom} AND bucket < ${to}`;
  } else if (rollup !== null) {
    // Regrouped into steps of several rollup rows. Table and column names are constants, never input.
    const rows =
      rollup === 'ten-minutes'
        ? { table: Prisma.raw('lag_rollup_10m'), lastMinute: Prisma.raw('last_minute'), from: tenMinutesFrom }
        : { table: Prisma.raw('lag_rollup'), lastMinute: Prisma.raw('bucket'), from };
    steps = Prisma.sql`
      SELECT topic, partition, date_bin(${bin}, bucket, to_timestamp(0)) AS bucket,
        max(${rows.lastMinute}) + interval '1 minute' AS last_at,
        max(max_lag) AS max_lag,
        max(max_time_lag_ms) AS max_time_lag_ms,
        NULL::text AS time_lag_kind,
        max(last_log_end) AS last_log_end,
        max(last_committed) AS last_committed
      FROM ${rows.table}
      WHERE cluster = ${cluster} AND group_id = ${groupId} AND bucket >= ${rows.from} AND bucket < ${to}
      GROUP BY 1, 2, 3`;
  } else {
    steps = Prisma.sql`
      SELECT topic, partition, date_bin(${bin}, sampled_at, to_timestamp(0)) AS bucket,
        max(sampled_at) AS last_at,
        max(lag) AS max_lag,
        max(coalesce(exact_time_lag_ms, time_lag_ms)) AS max_time_lag_ms,
        CASE WHEN bool_or(time_lag_kind = 'lower-bound' AND exact_time_lag_ms IS NULL) THEN 'lower-bound'
             WHEN bool_or(exact_time_lag_ms IS NOT NULL) THEN 'exact'
             ELSE max(time_lag_kind) FILTER (WHERE time_lag_ms IS NOT NULL) END AS time_lag_kind,
        max(log_end_offset) AS last_log_end,
        max(committed_offset) AS last_committed
      FROM lag_sample
      WHERE cluster = ${cluster} AND group_id = ${groupId} AND sampled_at >= ${from} AND sampled_at < ${to}
      GROUP BY 1, 2, 3`;
  }
  const [byPartition, before] = await Promise.all([
    readBuckets(db, steps),
    rollup === null
      ? lastStepsBefore(db, cluster, groupId, window.fromMs)
      : Promise.resolve(new Map<string, BucketRow>()),
  ]);
  const rows = byPartition.flat();

  const needsEstimate = new Set(rows.filter((r) => r.maxTimeLagMs === null && r.lastCommitted !== null).map(keyOf));
  const earlierPoints = needsEstimate.size > 0 ? await lookbackPoints(db, cluster, groupId, window) : [];

  const firstBucketMs = Math.floor(window.fromMs / window.stepMs) * window.stepMs;
  const count = Math.max(1, Math.ceil((window.toMs - firstBucketMs) / window.stepMs));
  const times = Array.from({ length: count }, (_, i) => new Date(firstBucketMs + i * window.stepMs).toISOString());
  const indexOf = (bucketMs: number) => Math.round((bucketMs - firstBucketMs) / window.stepMs);
  const earlierOf = new Map<string, PointRow[]>();
  for (const point of earlierPoints) {
    let list = earlierOf.get(keyOf(point));
    if (!list) earlierOf.set(keyOf(point), (list = []));
    list.push(point);
  }

  const empty = () => Array<number | null>(count).fill(null);
  const partitions = byPartition.map((buckets) => {
    const first = buckets[0]!;
    const key = keyOf(first);
    const series = {
      topic: first.topic,
      partition: first.partition,
      lag: empty(),
      timeLagMs: empty(),
      timeLagKind: Array<TTimeLagKind | null>(count).fill(null),
      arrivalRatePerSec: empty(),
      consumptionRatePerSec: empty(),
    };
    let points: LogEndPoint[] = [];
    for (const p of earlierOf.get(key) ?? [])
      points = appendLogEndPoint(points, { offset: p.lastLogEnd, atMs: p.lastAtMs }, FALLBACK_MAX_POINTS);
    const estimating = needsEstimate.has(key);
    let previous: BucketRow | undefined = before.get(key);
    // Steps with no stored round within MAX_IDLE_GAP_MS of the last one are that round unchanged (the sampler
    // skips unchanged groups; lib/lag/idle-samples.ts): its lag and time lag, nothing arrived or consumed.
    const fillUnchanged = (fromIndex: number, toIndex: number) => {
      if (!previous) return;
      const last = previous;
      const lag = last.lastCommitted === null ? null : Math.max(0, last.lastLogEnd - last.lastCommitted);
      for (let j = Math.max(0, fromIndex); j < Math.min(count, toIndex); j++) {
        if (firstBucketMs + j * window.stepMs - last.lastAtMs >= MAX_IDLE_GAP_MS) break;
        series.lag[j] = lag;
        series.timeLagMs[j] = lag === 0 ? 0 : (last.maxTimeLagMs ?? null);
        series.timeLagKind[j] =
          lag === 0 ? 'caught-up' : series.timeLagMs[j] === null ? null : (last.timeLagKind as TTimeLagKind);
        series.arrivalRatePerSec[j] = 0;
        if (last.lastCommitted !== null) series.consumptionRatePerSec[j] = 0;
      }
    };
    for (const row of buckets) {
      const i = indexOf(row.bucketMs);
      const atMs = row.lastAtMs;
      fillUnchanged(previous ? indexOf(previous.bucketMs) + 1 : 0, i);
      if (estimating) points = appendLogEndPoint(points, { offset: row.lastLogEnd, atMs }, FALLBACK_MAX_POINTS);
      if (i < 0 || i >= count) continue;
      series.lag[i] = row.maxLag;
      if (row.maxTimeLagMs !== null) {
        series.timeLagMs[i] = row.maxTimeLagMs;
        series.timeLagKind[i] = STORED_KINDS.has(row.timeLagKind ?? '')
          ? (row.timeLagKind as TTimeLagKind)
          : 'interpolated';
      } else if (row.lastCommitted !== null) {
        const estimate = estimateTimeLag({ points, committedOffset: row.lastCommitted, nowMs: atMs });
        series.timeLagMs[i] = estimate.ms;
        series.timeLagKind[i] = estimate.kind;
      }
      if (previous) {
        const seconds = (atMs - previous.lastAtMs) / 1000;
        const arrived = row.lastLogEnd - previous.lastLogEnd;
        if (seconds > 0 && arrived >= 0) series.arrivalRatePerSec[i] = arrived / seconds;
        if (seconds > 0 && row.lastCommitted !== null && previous.lastCommitted !== null) {
          const consumed = row.lastCommitted - previous.lastCommitted;
          if (consumed >= 0) series.consumptionRatePerSec[i] = consumed / seconds;
        }
      }
      previous = row;
    }
    fillUnchanged(previous ? indexOf(previous.bucketMs) + 1 : 0, count);
    return series;
  });

  const sumOf = (pick: (p: (typeof partitions)[number]) => Array<number | null>) =>
    Array.from({ length: count }, (_, i) => {
      let total: number | null = null;
      for (const p of partitions) {
        const v = pick(p)[i];
        if (v !== null && v !== undefined) total = (total ?? 0) + v;
      }
      return total;
    });

  return ZLagSeries.parse({
    cluster,
    groupId,
    from: from.toISOString(),
    to: to.toISOString(),
    stepMs: window.stepMs,
    source,
    firstSampledAt: known.sampledAt.toISOString(),
    rawRetentionDays,
    times,
    totals: {
      lag: sumOf((p) => p.lag),
      arrivalRatePerSec: sumOf((p) => p.arrivalRatePerSec),
      consumptionRatePerSec: sumOf((p) => p.consumptionRatePerSec),
    },
    partitions,
  });
}

/**
 * Per partition, the newest stored sample within MAX_IDLE_GAP_MS before the range, as a one-sample step: the
 * round an idle group's first steps are unchanged from.
 */
async function lastStepsBefore(
  db: Database,
  cluster: string,
  groupId: string,
  fromMs: number,
): Promise<Map<string, BucketRow>> {
  const rows = await db.$queryRaw<
    Array<{
      topic: string;
      partition: number;
      at_ms: number;
      lag: bigint | null;
      time_lag_ms: bigint | null;
      time_lag_kind: string | null;
      log_end: bigint;
      committed: bigint | null;
    }>
  >`
    SELECT DISTINCT ON (topic, partition) topic, partition, (extract(epoch FROM sampled_at) * 1000)::float8 AS at_ms,
      lag, coalesce(exact_time_lag_ms, time_lag_ms) AS time_lag_ms,
      CASE WHEN exact_time_lag_ms IS NOT NULL THEN 'exact' ELSE time_lag_kind END AS time_lag_kind,
      log_end_offset AS log_end, committed_offset AS committed
    FROM lag_sample
    WHERE cluster = ${cluster} AND group_id = ${groupId} AND sampled_at >= ${new Date(fromMs - MAX_IDLE_GAP_MS)} AND sampled_at < ${new Date(fromMs)}
    ORDER BY topic, partition, sampled_at DESC`;
  const toNumber = (value: bigint | null) => (value === null ? null : Number(value));
  return new Map(
    rows.map((r) => [
      keyOf(r),
      {
        topic: r.topic,
        partition: r.partition,
        bucketMs: Number.NEGATIVE_INFINITY,
        lastAtMs: r.at_ms,
        maxLag: toNumber(r.lag),
        maxTimeLagMs: toNumber(r.time_lag_ms),
        timeLagKind: r.time_lag_kind,
        lastLogEnd: Number(r.log_end),
        lastCommitted: toNumber(r.committed),
      },
    ]),
  );
}

/** Log-end points before the range, at most one per minute-or-step, oldest first. */
async function lookbackPoints(
  db: Database,
  cluster: string,
  groupId: string,
  window: SeriesWindow,
): Promise<PointRow[]> {
  const lookbackMs = Math.min(LOOKBACK_MAX_MS, Math.max(LOOKBACK_MIN_MS, window.toMs - window.fromMs));
  const stepSec = Math.max(60, window.stepMs / 1000);
  const rows = await db.$queryRaw<PointRow[]>`
    SELECT topic, partition, (extract(epoch FROM max(sampled_at)) * 1000)::float8 AS "lastAtMs", max(log_end_offset)::float8 AS "lastLogEnd"
    FROM lag_sample
    WHERE cluster = ${cluster} AND group_id = ${groupId} AND sampled_at >= ${new Date(window.fromMs - lookbackMs)} AND sampled_at < ${new Date(window.fromMs)}
    GROUP BY topic, partition, date_bin(make_interval(secs => ${stepSec}::double precision), sampled_at, to_timestamp(0))`;
  return rows.sort((a, b) => a.lastAtMs - b.lastAtMs);
}

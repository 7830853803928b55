import type { Database } from '../db';
import { appendLogEndPoint, estimateTimeLag, type LogEndPoint } from '../lag/time-lag';
import {
  LAG_RANGES,
  MAX_SERIES_POINTS,
  MAX_SERIES_SPAN_MS,
  ZLagSeries,
  type TLagSeries,
  type TLagSeriesQuery,
  type TTimeLagKind,
} from '../schemas/groups';
import { ApiError, notFound } from './api-error';
import { FALLBACK_MAX_POINTS } from './analysis/partition-analysis';

/** Steps the automatic choice picks from, so chart buckets fall on round times. */
const NICE_STEPS_SEC = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 21_600, 43_200, 86_400];
/** Automatic steps aim at about this many points per chart. */
const TARGET_POINTS = 240;
/** The one-minute rollup is used for steps of at least its own width, when it covers the range. */
const ROLLUP_WIDTH_MS = 60_000;
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
      throw new ApiError(400, `step: ${query.step} s gives more than ${MAX_SERIES_POINTS} points over this range; use at least ${Math.ceil(spanMs / MAX_SERIES_POINTS / 1000)} s`, 'step');
    }
  } else {
    const wanted = spanMs / TARGET_POINTS / 1000;
    stepMs = (NICE_STEPS_SEC.find((s) => s >= wanted) ?? NICE_STEPS_SEC[NICE_STEPS_SEC.length - 1]!) * 1000;
  }
  return { fromMs, toMs, stepMs };
}

interface BucketRow {
  topic: string;
  partition: number;
  bucket: Date;
  last_at: Date;
  max_lag: bigint | null;
  max_time_lag_ms: bigint | null;
  time_lag_kind: string | null;
  last_log_end: bigint;
  last_committed: bigint | null;
}

type PointRow = Pick<BucketRow, 'topic' | 'partition' | 'last_at' | 'last_log_end'>;

const keyOf = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;

/**
 * GET /api/groups/{groupId}/lag: per-partition series bucketed by `step`. Lag and time lag are the maximum in
 * each bucket (a chart must show spikes, not average them away; a bucket holding any lower bound is marked
 * one); rates come from the change of the last log end and committed offset between consecutive buckets.
 * Where the sampler stored no time lag, it is estimated from the series' own log-end offsets over time
 * (lib/lag/time-lag.ts), with log-end history from before the range read only in that case.
 */
export async function getLagSeries(db: Database, groupId: string, window: SeriesWindow): Promise<TLagSeries> {
  const known = await db.lagSample.findFirst({ where: { groupId }, select: { id: true } });
  if (!known) throw notFound(`consumer group "${groupId}" has never been sampled`);

  const from = new Date(window.fromMs);
  const to = new Date(window.toMs);
  const stepSec = window.stepMs / 1000;
  const rollupCoversRange =
    window.stepMs >= ROLLUP_WIDTH_MS &&
    (await db.lagRollup.findFirst({ where: { groupId, bucket: { lte: new Date(window.fromMs + window.stepMs) } }, select: { samples: true } })) !== null;
  const source: TLagSeries['source'] = rollupCoversRange ? 'rollup' : 'samples';
  // Grouped without ORDER BY (lets Postgres hash-aggregate); the few output rows are sorted here.
  const rows = rollupCoversRange
    ? await db.$queryRaw<BucketRow[]>`
        SELECT topic, partition,
          date_bin(make_interval(secs => ${stepSec}::double precision), bucket, to_timestamp(0)) AS bucket,
          max(bucket) + interval '1 minute' AS last_at,
          max(max_lag) AS max_lag,
          max(max_time_lag_ms) AS max_time_lag_ms,
          NULL::text AS time_lag_kind,
          max(last_log_end) AS last_log_end,
          max(last_committed) AS last_committed
        FROM lag_rollup
        WHERE group_id = ${groupId} AND bucket >= ${from} AND bucket < ${to}
        GROUP BY 1, 2, 3`
    : await db.$queryRaw<BucketRow[]>`
        SELECT topic, partition,
          date_bin(make_interval(secs => ${stepSec}::double precision), sampled_at, to_timestamp(0)) AS bucket,
          max(sampled_at) AS last_at,
          max(lag) AS max_lag,
          max(coalesce(exact_time_lag_ms, time_lag_ms)) AS max_time_lag_ms,
          CASE WHEN bool_or(time_lag_kind = 'lower-bound' AND exact_time_lag_ms IS NULL) THEN 'lower-bound'
               WHEN bool_or(exact_time_lag_ms IS NOT NULL) THEN 'exact'
               ELSE max(time_lag_kind) FILTER (WHERE time_lag_ms IS NOT NULL) END AS time_lag_kind,
          max(log_end_offset) AS last_log_end,
          max(committed_offset) AS last_committed
        FROM lag_sample
        WHERE group_id = ${groupId} AND sampled_at >= ${from} AND sampled_at < ${to}
        GROUP BY 1, 2, 3`;
  rows.sort((a, b) => (a.topic === b.topic ? a.partition - b.partition || a.bucket.getTime() - b.bucket.getTime() : a.topic < b.topic ? -1 : 1));

  const needsEstimate = new Set(rows.filter((r) => r.max_time_lag_ms === null && r.last_committed !== null).map(keyOf));
  const earlierPoints = needsEstimate.size > 0 ? await lookbackPoints(db, groupId, window) : [];

  const firstBucketMs = Math.floor(window.fromMs / window.stepMs) * window.stepMs;
  const count = Math.max(1, Math.ceil((window.toMs - firstBucketMs) / window.stepMs));
  const times = Array.from({ length: count }, (_, i) => new Date(firstBucketMs + i * window.stepMs).toISOString());
  const indexOf = (bucket: Date) => Math.round((bucket.getTime() - firstBucketMs) / window.stepMs);

  const byPartition = new Map<string, BucketRow[]>();
  for (const row of rows) {
    let list = byPartition.get(keyOf(row));
    if (!list) byPartition.set(keyOf(row), (list = []));
    list.push(row);
  }
  const earlierOf = new Map<string, PointRow[]>();
  for (const point of earlierPoints) {
    let list = earlierOf.get(keyOf(point));
    if (!list) earlierOf.set(keyOf(point), (list = []));
    list.push(point);
  }

  const empty = () => Array<number | null>(count).fill(null);
  const partitions = [...byPartition.entries()].map(([key, buckets]) => {
    const first = buckets[0]!;
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
    for (const p of earlierOf.get(key) ?? []) points = appendLogEndPoint(points, { offset: Number(p.last_log_end), atMs: p.last_at.getTime() }, FALLBACK_MAX_POINTS);
    const estimating = needsEstimate.has(key);
    let previous: BucketRow | undefined;
    for (const row of buckets) {
      const i = indexOf(row.bucket);
      const atMs = row.last_at.getTime();
      if (estimating) points = appendLogEndPoint(points, { offset: Number(row.last_log_end), atMs }, FALLBACK_MAX_POINTS);
      if (i < 0 || i >= count) continue;
      series.lag[i] = row.max_lag === null ? null : Number(row.max_lag);
      if (row.max_time_lag_ms !== null) {
        series.timeLagMs[i] = Number(row.max_time_lag_ms);
        series.timeLagKind[i] = STORED_KINDS.has(row.time_lag_kind ?? '') ? (row.time_lag_kind as TTimeLagKind) : 'interpolated';
      } else if (row.last_committed !== null) {
        const estimate = estimateTimeLag({ points, committedOffset: Number(row.last_committed), nowMs: atMs });
        series.timeLagMs[i] = estimate.ms;
        series.timeLagKind[i] = estimate.kind;
      }
      if (previous) {
        const seconds = (atMs - previous.last_at.getTime()) / 1000;
        const arrived = Number(row.last_log_end - previous.last_log_end);
        if (seconds > 0 && arrived >= 0) series.arrivalRatePerSec[i] = arrived / seconds;
        if (seconds > 0 && row.last_committed !== null && previous.last_committed !== null) {
          const consumed = Number(row.last_committed - previous.last_committed);
          if (consumed >= 0) series.consumptionRatePerSec[i] = consumed / seconds;
        }
      }
      previous = row;
    }
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
    groupId,
    from: from.toISOString(),
    to: to.toISOString(),
    stepMs: window.stepMs,
    source,
    times,
    totals: {
      lag: sumOf((p) => p.lag),
      arrivalRatePerSec: sumOf((p) => p.arrivalRatePerSec),
      consumptionRatePerSec: sumOf((p) => p.consumptionRatePerSec),
    },
    partitions,
  });
}

/** Log-end points before the range, at most one per minute-or-step, oldest first. */
async function lookbackPoints(db: Database, groupId: string, window: SeriesWindow): Promise<PointRow[]> {
  const lookbackMs = Math.min(LOOKBACK_MAX_MS, Math.max(LOOKBACK_MIN_MS, window.toMs - window.fromMs));
  const stepSec = Math.max(60, window.stepMs / 1000);
  const rows = await db.$queryRaw<PointRow[]>`
    SELECT topic, partition, max(sampled_at) AS last_at, max(log_end_offset) AS last_log_end
    FROM lag_sample
    WHERE group_id = ${groupId} AND sampled_at >= ${new Date(window.fromMs - lookbackMs)} AND sampled_at < ${new Date(window.fromMs)}
    GROUP BY topic, partition, date_bin(make_interval(secs => ${stepSec}::double precision), sampled_at, to_timestamp(0))`;
  return rows.sort((a, b) => a.last_at.getTime() - b.last_at.getTime());
}

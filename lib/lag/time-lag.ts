// Lag in time from a per-partition table of (log-end offset, time) points.
//
// A point { offset: O, atMs: t } means: at t the partition's records had offsets < O. The record a group
// waits for is the one at its committed offset C (the committed offset is "next to read"), so:
// - C >= newest O: nothing is waiting: caught up, 0 ms (never NaN, also for idle partitions).
// - C < oldest O: the waiting record existed before the oldest point; we only know the lag is at least
//   now - oldest t (unknown when that is 0: a bound of 0 is no evidence). We never extrapolate beyond the
//   window (kafka-lag-exporter's absurd values on replays).
// - otherwise: C lies between two consecutive points; we take the newest such pair and interpolate the
//   time at which the log end was at C. Taking the newest pair makes flat runs (idle producer) harmless:
//   the pair that leaves the run is the one used.

export interface LogEndPoint {
  /** Log-end offset (high watermark) observed at atMs. */
  offset: number;
  atMs: number;
}

export type TimeLagKind = 'caught-up' | 'interpolated' | 'lower-bound' | 'unknown';

export interface TimeLag {
  /** null only for kind 'unknown'; never negative, never NaN. */
  ms: number | null;
  kind: TimeLagKind;
}

/**
 * Estimates how long the record at `committedOffset` has been waiting.
 *
 * `points` must be oldest first with non-decreasing offsets and times (what `appendLogEndPoint` keeps);
 * anything else, a non-finite number or a negative committed offset throws RangeError, because a table that
 * went backwards (topic recreated, clock jump) cannot give a meaningful answer and silently guessing is what
 * makes time lag untrustworthy. The result is clamped at 0 when `nowMs` is before the interpolated time.
 */
export function estimateTimeLag({
  points,
  committedOffset,
  nowMs,
}: {
  points: readonly LogEndPoint[];
  committedOffset: number;
  nowMs: number;
}): TimeLag {
  if (!Number.isFinite(committedOffset) || committedOffset < 0) {
    throw new RangeError(`committedOffset must be a finite offset >= 0, got ${committedOffset}`);
  }
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite, got ${nowMs}`);
  assertMonotonic(points);

  const oldest = points[0];
  const newest = points[points.length - 1];
  if (oldest === undefined || newest === undefined) return { ms: null, kind: 'unknown' };
  if (committedOffset >= newest.offset) return { ms: 0, kind: 'caught-up' };
  if (committedOffset < oldest.offset) {
    // "At least 0 s" says nothing (the first observation is now): that is unknown, never a claim of 0.
    const atLeastMs = nowMs - oldest.atMs;
    return atLeastMs > 0 ? { ms: atLeastMs, kind: 'lower-bound' } : { ms: null, kind: 'unknown' };
  }

  // Here oldest.offset <= C < newest.offset, so some consecutive pair has lo.offset <= C < hi.offset (hence
  // lo.offset < hi.offset); with non-decreasing offsets it is unique, and it is the newest pair bracketing C.
  for (let i = points.length - 1; i > 0; i -= 1) {
    const lo = points[i - 1];
    const hi = points[i];
    if (lo === undefined || hi === undefined) break;
    if (lo.offset <= committedOffset && committedOffset < hi.offset) {
      const fraction = (committedOffset - lo.offset) / (hi.offset - lo.offset);
      const producedAtMs = lo.atMs + fraction * (hi.atMs - lo.atMs);
      return { ms: Math.max(0, nowMs - producedAtMs), kind: 'interpolated' };
    }
  }
  throw new Error('unreachable: a monotonic table must bracket an offset inside its range');
}

/**
 * Appends a log-end sample to a partition's table and returns the new table (the input is not mutated).
 *
 * Invariants of the result: offsets and times non-decreasing, times strictly increasing between kept points,
 * at most `maxPoints` points (oldest dropped first), and a flat run of equal offsets keeps only its first and
 * last point (kafka-lag-exporter style), so an idle partition costs two points however long it idles while
 * still remembering since when the log end has not moved.
 *
 * Inputs that would break the invariants are handled, not thrown:
 * - a point not newer than the newest one (duplicate or out-of-order sample) is ignored;
 * - a log-end offset below the newest one (topic deleted and recreated, partition truncated) restarts the
 *   table from that point, since older points describe a log that no longer exists.
 * Throws RangeError for non-finite numbers, a negative offset, or maxPoints < 2 (a table needs a pair).
 */
export function appendLogEndPoint(
  points: readonly LogEndPoint[],
  point: LogEndPoint,
  maxPoints: number,
): LogEndPoint[] {
  if (!Number.isInteger(maxPoints) || maxPoints < 2)
    throw new RangeError(`maxPoints must be an integer >= 2, got ${maxPoints}`);
  if (!Number.isFinite(point.offset) || point.offset < 0 || !Number.isFinite(point.atMs)) {
    throw new RangeError(`invalid log-end point ${JSON.stringify(point)}`);
  }
  const newest = points[points.length - 1];
  if (newest !== undefined && point.atMs <= newest.atMs) return points.slice();
  if (newest !== undefined && point.offset < newest.offset) return [{ ...point }];

  const next = points.slice();
  const beforeNewest = points[points.length - 2];
  if (
    newest !== undefined &&
    beforeNewest !== undefined &&
    beforeNewest.offset === newest.offset &&
    newest.offset === point.offset
  ) {
    next[next.length - 1] = { ...point }; // extend the flat run: keep its first point, move its last
  } else {
    next.push({ ...point });
  }
  return next.length > maxPoints ? next.slice(next.length - maxPoints) : next;
}

function assertMonotonic(points: readonly LogEndPoint[]): void {
  let previous: LogEndPoint | undefined;
  for (const [index, point] of points.entries()) {
    if (!Number.isFinite(point.offset) || !Number.isFinite(point.atMs)) {
      throw new RangeError(`log-end point ${index} is not finite: ${JSON.stringify(point)}`);
    }
    if (previous !== undefined && (point.offset < previous.offset || point.atMs < previous.atMs)) {
      throw new RangeError(
        `log-end points must be oldest first with non-decreasing offsets and times; point ${index} ` +
          `${JSON.stringify(point)} follows ${JSON.stringify(previous)}`,
      );
    }
    previous = point;
  }
}

// What the lag charts draw from a series, decided without React: which partitions (the top N by time lag
// now, unless the viewer picked), where the sampler left gaps, and why a range with nothing to draw is empty.

export interface RankablePartition {
  topic: string;
  partition: number;
  lag: Array<number | null>;
  timeLagMs: Array<number | null>;
}

export const partitionKey = (p: { topic: string; partition: number }) => `${p.topic}-${p.partition}`;

function lastKnown(values: Array<number | null>): number | null {
  for (let i = values.length - 1; i >= 0; i--) if (values[i] !== null && values[i] !== undefined) return values[i]!;
  return null;
}

function peak(values: Array<number | null>): number {
  let max = -1;
  for (const v of values) if (v !== null && v > max) max = v;
  return max;
}

/**
 * Partitions worst first: by the newest time lag, then (no time lag known) by the newest offset lag, then by
 * the peak over the range, then by name, so equal partitions keep a stable order between polls.
 */
export function rankPartitions<P extends RankablePartition>(partitions: readonly P[]): P[] {
  const score = (p: P) => ({
    time: lastKnown(p.timeLagMs) ?? -1,
    lag: lastKnown(p.lag) ?? -1,
    peak: Math.max(peak(p.timeLagMs), peak(p.lag)),
  });
  return partitions
    .map((p) => ({ p, s: score(p) }))
    .sort(
      (a, b) =>
        b.s.time - a.s.time ||
        b.s.lag - a.s.lag ||
        b.s.peak - a.s.peak ||
        (a.p.topic === b.p.topic ? a.p.partition - b.p.partition : a.p.topic < b.p.topic ? -1 : 1),
    )
    .map(({ p }) => p);
}

export interface Gap {
  fromMs: number;
  toMs: number;
}

/**
 * Runs of buckets without any sample that lie between buckets with samples: the sampler was down or did not
 * see the group. A gap is only reported when it spans at least `minBuckets` (one missed round is noise).
 */
export function samplerGaps(timesMs: readonly number[], hasSample: readonly boolean[], minBuckets = 2): Gap[] {
  const gaps: Gap[] = [];
  const first = hasSample.indexOf(true);
  const last = hasSample.lastIndexOf(true);
  if (first < 0) return gaps;
  let start = -1;
  for (let i = first; i <= last; i++) {
    if (!hasSample[i] && start < 0) start = i;
    if (hasSample[i] && start >= 0) {
      if (i - start >= minBuckets) gaps.push({ fromMs: timesMs[start]!, toMs: timesMs[i]! });
      start = -1;
    }
  }
  return gaps;
}

/**
 * Why nothing is stored before the group's oldest raw sample: retention deletes whole days, so after it ran the
 * oldest kept sample is at most `rawRetentionDays` + 1 days old and at least `rawRetentionDays`; a group whose
 * oldest sample is younger than `rawRetentionDays` was first sampled then (retention has not reached it).
 */
export function storedFromReason(
  firstSampledAtMs: number,
  nowMs: number,
  rawRetentionDays: number,
): 'first-sampled' | 'past-retention' {
  return nowMs - firstSampledAtMs >= rawRetentionDays * 86_400_000 ? 'past-retention' : 'first-sampled';
}

export type EmptyReason =
  | { kind: 'no-samples-yet' }
  | { kind: 'rollup-not-written'; firstSampledAtMs: number }
  | { kind: 'sampler-gap'; lastSampledAtMs: number | null };

/**
 * Why a range has nothing to draw. `firstSampledAtMs` is the oldest raw sample stored for the group (null:
 * none), `lastSampledAtMs` its newest (the group detail's sampledAt).
 */
export function explainEmptyRange(input: {
  toMs: number;
  source: 'samples' | 'rollup';
  firstSampledAtMs: number | null;
  lastSampledAtMs: number | null;
}): EmptyReason {
  if (input.firstSampledAtMs === null || input.firstSampledAtMs > input.toMs) return { kind: 'no-samples-yet' };
  // Rollups are written once a minute for complete minutes (ten-minute ones for complete ten minutes): a
  // group first sampled minutes ago has raw samples but nothing yet in the rollup a long range reads.
  if (input.source === 'rollup' && input.firstSampledAtMs > input.toMs - 15 * 60_000) {
    return { kind: 'rollup-not-written', firstSampledAtMs: input.firstSampledAtMs };
  }
  return { kind: 'sampler-gap', lastSampledAtMs: input.lastSampledAtMs };
}

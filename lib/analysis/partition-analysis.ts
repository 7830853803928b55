// Pure per-partition analysis of stored lag samples, shared by the overview, the group page and the advisor.
// It only combines the lag math of lib/lag and lib/advisor with the sampler's rows; where the sampler already
// stored a value (time lag, rates) that value wins, and what is computed here says so in its `basis`.

import { estimateRates, type RateEstimate } from '../advisor/rates';
import {
  evaluatePartition,
  WINDOW_CAPACITY,
  type CommitSample,
  type PartitionEvaluation,
  type PartitionStatus,
} from '../lag/partition-status';
import { appendLogEndPoint, estimateTimeLag, type LogEndPoint } from '../lag/time-lag';
import type { TTimeLag, TTimeLagKind } from '../schemas/groups';

/** One stored sample of one partition, offsets as numbers (exact below 2^53, which offsets never reach). */
export interface SamplePoint {
  atMs: number;
  committedOffset: number | null;
  logEndOffset: number;
}

/** What the sampler may have stored with the newest sample; every field may be null (not computed yet). */
export interface StoredLagColumns {
  timeLagMs: number | null;
  timeLagKind: string | null;
  exactTimeLagMs: number | null;
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}

/** Log-end points kept for the fallback estimate; flat runs cost two points, so this spans long idle times. */
export const FALLBACK_MAX_POINTS = 240;
/** Recent sampler rounds whose log ends form the STOP guard's ring (as many as the window holds commits). */
export const RECENT_LOG_END_ROUNDS = WINDOW_CAPACITY;
/** STOP needs at least this many sampler intervals of silence, however little the window spans. */
export const STOP_MIN_SILENCE_INTERVALS = 2;

const STORED_KINDS: ReadonlySet<string> = new Set<TTimeLagKind>([
  'caught-up',
  'interpolated',
  'lower-bound',
  'unknown',
  'exact',
]);

/**
 * Time lag of the record at `committedOffset` as of `nowMs`, from the samples' own log-end offsets over time
 * (each sample says "at atMs the log ended at logEndOffset"): the same estimate the sampler makes from its
 * log-end table, over the history we were given. Older than the oldest sample means 'lower-bound'.
 */
export function timeLagFromSamples(
  history: readonly SamplePoint[],
  committedOffset: number | null,
  nowMs: number,
): TTimeLag {
  if (committedOffset === null) return { ms: null, kind: 'unknown', basis: 'none' };
  let points: LogEndPoint[] = [];
  for (const sample of history) {
    if (sample.atMs > nowMs) break;
    points = appendLogEndPoint(points, { offset: sample.logEndOffset, atMs: sample.atMs }, FALLBACK_MAX_POINTS);
  }
  const estimate = estimateTimeLag({ points, committedOffset, nowMs });
  return { ms: estimate.ms, kind: estimate.kind, basis: estimate.kind === 'unknown' ? 'none' : 'lag-samples' };
}

/**
 * The time lag to show: the exact age the sampler read from the record, else the sampler's interpolation,
 * else our own estimate from the samples (see timeLagFromSamples).
 */
export function resolveTimeLag(
  stored: Pick<StoredLagColumns, 'timeLagMs' | 'timeLagKind' | 'exactTimeLagMs'>,
  history: readonly SamplePoint[],
  committedOffset: number | null,
  nowMs: number,
): TTimeLag {
  if (stored.exactTimeLagMs !== null)
    return { ms: Math.max(0, stored.exactTimeLagMs), kind: 'exact', basis: 'record-timestamp' };
  if (stored.timeLagKind !== null && STORED_KINDS.has(stored.timeLagKind)) {
    const kind = stored.timeLagKind as TTimeLagKind;
    // A lower bound of 0 is no evidence of anything: unknown, never "0 s".
    if (kind === 'unknown' || stored.timeLagMs === null || (kind === 'lower-bound' && stored.timeLagMs <= 0)) {
      return { ms: null, kind: 'unknown', basis: 'sampler' };
    }
    return { ms: Math.max(0, stored.timeLagMs), kind, basis: 'sampler' };
  }
  return timeLagFromSamples(history, committedOffset, nowMs);
}

/**
 * Burrow's window from periodic samples: an entry per observed commit, i.e. the first sample at which each
 * new committed offset was seen (so a consumer that stopped committing stops adding entries, which is what
 * STOP detects), the newest `maxEntries` of them. A gap with no commit restarts nothing: Burrow does not either.
 */
export function commitEntries(history: readonly SamplePoint[], maxEntries = Number.POSITIVE_INFINITY): CommitSample[] {
  const entries: CommitSample[] = [];
  let previous: number | null = null;
  for (const sample of history) {
    if (sample.committedOffset === null) {
      previous = null;
      continue;
    }
    if (sample.committedOffset !== previous) {
      entries.push({ atMs: sample.atMs, committedOffset: sample.committedOffset, logEndOffset: sample.logEndOffset });
    }
    previous = sample.committedOffset;
  }
  return entries.slice(-maxEntries);
}

/** What the history alone cannot tell the partition evaluator (analyzeGroup fills it in). */
export interface PartitionContext {
  /** false: the group has no members now (Empty or Dead). */
  groupHasMembers?: boolean | null;
  /** Whether the partition's owner still commits on any of its partitions (ownerStillCommits). */
  ownerAlive?: boolean | null;
  /**
   * Every commit read from the offsets topic, oldest first, with the log end at that moment; absent or empty:
   * the window is built from the samples (commitEntries), which see only commits that moved the offset.
   */
  commits?: readonly CommitSample[];
}

/** One commit read from the offsets topic: when the coordinator recorded it, and the offset. */
export interface ObservedCommit {
  atMs: number;
  committedOffset: number;
}

/**
 * The window from commits read from the offsets topic, each given the log end of the newest sample at or
 * before it (the oldest sample when it precedes them all). Returns null (the caller uses the samples) when
 * the observations cannot be trusted to be complete: none at or before `nowMs`, no sample, or the newest
 * observed offset is not the newest sampled committed offset (a reader that fell behind or stopped would
 * otherwise hide commits the sampler saw).
 */
export function windowFromObservations(
  observed: readonly ObservedCommit[],
  history: readonly SamplePoint[],
  nowMs: number,
): CommitSample[] | null {
  const commits = observed.filter((c) => c.atMs <= nowMs).sort((a, b) => a.atMs - b.atMs);
  const newestSample = history[history.length - 1];
  const newestCommit = commits[commits.length - 1];
  if (!newestSample || !newestCommit || newestSample.committedOffset !== newestCommit.committedOffset) return null;
  let sampleIndex = 0;
  return commits.map((commit) => {
    while (sampleIndex + 1 < history.length && (history[sampleIndex + 1] as SamplePoint).atMs <= commit.atMs) {
      sampleIndex += 1;
    }
    return { ...commit, logEndOffset: (history[sampleIndex] as SamplePoint).logEndOffset };
  });
}

/** The sampler's interval as the history shows it: the median gap between consecutive samples (0 with < 2). */
export function sampleIntervalOf(history: readonly SamplePoint[]): number {
  const gaps = history
    .slice(1)
    .map((s, i) => s.atMs - (history[i] as SamplePoint).atMs)
    .filter((gap) => gap > 0)
    .sort((a, b) => a - b);
  return gaps.length === 0 ? 0 : (gaps[Math.floor(gaps.length / 2)] as number);
}

/**
 * Burrow's evaluation (lib/lag/partition-status.ts evaluatePartition) of one partition: the window is the
 * newest WINDOW_CAPACITY commits (from the offsets topic when given, else from the samples), the current lag
 * the newest sample's, the ring the newest RECENT_LOG_END_ROUNDS samples' log ends, and STOP's minimum
 * silence STOP_MIN_SILENCE_INTERVALS sampler intervals. A partition never committed is OK with an empty window.
 */
export function evaluatePartitionHistory(
  history: readonly SamplePoint[],
  nowMs: number,
  context: PartitionContext = {},
): PartitionEvaluation {
  const newest = history[history.length - 1];
  const window = context.commits && context.commits.length > 0 ? context.commits : commitEntries(history);
  const current =
    newest && newest.committedOffset !== null
      ? { committedOffset: newest.committedOffset, logEndOffset: newest.logEndOffset }
      : { committedOffset: 0, logEndOffset: 0 };
  return evaluatePartition({
    window: newest?.committedOffset === null ? [] : window.slice(-WINDOW_CAPACITY),
    current,
    recentLogEnds: history.slice(-RECENT_LOG_END_ROUNDS).map((s) => s.logEndOffset),
    nowMs,
    minStopSilenceMs: minStopSilenceMs(window.length, sampleIntervalOf(history)),
    groupHasMembers: context.groupHasMembers,
    ownerAlive: context.ownerAlive,
  });
}

/**
 * STOP's minimum silence: STOP_MIN_SILENCE_INTERVALS sampler intervals; with a single commit, whose window
 * shows no cadence at all (a slow consumer's first commit looks like a dead one's), RECENT_LOG_END_ROUNDS; with
 * a single sample (no interval known yet) silence alone is never a STOP.
 */
export function minStopSilenceMs(commits: number, sampleIntervalMs: number): number {
  if (sampleIntervalMs <= 0) return Number.POSITIVE_INFINITY; // one sample: no cadence known, nothing to judge
  return (commits < 2 ? RECENT_LOG_END_ROUNDS : STOP_MIN_SILENCE_INTERVALS) * sampleIntervalMs;
}

/** The status alone; see evaluatePartitionHistory. */
export function partitionStatus(
  history: readonly SamplePoint[],
  nowMs: number,
  context?: PartitionContext,
): PartitionStatus {
  return evaluatePartitionHistory(history, nowMs, context).status;
}

/**
 * Whether a member still commits: Burrow's STOP rule applied to the commits of all the partitions it owns
 * together (newest WINDOW_CAPACITY of them): alive unless the time since its newest commit exceeds both the
 * span of those commits and `minSilenceMs` (commits at the same instant, one request for several partitions,
 * count once). No commit at all: not alive (nothing shows it works).
 */
export function ownerStillCommits(commitTimesMs: readonly number[], nowMs: number, minSilenceMs: number): boolean {
  const newest = [...new Set(commitTimesMs)].sort((a, b) => a - b).slice(-WINDOW_CAPACITY);
  const first = newest[0];
  const last = newest[newest.length - 1];
  if (first === undefined || last === undefined) return false;
  return nowMs - last <= Math.max(last - first, minSilenceMs);
}

/**
 * Rates over the window ending at the newest sample. Consumption needs a committed offset, so it is measured
 * over the newest run of samples that all have one (a group that started committing mid-window is measured
 * from then on); with fewer than two such samples only the arrival rate (the log end does not depend on the
 * group) is measured.
 */
export function ratesFromSamples(history: readonly SamplePoint[], windowMs: number): RateEstimate {
  const newest = history[history.length - 1];
  const inWindow = newest ? history.filter((s) => s.atMs >= newest.atMs - windowMs) : [];
  let runStart = inWindow.length;
  while (runStart > 0 && inWindow[runStart - 1]!.committedOffset !== null) runStart -= 1;
  const committedRun = inWindow.slice(runStart);
  if (committedRun.length >= 2) {
    return estimateRates(
      committedRun.map((s) => ({
        atMs: s.atMs,
        committedOffset: s.committedOffset as number,
        logEndOffset: s.logEndOffset,
      })),
      windowMs,
    );
  }
  const arrivalOnly = estimateRates(
    inWindow.map((s) => ({ atMs: s.atMs, committedOffset: s.logEndOffset, logEndOffset: s.logEndOffset })),
    windowMs,
  );
  return { ...arrivalOnly, consumptionRatePerSec: null, hadBacklogThroughout: false };
}

/**
 * One consumer's partitions summed per sampler round (rounds where any of them has no commit are left out),
 * so estimateRates can judge the consumer as a whole: it never idled when, in every interval, it committed
 * fewer records than were waiting on all its partitions together at the interval's start.
 */
export function sumPartitionSamples(histories: ReadonlyArray<readonly SamplePoint[]>): SamplePoint[] {
  const byTime = new Map<number, { committed: number; logEnd: number; count: number; complete: boolean }>();
  for (const history of histories) {
    for (const s of history) {
      let round = byTime.get(s.atMs);
      if (!round) byTime.set(s.atMs, (round = { committed: 0, logEnd: 0, count: 0, complete: true }));
      round.count += 1;
      round.logEnd += s.logEndOffset;
      if (s.committedOffset === null) round.complete = false;
      else round.committed += s.committedOffset;
    }
  }
  return [...byTime.entries()]
    .filter(([, r]) => r.count === histories.length)
    .sort(([a], [b]) => a - b)
    .map(([atMs, r]) => ({ atMs, logEndOffset: r.logEnd, committedOffset: r.complete ? r.committed : null }));
}

/**
 * Processing measured between commits: the samples at which the committed offset changed, within the window
 * (the first of them is the start, so work committed before the window is not counted), fed to estimateRates.
 * Consumers often commit in bursts (kafkajs commits a whole fetched batch at once, which can take minutes);
 * measured from the window's edges such a consumer looks slower than it is, measured commit to commit it
 * does not. Fewer than two commits in the window: nothing is measured (every rate null).
 */
export function ratesBetweenCommits(samples: readonly SamplePoint[], windowMs: number): RateEstimate {
  const newest = samples[samples.length - 1];
  const inWindow = newest ? samples.filter((s) => s.atMs >= newest.atMs - windowMs) : [];
  const commits: SamplePoint[] = [];
  for (let i = 1; i < inWindow.length; i++) {
    const current = inWindow[i]!;
    const previous = inWindow[i - 1]!;
    if (
      current.committedOffset !== null &&
      previous.committedOffset !== null &&
      current.committedOffset !== previous.committedOffset
    ) {
      commits.push(current);
    }
  }
  if (commits.length < 2) {
    return {
      arrivalRatePerSec: null,
      consumptionRatePerSec: null,
      hadBacklogThroughout: false,
      spanMs: 0,
      sampleCount: commits.length,
    };
  }
  return ratesFromSamples(commits, windowMs);
}

/** Worst first for sorting: an unknown time lag sorts after every known one. */
export function compareTimeLagDesc(a: TTimeLag | null, b: TTimeLag | null): number {
  return (b?.ms ?? -1) - (a?.ms ?? -1);
}

/**
 * Total lag per bucket over [fromMs, toMs): the sum of known partition lags per sampler round, then the
 * maximum round per bucket, so a spike is never averaged away; a bucket with no round is null (a gap).
 */
export function lagTrend(
  rounds: ReadonlyArray<{ atMs: number; totalLag: number | null }>,
  fromMs: number,
  toMs: number,
  buckets: number,
): Array<{ atMs: number; totalLag: number | null }> {
  if (buckets < 1 || toMs <= fromMs) return [];
  const width = (toMs - fromMs) / buckets;
  const out = Array.from({ length: buckets }, (_, i) => ({
    atMs: Math.round(fromMs + i * width),
    totalLag: null as number | null,
  }));
  for (const round of rounds) {
    if (round.totalLag === null || round.atMs < fromMs || round.atMs >= toMs) continue;
    const bucket = out[Math.min(buckets - 1, Math.floor((round.atMs - fromMs) / width))];
    if (bucket) bucket.totalLag = Math.max(bucket.totalLag ?? 0, round.totalLag);
  }
  return out;
}

// Burrow-style partition status (no thresholds needed) and the group status Warden shows on its dashboard.

import { formatDuration, formatNumber } from '../format';

/** What Burrow's evaluator can say of a partition's commits. */
export type BurrowStatus = 'OK' | 'WARN' | 'STOP' | 'STALL' | 'REWIND';

/**
 * A partition's status: Burrow's, or LOST while it has a loss episode nobody acknowledged (Kafka's retention
 * deleted records the group never read; lib/analysis/retention.ts). LOST is louder than every Burrow status:
 * those say the group may lose time, LOST says it lost data.
 */
export type PartitionStatus = BurrowStatus | 'LOST';

/** One commit in the window: when it was made, the offset committed and the log end at that moment. */
export interface CommitSample {
  atMs: number;
  committedOffset: number;
  logEndOffset: number;
}

/** Burrow's window size: the newest this many commits are evaluated. */
export const WINDOW_CAPACITY = 10;

export interface PartitionEvaluationInput {
  /** Observed commits, oldest first; only the newest `windowCapacity` are evaluated (fewer: a partial window). */
  window: readonly CommitSample[];
  /** The partition now: the newest sampled committed offset and log end. Its lag is the current lag. */
  current: { committedOffset: number; logEndOffset: number };
  /** Log-end offsets of the most recent sampler rounds (the ring), oldest first. */
  recentLogEnds: readonly number[];
  nowMs: number;
  allowedLag?: number;
  windowCapacity?: number;
  /** STOP needs at least this much silence even when the window spans less (2 sampler intervals); Infinity: never. */
  minStopSilenceMs?: number;
  /** false: the group has no members (Empty or Dead). undefined/null: not known. */
  groupHasMembers?: boolean | null;
  /**
   * Whether the partition's owner still commits (Burrow's STOP rule applied to all its partitions' commits
   * together). true: a busy owner working through its partitions in turn, so this one's silence is not a stop
   * until OWNER_TURN_MAX_MS. undefined/null: not known (treated as not alive).
   */
  ownerAlive?: boolean | null;
}

export interface PartitionEvaluation {
  status: BurrowStatus;
  /** Why, in on-call words ("no commit for 4 min 10 s; lag 3,012 and growing 8/s"); null when OK. */
  reason: string | null;
  /** Commits evaluated, and how full the window is (commits / capacity, at most 1). */
  commits: number;
  capacity: number;
  complete: number;
  lastCommitAtMs: number | null;
  currentLag: number;
  /** Lag change per second since the last commit; null without a commit or without time since. */
  lagRatePerSec: number | null;
}

/** A busy owner's silence on one partition becomes STOP after this long: it may be wedged on it. */
export const OWNER_TURN_MAX_MS = 10 * 60_000;

/**
 * Burrow's evaluator as its code has it today, with Warden's additions, in this order:
 * 1. Current lag (now's log end minus now's committed offset) at or below `allowedLag`: OK, whatever the window.
 * 2. STOP, checked first and regardless of the lag at earlier commits:
 *    - the group has no members and the log end moved past the last commit (nobody will ever commit); or
 *    - now - last commit > max(window span (first to last commit), minStopSilenceMs), unless one of the
 *      recent log ends is at or below the last committed offset (caught up moments ago: a slow or bursty
 *      topic, not a dead consumer), or the owner is alive and the silence is under OWNER_TURN_MAX_MS.
 * 3. REWIND: a committed offset below the one before it, unless a later commit is back at or above that one.
 * 4. Only with at least two commits, each with lag above `allowedLag`: STALL when every committed offset is
 *    equal (committing, not moving), WARN when the lag never decreased from one commit to the next.
 * 5. OK. An empty window (nothing committed that we saw) is OK: there is nothing to judge.
 * Throws RangeError for non-finite numbers, commits out of time order or bad limits.
 */
export function evaluatePartition(input: PartitionEvaluationInput): PartitionEvaluation {
  const { nowMs, current, recentLogEnds } = input;
  const allowedLag = input.allowedLag ?? 0;
  const capacity = input.windowCapacity ?? WINDOW_CAPACITY;
  const minSilence = input.minStopSilenceMs ?? 0;
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite, got ${nowMs}`);
  if (!Number.isFinite(allowedLag) || allowedLag < 0)
    throw new RangeError(`allowedLag must be >= 0, got ${allowedLag}`);
  if (!Number.isInteger(capacity) || capacity < 1)
    throw new RangeError(`windowCapacity must be an integer >= 1, got ${capacity}`);
  if (Number.isNaN(minSilence) || minSilence < 0)
    throw new RangeError(`minStopSilenceMs must be >= 0, got ${minSilence}`);
  if (![current.committedOffset, current.logEndOffset, ...recentLogEnds].every(Number.isFinite)) {
    throw new RangeError('current offsets and recent log ends must be finite');
  }
  assertTimeOrdered(input.window);

  const window = input.window.slice(-capacity);
  const currentLag = Math.max(0, current.logEndOffset - current.committedOffset);
  const first = window[0];
  const last = window[window.length - 1];
  const base = {
    commits: window.length,
    capacity,
    complete: Math.min(1, window.length / capacity),
    lastCommitAtMs: last?.atMs ?? null,
    currentLag,
  };
  const silenceMs = last === undefined ? 0 : Math.max(0, nowMs - last.atMs);
  const lagRatePerSec = last === undefined || silenceMs === 0 ? null : (currentLag - lagOf(last)) / (silenceMs / 1000);
  const result = (status: BurrowStatus, reason: string | null): PartitionEvaluation => ({
    status,
    reason,
    ...base,
    lagRatePerSec,
  });
  if (first === undefined || last === undefined || currentLag <= allowedLag) return result('OK', null);

  const stopReason = `no commit for ${formatDuration(silenceMs / 1000)}; lag ${formatNumber(currentLag)}${lagTrendText(lagRatePerSec)}`;
  if (input.groupHasMembers === false && current.logEndOffset > last.committedOffset && silenceMs > 0) {
    return result('STOP', `the group has no members; ${stopReason}`);
  }
  const overdue = silenceMs > Math.max(last.atMs - first.atMs, minSilence);
  const caughtUpRecently = recentLogEnds.some((logEnd) => logEnd <= last.committedOffset);
  const ownerBusyElsewhere = input.ownerAlive === true && silenceMs < OWNER_TURN_MAX_MS;
  if (overdue && !caughtUpRecently && !ownerBusyElsewhere) return result('STOP', stopReason);

  const rewind = unrecoveredRewind(window);
  if (rewind) {
    return result(
      'REWIND',
      `committed offset moved back from ${formatNumber(rewind.from)} to ${formatNumber(rewind.to)} and no later commit made it up`,
    );
  }
  const lags = window.map(lagOf);
  if (window.length >= 2 && lags.every((lag) => lag > allowedLag)) {
    if (window.every((c) => c.committedOffset === first.committedOffset)) {
      return result(
        'STALL',
        `committed offset ${formatNumber(first.committedOffset)} at each of ${window.length} commits; lag ${formatNumber(currentLag)}`,
      );
    }
    if (lags.every((lag, i) => i === 0 || lag >= (lags[i - 1] as number))) {
      return result('WARN', `lag grew at each of ${window.length} commits, to ${formatNumber(currentLag)}`);
    }
  }
  return result('OK', null);
}

/** The status alone; see evaluatePartition. */
export function evaluatePartitionStatus(input: PartitionEvaluationInput): BurrowStatus {
  return evaluatePartition(input).status;
}

/** An entry's lag in offsets; a committed offset past the sampled log end counts as no lag. */
export function lagOf(sample: CommitSample): number {
  return Math.max(0, sample.logEndOffset - sample.committedOffset);
}

function lagTrendText(ratePerSec: number | null): string {
  if (ratePerSec === null || ratePerSec === 0) return ', not shrinking';
  const rate = formatNumber(Math.abs(ratePerSec));
  return ratePerSec > 0 ? ` and growing ${rate}/s` : ` and shrinking ${rate}/s`;
}

/** The first rewind that no later commit made up: a commit below its predecessor, never back at or above it. */
function unrecoveredRewind(window: readonly CommitSample[]): { from: number; to: number } | null {
  for (let i = 1; i < window.length; i++) {
    const before = (window[i - 1] as CommitSample).committedOffset;
    const after = (window[i] as CommitSample).committedOffset;
    if (after >= before) continue;
    if (!window.slice(i + 1).some((later) => later.committedOffset >= before)) return { from: before, to: after };
  }
  return null;
}

/** Throws RangeError naming the first sample with a non-finite number or out of time order (oldest first). */
export function assertTimeOrdered(samples: readonly CommitSample[]): void {
  samples.forEach((sample, i) => {
    if (![sample.atMs, sample.committedOffset, sample.logEndOffset].every(Number.isFinite)) {
      throw new RangeError(`sample ${i} has a non-finite number: ${JSON.stringify(sample)}`);
    }
    const previous = samples[i - 1];
    if (previous !== undefined && sample.atMs < previous.atMs) {
      throw new RangeError(`samples must be oldest first; sample ${i} at ${sample.atMs} follows ${previous.atMs}`);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// Group status

export type GroupStatus = 'OK' | 'WARN' | 'ERR' | 'QUARANTINED' | 'LOST';

export interface PartitionRef {
  topic: string;
  partition: number;
}

export interface GroupStatusResult {
  status: GroupStatus;
  /** Most severe first; every fact that contributed, including ones outranked by the final status. */
  reasons: string[];
}

/**
 * Combines partition statuses, Warden's quarantines and a time-lag objective into one group status.
 *
 * Precedence, chosen for the on-call engineer (worst first):
 * 0. LOST: some partition is LOST (records were deleted before the group read them, and nobody has
 *    acknowledged it yet). Data is gone: that outranks every question of time. Its line quotes what was lost.
 *    A LOST partition's Burrow status is not judged again (LOST replaced it); quarantined, it is also listed
 *    as quarantined.
 * 1. ERR: some partition is STOP, STALL or REWIND and no quarantine explains it. Nothing is moving and
 *    nobody knows why: the consumer may be dead or wedged. Page.
 * 2. QUARANTINED: some partition is quarantined. Warden stopped it on purpose on a record it could not
 *    process; it needs a human decision (fix, skip, dead-letter) but the cause is known and shown.
 *    A quarantined partition's own STOP/STALL/WARN are the expected consequences of the quarantine (its
 *    commit cannot pass the held record), so they count as QUARANTINED, not ERR. REWIND stays ERR: a
 *    quarantine never moves a commit backwards.
 * 3. WARN: some partition is WARN (lag growing at every commit), or the worst time lag is above the
 *    objective (strictly; a lag equal to the objective meets it).
 * 4. OK otherwise. An unknown time lag (null) never raises the status; it is mentioned when an objective
 *    is set, so "OK" is not mistaken for "within objective", and while any lagging partition's time lag is
 *    unknown the group is never said to be within the objective.
 * A partition's `reason` (evaluatePartition) is quoted in its line.
 * `timeLagObjectiveMs` null means no objective.
 */
export function combineGroupStatus({
  partitionStatuses,
  quarantinedPartitions,
  worstTimeLagMs,
  timeLagObjectiveMs,
  unknownTimeLagPartitions = 0,
}: {
  partitionStatuses: ReadonlyArray<PartitionRef & { status: PartitionStatus; reason?: string | null }>;
  quarantinedPartitions: readonly PartitionRef[];
  worstTimeLagMs: number | null;
  timeLagObjectiveMs: number | null;
  /** Lagging partitions whose time lag is unknown: the objective cannot be said to be met for them. */
  unknownTimeLagPartitions?: number;
}): GroupStatusResult {
  if (worstTimeLagMs !== null && !(Number.isFinite(worstTimeLagMs) && worstTimeLagMs >= 0)) {
    throw new RangeError(`worstTimeLagMs must be null or >= 0, got ${worstTimeLagMs}`);
  }
  if (timeLagObjectiveMs !== null && !(Number.isFinite(timeLagObjectiveMs) && timeLagObjectiveMs >= 0)) {
    throw new RangeError(`timeLagObjectiveMs must be null or >= 0, got ${timeLagObjectiveMs}`);
  }

  const quarantined = new Set(quarantinedPartitions.map(keyOf));
  const lost: string[] = [];
  const err: string[] = [];
  const quarantine: string[] = [];
  const warn: string[] = [];
  const notes: string[] = [];

  for (const ref of sortRefs(quarantinedPartitions)) {
    const status = partitionStatuses.find((s) => keyOf(s) === keyOf(ref))?.status;
    const explained =
      status === 'STOP' || status === 'STALL' || status === 'WARN'
        ? ` (its ${status} is explained by the quarantine)`
        : '';
    quarantine.push(`${keyOf(ref)} is quarantined${explained}`);
  }
  for (const entry of sortRefs(partitionStatuses)) {
    const isQuarantined = quarantined.has(keyOf(entry));
    const why = (fallback: string) => `${keyOf(entry)} ${entry.status}: ${entry.reason ?? fallback}`;
    if (entry.status === 'LOST') lost.push(why('records were deleted before the group read them'));
    else if (entry.status === 'REWIND') err.push(why('its committed offset moved backwards'));
    else if (isQuarantined) continue;
    else if (entry.status === 'STOP') err.push(why('the consumer stopped committing while lagging'));
    else if (entry.status === 'STALL') err.push(why('committing the same offset while lagging'));
    else if (entry.status === 'WARN') warn.push(why('lag grew at every commit in the window'));
  }
  if (timeLagObjectiveMs !== null) {
    const objective = formatDuration(timeLagObjectiveMs / 1000);
    const unknown =
      unknownTimeLagPartitions > 0
        ? `time lag unknown for ${unknownTimeLagPartitions} lagging partition${unknownTimeLagPartitions === 1 ? '' : 's'}; objective ${objective} not checked for ${unknownTimeLagPartitions === 1 ? 'it' : 'them'}`
        : null;
    if (worstTimeLagMs !== null && worstTimeLagMs > timeLagObjectiveMs) {
      warn.push(`worst time lag ${formatDuration(worstTimeLagMs / 1000)} is above the ${objective} objective`);
    } else if (unknown !== null) notes.push(unknown);
    else if (worstTimeLagMs === null) notes.push(`time lag unknown; objective ${objective} not checked`);
    else notes.push(`worst time lag ${formatDuration(worstTimeLagMs / 1000)} is within the ${objective} objective`);
    if (unknown !== null && worstTimeLagMs !== null && worstTimeLagMs > timeLagObjectiveMs) notes.push(unknown);
  }

  const status: GroupStatus =
    lost.length > 0
      ? 'LOST'
      : err.length > 0
        ? 'ERR'
        : quarantine.length > 0
          ? 'QUARANTINED'
          : warn.length > 0
            ? 'WARN'
            : 'OK';
  const reasons = [...lost, ...err, ...quarantine, ...warn, ...notes];
  if (status === 'OK') {
    reasons.unshift(
      partitionStatuses.length === 0 ? 'no partitions evaluated' : `all ${partitionStatuses.length} partitions OK`,
    );
  }
  return { status, reasons };
}

function keyOf(ref: PartitionRef): string {
  return `${ref.topic}-${ref.partition}`;
}

function sortRefs<T extends PartitionRef>(refs: readonly T[]): T[] {
  return [...refs].sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

// Burrow-style partition status (no thresholds needed) and the group status Warden shows on its dashboard.

import { formatDuration } from '../format';

export type PartitionStatus = 'OK' | 'WARN' | 'STOP' | 'STALL' | 'REWIND';

export interface CommitSample {
  atMs: number;
  committedOffset: number;
  logEndOffset: number;
}

/**
 * Burrow's evaluation rules in their documented form, listed below (docs/decisions.md,
 * "Scenarios", says where Burrow's current code differs). `samples` is the window (oldest first, one entry per
 * observed commit): the caller passes the last N commits; every entry given is evaluated. An entry's lag is
 * max(0, logEndOffset - committedOffset); the current lag is the last entry's.
 *
 * - Fewer than `minSamples` entries: OK (not enough history to judge).
 * - Only when the current lag is above `allowedLag` AND every entry's lag is above it, the first that holds:
 *   REWIND (some committed offset is lower than the previous one), STOP (now - last entry time >
 *   last entry time - first entry time: the consumer stopped committing), STALL (all committed offsets
 *   equal), WARN (the lag never decreased between consecutive entries).
 * - Otherwise OK.
 *
 * Note: the released Burrow code checks STOP before the "lag above at every entry" condition; we follow the
 * written rule, so a window that once reached the allowed lag is OK even if commits stopped since.
 * Throws RangeError for non-finite numbers, entries out of time order, allowedLag < 0 or minSamples < 1.
 */
export function evaluatePartitionStatus({
  samples,
  nowMs,
  allowedLag = 0,
  minSamples = 10,
}: {
  samples: readonly CommitSample[];
  nowMs: number;
  allowedLag?: number;
  minSamples?: number;
}): PartitionStatus {
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be finite, got ${nowMs}`);
  if (!Number.isFinite(allowedLag) || allowedLag < 0)
    throw new RangeError(`allowedLag must be >= 0, got ${allowedLag}`);
  if (!Number.isInteger(minSamples) || minSamples < 1)
    throw new RangeError(`minSamples must be an integer >= 1, got ${minSamples}`);
  assertTimeOrdered(samples);

  const first = samples[0];
  const last = samples[samples.length - 1];
  if (first === undefined || last === undefined || samples.length < minSamples) return 'OK';

  const lags = samples.map(lagOf);
  if (!lags.every((lag) => lag > allowedLag)) return 'OK'; // includes the current (last) lag

  const pairs = samples.slice(1).map((sample, i) => ({ previous: samples[i] as CommitSample, sample, i }));
  if (pairs.some(({ previous, sample }) => sample.committedOffset < previous.committedOffset)) return 'REWIND';
  if (nowMs - last.atMs > last.atMs - first.atMs) return 'STOP';
  if (samples.every((sample) => sample.committedOffset === first.committedOffset)) return 'STALL';
  if (pairs.every(({ i }) => (lags[i + 1] as number) >= (lags[i] as number))) return 'WARN';
  return 'OK';
}

/** An entry's lag in offsets; a committed offset past the sampled log end counts as no lag. */
export function lagOf(sample: CommitSample): number {
  return Math.max(0, sample.logEndOffset - sample.committedOffset);
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

export type GroupStatus = 'OK' | 'WARN' | 'ERR' | 'QUARANTINED';

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
 *    is set, so "OK" is not mistaken for "within objective".
 * `timeLagObjectiveMs` null means no objective.
 */
export function combineGroupStatus({
  partitionStatuses,
  quarantinedPartitions,
  worstTimeLagMs,
  timeLagObjectiveMs,
}: {
  partitionStatuses: ReadonlyArray<PartitionRef & { status: PartitionStatus }>;
  quarantinedPartitions: readonly PartitionRef[];
  worstTimeLagMs: number | null;
  timeLagObjectiveMs: number | null;
}): GroupStatusResult {
  if (worstTimeLagMs !== null && !(Number.isFinite(worstTimeLagMs) && worstTimeLagMs >= 0)) {
    throw new RangeError(`worstTimeLagMs must be null or >= 0, got ${worstTimeLagMs}`);
  }
  if (timeLagObjectiveMs !== null && !(Number.isFinite(timeLagObjectiveMs) && timeLagObjectiveMs >= 0)) {
    throw new RangeError(`timeLagObjectiveMs must be null or >= 0, got ${timeLagObjectiveMs}`);
  }

  const quarantined = new Set(quarantinedPartitions.map(keyOf));
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
    if (entry.status === 'REWIND') err.push(`${keyOf(entry)} REWIND: its committed offset moved backwards`);
    else if (isQuarantined) continue;
    else if (entry.status === 'STOP') err.push(`${keyOf(entry)} STOP: the consumer stopped committing while lagging`);
    else if (entry.status === 'STALL') err.push(`${keyOf(entry)} STALL: committing the same offset while lagging`);
    else if (entry.status === 'WARN') warn.push(`${keyOf(entry)} WARN: lag grew at every commit in the window`);
  }
  if (timeLagObjectiveMs !== null) {
    const objective = formatDuration(timeLagObjectiveMs / 1000);
    if (worstTimeLagMs === null) notes.push(`time lag unknown; objective ${objective} not checked`);
    else if (worstTimeLagMs > timeLagObjectiveMs) {
      warn.push(`worst time lag ${formatDuration(worstTimeLagMs / 1000)} is above the ${objective} objective`);
    } else notes.push(`worst time lag ${formatDuration(worstTimeLagMs / 1000)} is within the ${objective} objective`);
  }

  const status: GroupStatus =
    err.length > 0 ? 'ERR' : quarantine.length > 0 ? 'QUARANTINED' : warn.length > 0 ? 'WARN' : 'OK';
  const reasons = [...err, ...quarantine, ...warn, ...notes];
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

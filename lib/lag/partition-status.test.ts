import { describe, expect, it } from 'vitest';
import {
  type CommitSample,
  combineGroupStatus,
  evaluatePartition,
  lagOf,
  OWNER_TURN_MAX_MS,
  type PartitionEvaluation,
  type PartitionEvaluationInput,
  type PartitionStatus,
} from './partition-status';

/** One commit per second from t=0: [committedOffset, logEndOffset] pairs. */
function windowOf(entries: Array<[number, number]>, stepMs = 1_000): CommitSample[] {
  return entries.map(([committedOffset, logEndOffset], i) => ({ atMs: i * stepMs, committedOffset, logEndOffset }));
}
/** Ten commits, committed advancing by `step`, log end `lag` ahead plus `growth` more each commit. */
function steady({ step, lag, growth = 0 }: { step: number; lag: number; growth?: number }): CommitSample[] {
  return windowOf(Array.from({ length: 10 }, (_, i) => [i * step, i * step + lag + i * growth] as [number, number]));
}
// The window spans 0..9 s; STOP needs now - 9 s > 9 s, i.e. now > 18 s.
const FRESH = 10_000;

/** Evaluates a window whose newest commit is the current state, unless `logEnd` moves the log end on. */
function evaluate(
  window: CommitSample[],
  nowMs: number,
  extra: Partial<PartitionEvaluationInput> & { logEnd?: number } = {},
): PartitionEvaluation {
  const last = window.at(-1);
  const current = extra.current ?? {
    committedOffset: last?.committedOffset ?? 0,
    logEndOffset: extra.logEnd ?? last?.logEndOffset ?? 0,
  };
  return evaluatePartition({ window, current, recentLogEnds: [current.logEndOffset], nowMs, ...extra });
}
const statusOf = (...args: Parameters<typeof evaluate>): PartitionStatus => evaluate(...args).status;

describe('evaluatePartition', () => {
  it('is OK whatever the window says when the current lag is at or below the allowed lag', () => {
    const stalled = steady({ step: 0, lag: 50 });
    expect(statusOf(stalled, 1_000_000, { logEnd: 0 })).toBe('OK');
    expect(statusOf(stalled, 1_000_000, { allowedLag: 50 })).toBe('OK');
    expect(statusOf(stalled, 1_000_000, { allowedLag: 49 })).toBe('STOP');
  });

  it('is OK with an empty window: nothing committed that could be judged', () => {
    expect(evaluate([], 1_000_000, { current: { committedOffset: 0, logEndOffset: 500 } })).toMatchObject({
      status: 'OK',
      commits: 0,
      complete: 0,
    });
  });

  it('checks STOP first: a consumer caught up at earlier commits that stopped is STOP, not OK', () => {
    const window = windowOf([[0, 0], ...Array.from({ length: 9 }, (_, i) => [i + 1, 100] as [number, number])]);
    expect(statusOf(window, FRESH)).toBe('OK');
    expect(statusOf(window, 18_001)).toBe('STOP');
  });

  it('is STOP when the time since the last commit exceeds the window span, strictly', () => {
    const samples = steady({ step: 10, lag: 50 });
    expect(statusOf(samples, 18_000)).toBe('WARN');
    expect(statusOf(samples, 18_001)).toBe('STOP');
  });

  it('is not STOP while a recent log end is at or below the last committed offset (caught up moments ago)', () => {
    const samples = steady({ step: 10, lag: 0 });
    const last = samples.at(-1)!;
    const current = { committedOffset: last.committedOffset, logEndOffset: last.committedOffset + 30 };
    const ring = [last.committedOffset, last.committedOffset + 10, last.committedOffset + 30];
    expect(statusOf(samples, 60_000, { current, recentLogEnds: ring })).toBe('OK');
    expect(statusOf(samples, 60_000, { current, recentLogEnds: ring.slice(1) })).toBe('STOP');
  });

  it('needs at least minStopSilenceMs of silence, however little the window spans', () => {
    const single = windowOf([[10, 40]]);
    expect(statusOf(single, 5_000, { minStopSilenceMs: 10_000 })).toBe('OK');
    expect(statusOf(single, 10_001, { minStopSilenceMs: 10_000 })).toBe('STOP');
  });

  it('is STOP at once when the group has no members and records arrived after the last commit', () => {
    const samples = steady({ step: 10, lag: 0 });
    const last = samples.at(-1)!;
    const current = { committedOffset: last.committedOffset, logEndOffset: last.committedOffset + 30 };
    const gone = { current, recentLogEnds: [last.committedOffset, current.logEndOffset], groupHasMembers: false };
    expect(evaluate(samples, last.atMs + 5_000, gone)).toMatchObject({
      status: 'STOP',
      reason: 'the group has no members; no commit for 5 s; lag 30 and growing 6/s',
    });
    expect(statusOf(samples, last.atMs + 5_000, { ...gone, groupHasMembers: true })).toBe('OK');
  });

  it('is not STOP while the owner keeps committing its other partitions, until OWNER_TURN_MAX_MS', () => {
    const samples = steady({ step: 10, lag: 50 });
    expect(statusOf(samples, 60_000, { ownerAlive: true })).toBe('WARN');
    expect(statusOf(samples, 9_000 + OWNER_TURN_MAX_MS, { ownerAlive: true })).toBe('STOP');
    expect(statusOf(samples, 60_000, { ownerAlive: false })).toBe('STOP');
  });

  it('gives the STOP reason with the silence, the lag and its rate', () => {
    const samples = steady({ step: 10, lag: 12 });
    const result = evaluate(samples, 9_000 + 250_000, { current: { committedOffset: 90, logEndOffset: 3_102 } });
    expect(result).toMatchObject({
      status: 'STOP',
      reason: 'no commit for 4 min 10 s; lag 3,012 and growing 12/s',
      currentLag: 3_012,
      lastCommitAtMs: 9_000,
    });
    const flat = evaluate(samples, 60_000);
    expect(flat.reason).toBe('no commit for 51 s; lag 12, not shrinking');
  });

  it('is REWIND when a committed offset goes backwards and no later commit made it up', () => {
    const rewound = windowOf([
      [100, 500],
      [110, 500],
      [120, 500],
      [5, 500],
      [15, 500],
      [25, 500],
    ]);
    expect(evaluate(rewound, 6_000)).toMatchObject({
      status: 'REWIND',
      reason: 'committed offset moved back from 120 to 5 and no later commit made it up',
    });
    const madeUp = windowOf([
      [100, 500],
      [110, 500],
      [90, 500],
      [120, 500],
      [130, 500],
    ]);
    expect(statusOf(madeUp, 5_000)).toBe('OK');
    const atEqual = windowOf([
      [100, 500],
      [110, 500],
      [90, 500],
      [110, 500],
    ]);
    expect(statusOf(atEqual, 4_000)).not.toBe('REWIND');
  });

  it('is STALL when every commit in the window committed the same offset while lagging', () => {
    expect(evaluate(steady({ step: 0, lag: 50, growth: 7 }), FRESH)).toMatchObject({
      status: 'STALL',
      reason: 'committed offset 0 at each of 10 commits; lag 113',
    });
  });

  it('is STOP before STALL when a stalled consumer also stopped committing', () => {
    expect(statusOf(steady({ step: 0, lag: 50 }), 100_000)).toBe('STOP');
  });

  it('is WARN when the lag never decreased, constant steps included', () => {
    expect(statusOf(steady({ step: 10, lag: 50, growth: 5 }), FRESH)).toBe('WARN');
    expect(statusOf(steady({ step: 10, lag: 50 }), FRESH)).toBe('WARN');
  });

  it('is neither STALL nor WARN when some commit had lag at or below the allowed lag', () => {
    const once = windowOf([[0, 0], ...Array.from({ length: 9 }, () => [0, 100] as [number, number])]);
    expect(statusOf(once, FRESH)).toBe('OK');
    const growing = windowOf([[0, 60], ...Array.from({ length: 9 }, (_, i) => [i, 100 + 2 * i] as [number, number])]);
    expect(statusOf(growing, FRESH, { allowedLag: 60 })).toBe('OK');
    expect(statusOf(growing, FRESH, { allowedLag: 59 })).toBe('WARN');
  });

  it('is OK when the lag decreased at least once', () => {
    const samples = steady({ step: 10, lag: 50, growth: 5 }).map((s, i) =>
      i === 6 ? { ...s, logEndOffset: s.logEndOffset - 20 } : s,
    );
    expect(statusOf(samples, FRESH)).toBe('OK');
  });

  it('needs two commits for STALL or WARN: one commit shows no trend', () => {
    expect(statusOf(windowOf([[10, 500]]), 0)).toBe('OK');
  });

  it('evaluates partial windows and reports how complete the window is; only the newest capacity count', () => {
    expect(evaluate(steady({ step: 10, lag: 50 }).slice(0, 4), 3_000)).toMatchObject({
      status: 'WARN',
      commits: 4,
      capacity: 10,
      complete: 0.4,
    });
    // Twelve commits; the first two (caught up) fall out of a window of ten, so the lag was above at all ten.
    const twelve = windowOf([
      [0, 0],
      [1, 1],
      ...Array.from({ length: 10 }, (_, i) => [i + 2, 100 + i] as [number, number]),
    ]);
    expect(evaluate(twelve, 12_000)).toMatchObject({ status: 'WARN', commits: 10, complete: 1 });
    expect(evaluate(twelve, 12_000, { windowCapacity: 12 })).toMatchObject({ status: 'OK', commits: 12 });
  });

  it('treats a committed offset past the sampled log end as zero lag', () => {
    expect(lagOf({ atMs: 0, committedOffset: 12, logEndOffset: 10 })).toBe(0);
  });

  it('rejects unordered or invalid input', () => {
    const swapped = steady({ step: 1, lag: 5 });
    [swapped[3], swapped[4]] = [swapped[4] as CommitSample, swapped[3] as CommitSample];
    expect(() => evaluate(swapped, FRESH)).toThrow(RangeError);
    const nan = steady({ step: 1, lag: 5 }).map((s, i) => (i === 2 ? { ...s, logEndOffset: Number.NaN } : s));
    expect(() => evaluate(nan, FRESH)).toThrow(RangeError);
    expect(() => evaluate([], Number.NaN)).toThrow(RangeError);
    expect(() => evaluate([], 0, { allowedLag: -1 })).toThrow(RangeError);
    expect(() => evaluate([], 0, { windowCapacity: 0 })).toThrow(RangeError);
    expect(() => evaluate([], 0, { minStopSilenceMs: Number.NaN })).toThrow(RangeError);
    expect(() => evaluate([], 0, { recentLogEnds: [Number.NaN] })).toThrow(RangeError);
  });
});

describe('combineGroupStatus', () => {
  const ps = (partition: number, status: PartitionStatus, topic = 'orders') => ({ topic, partition, status });
  const q = (partition: number, topic = 'orders') => ({ topic, partition });
  const base = { quarantinedPartitions: [], worstTimeLagMs: null, timeLagObjectiveMs: null };

  it('is OK when every partition is OK, saying so', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK'), ps(1, 'OK')] });
    expect(result).toEqual({ status: 'OK', reasons: ['all 2 partitions OK'] });
    expect(combineGroupStatus({ ...base, partitionStatuses: [] }).status).toBe('OK');
  });

  it.each(['STOP', 'STALL', 'REWIND'] as const)('reports %s as ERR naming the partition', (status) => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK'), ps(3, status)] });
    expect(result.status).toBe('ERR');
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toMatch(new RegExp(`^orders-3 ${status}`));
  });

  it('is LOST over ERR and QUARANTINED, its line first, the others kept', () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [
        ps(0, 'STOP'),
        { ...ps(4, 'LOST'), reason: '1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC' },
        ps(5, 'LOST'),
      ],
      quarantinedPartitions: [q(5)],
    });
    expect(result).toEqual({
      status: 'LOST',
      reasons: [
        'orders-4 LOST: 1,204 records (offsets 88,100–89,303) deleted unread, first seen 14:02 UTC',
        'orders-5 LOST: records were deleted before the group read them',
        'orders-0 STOP: the consumer stopped committing while lagging',
        'orders-5 is quarantined',
      ],
    });
  });

  it('is WARN for a WARN partition', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'WARN'), ps(1, 'OK')] });
    expect(result.status).toBe('WARN');
    expect(result.reasons).toEqual(['orders-0 WARN: lag grew at every commit in the window']);
  });

  it('is WARN when the worst time lag is above the objective, OK when equal to it', () => {
    const statuses = [ps(0, 'OK')];
    const above = combineGroupStatus({
      ...base,
      partitionStatuses: statuses,
      worstTimeLagMs: 301_000,
      timeLagObjectiveMs: 300_000,
    });
    expect(above).toEqual({ status: 'WARN', reasons: ['worst time lag 5 min 1 s is above the 5 min objective'] });
    const equal = combineGroupStatus({
      ...base,
      partitionStatuses: statuses,
      worstTimeLagMs: 300_000,
      timeLagObjectiveMs: 300_000,
    });
    expect(equal).toEqual({
      status: 'OK',
      reasons: ['all 1 partitions OK', 'worst time lag 5 min is within the 5 min objective'],
    });
  });

  it('never says "within the objective" while a lagging partition has an unknown time lag', () => {
    const known = { ...base, partitionStatuses: [ps(0, 'OK'), ps(1, 'OK')], timeLagObjectiveMs: 300_000 };
    const oneUnknown = combineGroupStatus({ ...known, worstTimeLagMs: 1_000, unknownTimeLagPartitions: 1 });
    expect(oneUnknown).toEqual({
      status: 'OK',
      reasons: ['all 2 partitions OK', 'time lag unknown for 1 lagging partition; objective 5 min not checked for it'],
    });
    const above = combineGroupStatus({ ...known, worstTimeLagMs: 400_000, unknownTimeLagPartitions: 2 });
    expect(above.status).toBe('WARN');
    expect(above.reasons).toEqual([
      'worst time lag 6 min 40 s is above the 5 min objective',
      'time lag unknown for 2 lagging partitions; objective 5 min not checked for them',
    ]);
  });

  it("quotes a partition's own reason in its line", () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [{ ...ps(2, 'STOP'), reason: 'no commit for 4 min 10 s; lag 3,012 and growing 8/s' }],
    });
    expect(result.reasons).toEqual(['orders-2 STOP: no commit for 4 min 10 s; lag 3,012 and growing 8/s']);
  });

  it('ignores the time lag without an objective, and never escalates an unknown time lag', () => {
    expect(combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK')], worstTimeLagMs: 9_999_999 }).status).toBe(
      'OK',
    );
    const unknown = combineGroupStatus({ ...base, partitionStatuses: [ps(0, 'OK')], timeLagObjectiveMs: 60_000 });
    expect(unknown).toEqual({
      status: 'OK',
      reasons: ['all 1 partitions OK', 'time lag unknown; objective 1 min not checked'],
    });
  });

  it('is QUARANTINED over WARN, and the quarantine explains that partition STALL/STOP/WARN', () => {
    for (const status of ['STALL', 'STOP', 'WARN', 'OK'] as const) {
      const result = combineGroupStatus({
        ...base,
        partitionStatuses: [ps(0, 'WARN'), ps(1, status)],
        quarantinedPartitions: [q(1)],
      });
      expect(result.status, status).toBe('QUARANTINED');
      expect(result.reasons[0], status).toMatch(/^orders-1 is quarantined/);
      expect(result.reasons[1]).toBe('orders-0 WARN: lag grew at every commit in the window');
    }
    const explained = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(1, 'STALL')],
      quarantinedPartitions: [q(1)],
    });
    expect(explained.reasons).toEqual(['orders-1 is quarantined (its STALL is explained by the quarantine)']);
  });

  it('is ERR over QUARANTINED when another partition is stopped, keeping both reasons', () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(0, 'STOP'), ps(1, 'STALL')],
      quarantinedPartitions: [q(1)],
      worstTimeLagMs: 600_000,
      timeLagObjectiveMs: 60_000,
    });
    expect(result.status).toBe('ERR');
    expect(result.reasons).toEqual([
      'orders-0 STOP: the consumer stopped committing while lagging',
      'orders-1 is quarantined (its STALL is explained by the quarantine)',
      'worst time lag 10 min is above the 1 min objective',
    ]);
  });

  it('keeps REWIND as ERR even on a quarantined partition (a quarantine never moves a commit back)', () => {
    const result = combineGroupStatus({ ...base, partitionStatuses: [ps(2, 'REWIND')], quarantinedPartitions: [q(2)] });
    expect(result.status).toBe('ERR');
  });

  it('distinguishes topics with the same partition number and orders reasons by topic and partition', () => {
    const result = combineGroupStatus({
      ...base,
      partitionStatuses: [ps(5, 'STALL', 'b'), ps(0, 'STALL', 'b'), ps(0, 'STOP', 'a')],
      quarantinedPartitions: [q(0, 'b')],
    });
    expect(result.status).toBe('ERR');
    expect(result.reasons.map((r) => r.split(' ')[0])).toEqual(['a-0', 'b-5', 'b-0']);
  });

  it('rejects negative or non-finite times', () => {
    expect(() => combineGroupStatus({ ...base, partitionStatuses: [], worstTimeLagMs: -1 })).toThrow(RangeError);
    expect(() => combineGroupStatus({ ...base, partitionStatuses: [], timeLagObjectiveMs: Number.NaN })).toThrow(
      RangeError,
    );
  });
});

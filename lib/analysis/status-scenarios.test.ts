// The scenarios on-call met with real consumers Warden did not write, as partition histories sampled every
// 5 s: each states what the status must be, and when.

import { describe, expect, it } from 'vitest';
import { combineGroupStatus } from '../lag/partition-status';
import { analyzeGroup, partitionKey, type LatestPartitionRow } from './group-analysis';
import { partitionStatus, timeLagFromSamples, type SamplePoint } from './partition-analysis';

const ROUND_MS = 5_000;

/** Rounds every 5 s from `fromRound`: the log end grows by `arrival` a round, the commit by `consumed`. */
function rounds(
  count: number,
  opts: { fromRound?: number; logEnd: number; arrival: number; committed: number; consumed: number },
): SamplePoint[] {
  const from = opts.fromRound ?? 0;
  return Array.from({ length: count }, (_, i) => ({
    atMs: (from + i) * ROUND_MS,
    logEndOffset: opts.logEnd + i * opts.arrival,
    committedOffset: opts.committed + i * opts.consumed,
  }));
}

/** A consumer that commits every round for two minutes, then exits; `lagAtExit` records behind at its last commit. */
function consumerThatExits(lagAtExit: number, afterExitRounds: number): SamplePoint[] {
  const live = rounds(24, { logEnd: lagAtExit + 1_000, arrival: 50, committed: 1_000, consumed: 50 });
  const last = live.at(-1)!;
  const dead = Array.from({ length: afterExitRounds }, (_, i) => ({
    atMs: last.atMs + (i + 1) * ROUND_MS,
    logEndOffset: last.logEndOffset + (i + 1) * 50,
    committedOffset: last.committedOffset,
  }));
  return [...live, ...dead];
}

const statusAt = (history: SamplePoint[], context?: Parameters<typeof partitionStatus>[2]) =>
  partitionStatus(history, history.at(-1)!.atMs, context);

describe('a consumer that exited (group Empty, lag growing)', () => {
  it('is STOP at the first round after its last commit once the group has no members', () => {
    const history = consumerThatExits(23_000, 2);
    expect(statusAt(history, { groupHasMembers: false })).toBe('STOP');
  });

  it('is STOP for a partition that was caught up at its last commit, too', () => {
    const history = consumerThatExits(0, 2);
    expect(statusAt(history, { groupHasMembers: false })).toBe('STOP');
  });
});

describe('a consumer that died caught up while its group still lists members (no Empty state yet)', () => {
  it('stays OK while a recent log end is at or below its last commit, and is STOP once none is', () => {
    const history = consumerThatExits(0, 12);
    // The last 10 rounds' log ends are all past the last commit after 10 rounds of silence (50 s), which is
    // more than the 45 s its last ten commits span.
    expect(statusAt(history.slice(0, 24 + 5), { groupHasMembers: true, ownerAlive: false })).toBe('OK');
    expect(statusAt(history, { groupHasMembers: true, ownerAlive: false })).toBe('STOP');
  });
});

describe('a live, slow consumer: one member owning six partitions, working through them in turn', () => {
  // This partition gets its turn for 50 s every 300 s and commits each round of its turn; it lags throughout.
  function inTurns(totalRounds: number): SamplePoint[] {
    const history: SamplePoint[] = [];
    let committed = 0;
    for (let i = 0; i < totalRounds; i++) {
      if (i % 60 < 10) committed += 40;
      history.push({ atMs: i * ROUND_MS, committedOffset: committed, logEndOffset: 5_000 + i * 30 });
    }
    return history;
  }

  it('is never STOP while its owner keeps committing its other partitions', () => {
    const history = inTurns(150);
    for (let end = 2; end <= history.length; end++) {
      expect(statusAt(history.slice(0, end), { groupHasMembers: true, ownerAlive: true })).not.toBe('STOP');
    }
  });

  it('is STOP when its owner stopped committing everywhere', () => {
    const history = inTurns(40); // last commit at round 9, then 30 rounds of silence
    expect(statusAt(history, { groupHasMembers: true, ownerAlive: false })).toBe('STOP');
  });
});

describe('a consumer that re-commits an older offset during a rebalance and then catches up', () => {
  it('is OK once a later commit is back at or above the offset before the rewind', () => {
    const history = rounds(12, { logEnd: 2_000, arrival: 20, committed: 1_000, consumed: 30 });
    const at = history.at(-1)!;
    history.push({ atMs: at.atMs + ROUND_MS, committedOffset: 900, logEndOffset: at.logEndOffset + 20 });
    history.push({ atMs: at.atMs + 2 * ROUND_MS, committedOffset: 1_400, logEndOffset: at.logEndOffset + 40 });
    expect(statusAt(history, { groupHasMembers: true, ownerAlive: true })).toBe('OK');
  });
});

describe('a consumer that commits the same offset again and again while lag grows', () => {
  it('is STALL when every commit is seen (the offsets topic), not STOP and not OK', () => {
    const history = rounds(12, { logEnd: 2_000, arrival: 20, committed: 1_000, consumed: 0 });
    const commits = history.map((s) => ({ atMs: s.atMs + 100, committedOffset: 1_000, logEndOffset: s.logEndOffset }));
    expect(statusAt(history, { groupHasMembers: true, ownerAlive: true, commits })).toBe('STALL');
  });
});

describe('time lag on the first sampler round', () => {
  it('is unknown, not "at least 0 s", and never within the objective', () => {
    const first: SamplePoint[] = [{ atMs: 10_000, committedOffset: 100, logEndOffset: 900 }];
    expect(timeLagFromSamples(first, 100, 10_000)).toEqual({ ms: null, kind: 'unknown', basis: 'none' });
    const status = combineGroupStatus({
      partitionStatuses: [{ topic: 't', partition: 0, status: 'OK' }],
      quarantinedPartitions: [],
      worstTimeLagMs: null,
      timeLagObjectiveMs: 300_000,
      unknownTimeLagPartitions: 1,
    });
    expect(status.reasons.join('\n')).not.toMatch(/within/);
    expect(status.reasons.join('\n')).toMatch(/unknown/);
  });
});

describe('a group: the owner is judged by all the partitions it owns', () => {
  function partitionRow(partition: number, committed: number, logEnd: number): LatestPartitionRow {
    return {
      topic: 't',
      partition,
      committedOffset: BigInt(committed),
      logStartOffset: 0n,
      logEndOffset: BigInt(logEnd),
      lag: BigInt(logEnd - committed),
      memberId: 'm-1',
      memberClientId: 'slow',
      memberHost: '/10.0.0.1',
      timeLagMs: null,
      timeLagKind: null,
      exactTimeLagMs: null,
      arrivalRatePerSec: null,
      consumptionRatePerSec: null,
    };
  }

  /** Partition 0 commits for 10 rounds then waits; partition 1 keeps committing unless `ownerDied`. */
  function group(ownerDied: boolean) {
    const waiting = rounds(40, { logEnd: 5_000, arrival: 30, committed: 0, consumed: 0 }).map((s, i) => ({
      ...s,
      committedOffset: Math.min(i, 9) * 40,
    }));
    const busy = rounds(40, { logEnd: 9_000, arrival: 30, committed: 0, consumed: 40 }).map((s, i) => ({
      ...s,
      committedOffset: ownerDied ? Math.min(i, 9) * 40 : i * 40,
    }));
    const last = (h: SamplePoint[]) => h.at(-1)!;
    return analyzeGroup({
      rows: [
        partitionRow(0, last(waiting).committedOffset!, last(waiting).logEndOffset),
        partitionRow(1, last(busy).committedOffset!, last(busy).logEndOffset),
      ],
      history: new Map([
        [partitionKey({ topic: 't', partition: 0 }), waiting],
        [partitionKey({ topic: 't', partition: 1 }), busy],
      ]),
      quarantined: [],
      timeLagObjectiveMs: null,
      rateWindowMs: 60_000,
      nowMs: last(waiting).atMs,
      groupState: 'Stable',
    });
  }

  it('keeps a partition waiting for its busy owner out of STOP, and calls both STOP once the owner stops', () => {
    expect(group(false).partitions.map((p) => p.status)).toEqual(['OK', 'OK']);
    const dead = group(true);
    expect(dead.partitions.map((p) => p.status)).toEqual(['STOP', 'STOP']);
    expect(dead.status.status).toBe('ERR');
    expect(dead.commitSource).toBe('sampled');
  });
});

import { describe, expect, it } from 'vitest';
import {
  analyzeGroup,
  analyzeRound,
  partitionKey,
  type AnalyzedRound,
  type LatestPartitionRow,
} from './group-analysis';
import type { SamplePoint } from './partition-analysis';

const ROUND_MS = 5_000;

/** Committed every round for two minutes, then no commit for `silentRounds` while records keep arriving. */
function exitedConsumer(silentRounds: number): SamplePoint[] {
  return Array.from({ length: 24 + silentRounds }, (_, i) => ({
    atMs: i * ROUND_MS,
    logEndOffset: 2_000 + i * 50,
    committedOffset: 1_000 + Math.min(i, 23) * 50,
  }));
}

function roundOf(history: SamplePoint[], state: string): AnalyzedRound {
  const newest = history.at(-1)!;
  const row: LatestPartitionRow = {
    topic: 'orders',
    partition: 0,
    committedOffset: BigInt(newest.committedOffset!),
    logStartOffset: 0n,
    logEndOffset: BigInt(newest.logEndOffset),
    lag: BigInt(newest.logEndOffset - newest.committedOffset!),
    memberClientId: null,
    memberHost: null,
    timeLagMs: null,
    timeLagKind: null,
    exactTimeLagMs: null,
    arrivalRatePerSec: null,
    consumptionRatePerSec: null,
  };
  return {
    sampledAt: new Date(newest.atMs),
    state,
    rows: [row],
    history: new Map([[partitionKey(row), history]]),
    observedCommits: new Map(),
  };
}

const OPTIONS = { timeLagObjectiveMs: null, rateWindowMs: 60_000 };

describe('analyzeRound', () => {
  it("analyzes a round at the round's own time, with its group state, history and commits", () => {
    const round = roundOf(exitedConsumer(2), 'Empty');
    const analysis = analyzeRound(round, [], OPTIONS);
    expect(analysis.partitions.map((p) => p.status)).toEqual(['STOP']);
    expect(analysis).toEqual(
      analyzeGroup({
        rows: round.rows,
        history: round.history,
        observedCommits: round.observedCommits,
        groupState: 'Empty',
        quarantined: [],
        ...OPTIONS,
        nowMs: round.sampledAt.getTime(),
      }),
    );
  });

  it('passes the held partitions and the group state on', () => {
    const round = roundOf(exitedConsumer(2), 'Stable');
    expect(analyzeRound(round, [], OPTIONS).partitions[0]!.status).not.toBe('STOP');
    expect(analyzeRound(round, [{ topic: 'orders', partition: 0 }], OPTIONS).status.status).toBe('QUARANTINED');
  });
});

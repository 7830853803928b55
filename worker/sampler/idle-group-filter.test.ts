import { describe, expect, it } from 'vitest';
import { IdleGroupFilter } from './idle-group-filter';
import type { LagSampleRow } from './sampler-state';

function row(groupId: string, partition: number, change: Partial<LagSampleRow> = {}, atMs = 0): LagSampleRow {
  return {
    sampledAt: new Date(atMs),
    groupId,
    topic: 'orders',
    partition,
    committedOffset: 100n,
    logStartOffset: 0n,
    logEndOffset: 100n,
    lag: 0n,
    groupState: 'Stable',
    memberId: 'm-1',
    memberClientId: 'c-1',
    memberHost: '/10.0.0.1',
    groupProtocol: 'RoundRobinAssigner',
    timeLagMs: 0n,
    timeLagKind: 'caught-up',
    exactTimeLagMs: null,
    arrivalRatePerSec: 0,
    consumptionRatePerSec: 0,
    ...change,
  };
}

/** One round at `atMs` of groups a (2 partitions) and b (1), with `changes` applied per group id. */
function roundAt(atMs: number, changes: Record<string, Partial<LagSampleRow>> = {}): LagSampleRow[] {
  return [row('a', 0, changes.a, atMs), row('a', 1, {}, atMs), row('b', 0, changes.b, atMs)];
}

function storeRound(filter: IdleGroupFilter, rows: LagSampleRow[], atMs: number): string[] {
  const selection = filter.select(rows, atMs);
  filter.remember(selection, atMs);
  return [...new Set(selection.rows.map((r) => r.groupId))];
}

describe('IdleGroupFilter', () => {
  it('stores every group in the first round, then an unchanged group only once idleStoreMs passed', () => {
    const filter = new IdleGroupFilter(30_000);
    expect(storeRound(filter, roundAt(0), 0)).toEqual(['a', 'b']);
    expect(storeRound(filter, roundAt(5_000), 5_000)).toEqual([]);
    expect(storeRound(filter, roundAt(25_000), 25_000)).toEqual([]);
    expect(storeRound(filter, roundAt(30_000), 30_000)).toEqual(['a', 'b']);
    expect(storeRound(filter, roundAt(35_000), 35_000)).toEqual([]);
  });

  it('stores a changed group whole (every partition), whichever column changed, and leaves the others out', () => {
    const filter = new IdleGroupFilter(30_000);
    storeRound(filter, roundAt(0), 0);
    const selection = filter.select(roundAt(5_000, { a: { logEndOffset: 101n, lag: 1n } }), 5_000);
    expect(selection.rows.map((r) => `${r.groupId}/${r.partition}`)).toEqual(['a/0', 'a/1']);
    expect(selection.skippedGroups).toBe(1);
    expect(selection.storedGroups).toBe(1);
    for (const change of [
      { timeLagMs: 4_000n },
      { arrivalRatePerSec: 0.5 },
      { memberId: 'm-2' },
      { groupState: 'PreparingRebalance' },
      { exactTimeLagMs: 10n },
    ] satisfies Array<Partial<LagSampleRow>>) {
      const fresh = new IdleGroupFilter(30_000);
      storeRound(fresh, roundAt(0), 0);
      expect(storeRound(fresh, roundAt(5_000, { b: change }), 5_000)).toEqual(['b']);
    }
  });

  it('compares with the last stored round, so a slow drift is stored once it differs from it', () => {
    const filter = new IdleGroupFilter(30_000);
    storeRound(filter, roundAt(0), 0);
    expect(storeRound(filter, roundAt(5_000, { a: { logEndOffset: 101n } }), 5_000)).toEqual(['a']);
    // Equal to the round stored at 5 s: skipped again.
    expect(storeRound(filter, roundAt(10_000, { a: { logEndOffset: 101n } }), 10_000)).toEqual([]);
  });

  it('retries a round whose write failed: nothing is remembered until remember()', () => {
    const filter = new IdleGroupFilter(30_000);
    expect(filter.select(roundAt(0), 0).rows).toHaveLength(3);
    expect(filter.select(roundAt(5_000), 5_000).rows).toHaveLength(3);
  });

  it('forgets a group gone from the cluster and stores it at once when it comes back', () => {
    const filter = new IdleGroupFilter(30_000);
    storeRound(filter, roundAt(0), 0);
    storeRound(filter, [row('a', 0, {}, 5_000), row('a', 1, {}, 5_000)], 5_000);
    expect(storeRound(filter, roundAt(10_000), 10_000)).toEqual(['b']);
  });

  it('stores every round with idleStoreMs 0 and refuses a negative one', () => {
    const filter = new IdleGroupFilter(0);
    storeRound(filter, roundAt(0), 0);
    expect(storeRound(filter, roundAt(5_000), 5_000)).toEqual(['a', 'b']);
    expect(() => new IdleGroupFilter(-1)).toThrow(/idleStoreMs must be >= 0, got -1/);
  });
});

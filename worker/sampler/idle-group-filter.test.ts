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
  it('stores every group in the first round, then an unchanged group once per idleStoreMs, at most that plus a round apart', () => {
    const filter = new IdleGroupFilter(30_000);
    expect(storeRound(filter, roundAt(0), 0)).toEqual(['a', 'b']);
    const storedAt = new Map<string, number[]>([
      ['a', [0]],
      ['b', [0]],
    ]);
    for (let atMs = 5_000; atMs <= 300_000; atMs += 5_000) {
      for (const groupId of storeRound(filter, roundAt(atMs), atMs)) storedAt.get(groupId)!.push(atMs);
    }
    for (const times of storedAt.values()) {
      // 300 s: ten periods of 30 s, one store in each (the first store may fall just before a phase point).
      expect(times.length).toBeGreaterThanOrEqual(10);
      expect(times.length).toBeLessThanOrEqual(11);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(35_000);
      expect(gaps.slice(1).every((gap) => gap === 30_000)).toBe(true);
    }
  });

  it('spreads the stores of groups that went idle together over the period', () => {
    const filter = new IdleGroupFilter(30_000);
    const fleet = (atMs: number) => Array.from({ length: 600 }, (_, g) => row(`group-${g}`, 0, {}, atMs));
    storeRound(filter, fleet(0), 0);
    const perRound: number[] = [];
    for (let atMs = 5_000; atMs <= 30_000; atMs += 5_000) perRound.push(storeRound(filter, fleet(atMs), atMs).length);
    // Six rounds per period: every group once, about a sixth in each round.
    expect(perRound.reduce((a, b) => a + b, 0)).toBe(600);
    for (const count of perRound) expect(count).toBeLessThan(200);
  });

  it('stores a changed group whole (every partition), whichever column changed, and leaves the others out', () => {
    const filter = new IdleGroupFilter(3_600_000);
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
      const fresh = new IdleGroupFilter(3_600_000);
      storeRound(fresh, roundAt(0), 0);
      expect(storeRound(fresh, roundAt(5_000, { b: change }), 5_000)).toEqual(['b']);
    }
  });

  it('compares with the last stored round, so a slow drift is stored once it differs from it', () => {
    const filter = new IdleGroupFilter(3_600_000);
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
    const filter = new IdleGroupFilter(3_600_000);
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

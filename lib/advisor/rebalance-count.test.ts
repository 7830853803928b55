import { describe, expect, it } from 'vitest';
import { countRebalances, type RebalanceSpan } from './rebalance-count';

const measured = (startedAtMs: number, endedAtMs: number | null): RebalanceSpan => ({
  source: 'own-consumer',
  startedAtMs,
  endedAtMs,
});
const inferred = (startedAtMs: number, endedAtMs: number): RebalanceSpan => ({
  source: 'describe-groups',
  startedAtMs,
  endedAtMs,
});

describe('countRebalances', () => {
  it('is zero without rows', () => {
    expect(countRebalances([])).toBe(0);
  });

  it('counts one rebalance seen by three Warden members and the sampler once, not four times', () => {
    // Members notice the rebalance up to a heartbeat apart; all of them resume when SyncGroup answers.
    const rows = [
      measured(10_000, 12_400),
      measured(11_200, 12_410),
      measured(12_000, 12_405),
      inferred(5_000, 15_000),
    ];
    expect(countRebalances(rows)).toBe(1);
  });

  it('counts spans that do not overlap as separate rebalances, in any row order', () => {
    const rows = [
      measured(50_000, 51_000),
      measured(10_000, 12_000),
      measured(11_000, 12_500),
      measured(30_000, 30_500),
    ];
    expect(countRebalances(rows)).toBe(3);
  });

  it('counts stops that end together as one rebalance, however far apart they started', () => {
    // A member that crashed at 0 and rejoined at 30 s stood still across two rebalances of the group: its
    // expulsion (another member stopped 10-11 s) and its return (that member stopped again, ending with it).
    expect(countRebalances([measured(0, 30_000), measured(10_000, 11_000), measured(29_000, 30_010)])).toBe(2);
  });

  it('takes the sampler count when it saw more (rebalances no Warden member took part in)', () => {
    expect(
      countRebalances([
        inferred(0, 5_000),
        inferred(60_000, 65_000),
        inferred(120_000, 125_000),
        measured(1_000, 2_000),
      ]),
    ).toBe(3);
    expect(countRebalances([inferred(0, 5_000), inferred(60_000, 65_000)])).toBe(2);
  });

  it('takes the measured count when the sampler merged rebalances between two rounds', () => {
    expect(countRebalances([inferred(0, 10_000), measured(1_000, 2_000), measured(6_000, 7_000)])).toBe(2);
  });

  it('reads a row without an end, or ending before it starts, as an instant at its start', () => {
    expect(countRebalances([measured(1_000, null), measured(1_000, 500), measured(3_000, null)])).toBe(2);
  });
});

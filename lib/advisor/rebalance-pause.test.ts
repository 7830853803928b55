import { describe, expect, it } from 'vitest';
import { DEFAULT_REBALANCE_PAUSE_SEC, estimateRebalancePause } from './rebalance-pause';

describe('estimateRebalancePause', () => {
  it('states the default when the group has no rebalance on record', () => {
    expect(estimateRebalancePause([])).toEqual({
      sec: DEFAULT_REBALANCE_PAUSE_SEC,
      basis: 'default',
      sampleSize: 0,
      statement:
        'No rebalance of this group on record: T counts a default 5 s pause for a change of the consumer count.',
    });
  });

  it('takes the longest of the newest five measured rebalances, ignoring sampled bounds beside them', () => {
    const measured = [0.4, 1.1, 0.2, 0.6, 0.3, 9].map((sec, i) => ({
      endedAtMs: (6 - i) * 60_000, // newest first; the 9 s one is the oldest, past the five
      durationMs: sec * 1000,
      durationIsBound: false,
    }));
    const pause = estimateRebalancePause([
      ...measured,
      { endedAtMs: 10 * 60_000, durationMs: 4_000, durationIsBound: true },
    ]);
    expect(pause).toMatchObject({ sec: 1.1, basis: 'measured', sampleSize: 5 });
    expect(pause.statement).toBe(
      "T counts a 1.1 s rebalance pause for a change of the consumer count: the longest of the group's last 5 rebalances, measured by its members.",
    );
  });

  it('uses the sampler bounds, as an upper bound, when no member measured one', () => {
    const pause = estimateRebalancePause([
      { endedAtMs: 2, durationMs: 2_100, durationIsBound: true },
      { endedAtMs: 1, durationMs: 1_500, durationIsBound: true },
    ]);
    expect(pause).toMatchObject({ sec: 2.1, basis: 'sampled-bound', sampleSize: 2 });
    expect(pause.statement).toMatch(/^T counts a rebalance pause of at most 2\.1 s .*no Warden member measured one/);
  });

  it('rejects a negative duration', () => {
    expect(() => estimateRebalancePause([{ endedAtMs: 1, durationMs: -5, durationIsBound: false }])).toThrow(
      /finite number >= 0, got -5/,
    );
  });
});

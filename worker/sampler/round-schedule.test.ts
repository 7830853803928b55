import { describe, expect, it } from 'vitest';
import { nextRoundDelayMs } from './round-schedule';

const base = { intervalMs: 5_000, maxBackoffMs: 60_000, roundDurationMs: 0, random: () => 0.5 };

describe('nextRoundDelayMs', () => {
  it('keeps rounds on the interval after a success, and never overlaps a long round', () => {
    expect(nextRoundDelayMs({ ...base, consecutiveFailures: 0, roundDurationMs: 1_200 })).toBe(3_800);
    expect(nextRoundDelayMs({ ...base, consecutiveFailures: 0, roundDurationMs: 9_000 })).toBe(0);
  });

  it('backs off exponentially from the interval up to the cap, with jitter between half and full', () => {
    const delays = [1, 2, 3, 4, 5, 6, 10].map((n) =>
      nextRoundDelayMs({ ...base, consecutiveFailures: n, random: () => 1 }),
    );
    expect(delays).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000, 60_000]);
    expect(nextRoundDelayMs({ ...base, consecutiveFailures: 3, random: () => 0 })).toBe(10_000);
    expect(nextRoundDelayMs({ ...base, consecutiveFailures: 3, random: () => Number.NaN })).toBe(10_000);
  });

  it('waits at most the cap even when the interval is longer than it', () => {
    const long = { ...base, intervalMs: 120_000, maxBackoffMs: 60_000 };
    expect([1, 2, 5].map((n) => nextRoundDelayMs({ ...long, consecutiveFailures: n, random: () => 1 }))).toEqual([
      60_000, 60_000, 60_000,
    ]);
    expect(nextRoundDelayMs({ ...long, consecutiveFailures: 1, random: () => 0 })).toBe(30_000);
  });

  it('stays finite for huge failure counts', () => {
    expect(nextRoundDelayMs({ ...base, consecutiveFailures: 10_000, random: () => 1 })).toBe(60_000);
  });

  it('rejects nonsense', () => {
    expect(() => nextRoundDelayMs({ ...base, consecutiveFailures: -1 })).toThrow(/consecutiveFailures/);
    expect(() => nextRoundDelayMs({ ...base, intervalMs: 0, consecutiveFailures: 0 })).toThrow(/intervalMs/);
  });
});

import { describe, expect, it } from 'vitest';
import { RateHistory } from './rate-history';

describe('RateHistory', () => {
  it('has no rates before two samples (a new leader guesses nothing)', () => {
    const history = new RateHistory(60_000);
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: null, consumptionRatePerSec: null });
    history.record('k', { atMs: 0, committedOffset: 0, logEndOffset: 0 });
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: null, consumptionRatePerSec: null });
  });

  it('measures arrival from the log end and consumption from the commits over the window', () => {
    const history = new RateHistory(60_000);
    history.record('k', { atMs: 0, committedOffset: 0, logEndOffset: 100 });
    history.record('k', { atMs: 10_000, committedOffset: 50, logEndOffset: 300 });
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: 20, consumptionRatePerSec: 5 });
  });

  it('forgets samples older than the window', () => {
    const history = new RateHistory(10_000);
    history.record('k', { atMs: 0, committedOffset: 0, logEndOffset: 0 });
    history.record('k', { atMs: 20_000, committedOffset: 100, logEndOffset: 1_000 });
    history.record('k', { atMs: 30_000, committedOffset: 200, logEndOffset: 1_100 });
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: 10, consumptionRatePerSec: 10 });
  });

  it('gives a partition never committed an arrival rate but no consumption rate (not 0)', () => {
    const history = new RateHistory(60_000);
    history.record('k', { atMs: 0, committedOffset: null, logEndOffset: 0 });
    history.record('k', { atMs: 1_000, committedOffset: null, logEndOffset: 7 });
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: 7, consumptionRatePerSec: null });
  });

  it('measures consumption only since the first commit', () => {
    const history = new RateHistory(60_000);
    history.record('k', { atMs: 0, committedOffset: null, logEndOffset: 0 });
    history.record('k', { atMs: 1_000, committedOffset: 10, logEndOffset: 40 });
    history.record('k', { atMs: 3_000, committedOffset: 30, logEndOffset: 60 });
    expect(history.estimate('k')).toEqual({ arrivalRatePerSec: 20, consumptionRatePerSec: 10 });
  });

  it('ignores samples that are not newer, and restarts after a rewind', () => {
    const history = new RateHistory(60_000);
    history.record('k', { atMs: 0, committedOffset: 500, logEndOffset: 600 });
    history.record('k', { atMs: 0, committedOffset: 999, logEndOffset: 999 });
    history.record('k', { atMs: 1_000, committedOffset: 0, logEndOffset: 610 }); // consumer reset to the start
    history.record('k', { atMs: 2_000, committedOffset: 40, logEndOffset: 620 });
    expect(history.estimate('k').consumptionRatePerSec).toBe(40);
  });

  it('forgets the partitions a round did not record, and rejects a non-positive window', () => {
    const history = new RateHistory(60_000);
    history.record('a', { atMs: 0, committedOffset: 0, logEndOffset: 0 });
    history.record('a', { atMs: 1_000, committedOffset: 1, logEndOffset: 1 });
    history.record('b', { atMs: 0, committedOffset: 0, logEndOffset: 0 });
    history.record('b', { atMs: 2_000, committedOffset: 4, logEndOffset: 4 });
    history.forgetUnrecordedSince(2_000); // the round at 2,000 recorded b alone
    expect(history.estimate('a').arrivalRatePerSec).toBeNull();
    expect(history.estimate('b').arrivalRatePerSec).toBe(2);
    expect(() => new RateHistory(0)).toThrow(/windowMs/);
  });
});

import { describe, expect, it } from 'vitest';
import { estimateRates as estimateRatesFromCapacity } from './capacity';
import { estimateRates, type OffsetSample } from './rates';

/** Samples every 5 s from t=0: [committedOffset, logEndOffset]. */
const every5s = (entries: Array<[number, number]>): OffsetSample[] =>
  entries.map(([committedOffset, logEndOffset], i) => ({ atMs: i * 5_000, committedOffset, logEndOffset }));

describe('estimateRates', () => {
  it('measures arrival from log-end deltas and consumption from committed deltas', () => {
    // 1,000 behind, log end +1,000 and committed +1,500 per 5 s: 200/s in, 300/s out.
    const samples = every5s([
      [0, 10_000],
      [1_500, 11_000],
      [3_000, 12_000],
      [4_500, 13_000],
    ]);
    expect(estimateRates(samples, 60_000)).toEqual({
      arrivalRatePerSec: 200,
      consumptionRatePerSec: 300,
      hadBacklogThroughout: true,
      spanMs: 15_000,
      sampleCount: 4,
    });
  });

  it('flags a consumer that keeps up with a small lag as a lower bound, not a capacity measurement', () => {
    // Lag 10 at every sample, but 1,000 committed per interval: it ran out of work in between.
    const samples = every5s([
      [0, 10],
      [1_000, 1_010],
      [2_000, 2_010],
    ]);
    const rates = estimateRates(samples, 60_000);
    expect(rates.consumptionRatePerSec).toBe(200);
    expect(rates.hadBacklogThroughout).toBe(false);
  });

  it('is not throughout when the backlog ran out in any one interval', () => {
    // Third interval commits 1,000 with exactly 1,000 waiting at its start: it may have idled at the end.
    const samples = every5s([
      [0, 5_000],
      [1_000, 5_000],
      [2_000, 3_000],
      [3_000, 4_000],
    ]);
    expect(estimateRates(samples, 60_000).hadBacklogThroughout).toBe(false);
    const earlier = every5s([
      [0, 5_000],
      [1_000, 5_000],
      [2_000, 3_001],
      [3_000, 4_000],
    ]);
    expect(estimateRates(earlier, 60_000).hadBacklogThroughout).toBe(true);
  });

  it('uses only the samples within the window ending at the newest sample', () => {
    // Fast at first (100/s), slow in the last 10 s (20/s).
    const samples = every5s([
      [0, 100_000],
      [500, 100_000],
      [1_000, 100_000],
      [1_100, 100_000],
      [1_200, 100_000],
    ]);
    expect(estimateRates(samples, 10_000)).toMatchObject({ consumptionRatePerSec: 20, spanMs: 10_000, sampleCount: 3 });
    expect(estimateRates(samples, 9_999)).toMatchObject({ consumptionRatePerSec: 20, spanMs: 5_000, sampleCount: 2 });
    expect(estimateRates(samples, 1_000_000)).toMatchObject({
      consumptionRatePerSec: 60,
      spanMs: 20_000,
      sampleCount: 5,
    });
  });

  it('gives null rates (not NaN, not 0) with fewer than two samples or no elapsed time', () => {
    const empty = { arrivalRatePerSec: null, consumptionRatePerSec: null, hadBacklogThroughout: false };
    expect(estimateRates([], 10_000)).toEqual({ ...empty, spanMs: 0, sampleCount: 0 });
    expect(estimateRates(every5s([[1, 5]]), 10_000)).toEqual({ ...empty, spanMs: 0, sampleCount: 1 });
    const sameTime = [
      { atMs: 7, committedOffset: 1, logEndOffset: 5 },
      { atMs: 7, committedOffset: 2, logEndOffset: 6 },
    ];
    expect(estimateRates(sameTime, 10_000)).toEqual({ ...empty, spanMs: 0, sampleCount: 2 });
    expect(
      estimateRates(
        every5s([
          [1, 5],
          [2, 6],
        ]),
        4_999,
      ),
    ).toEqual({ ...empty, spanMs: 0, sampleCount: 1 });
  });

  it('reports an idle partition as 0/s in and out, a lower bound of capacity', () => {
    const samples = every5s([
      [50, 50],
      [50, 50],
      [50, 50],
    ]);
    expect(estimateRates(samples, 60_000)).toEqual({
      arrivalRatePerSec: 0,
      consumptionRatePerSec: 0,
      hadBacklogThroughout: false,
      spanMs: 10_000,
      sampleCount: 3,
    });
  });

  it('restarts the measurement after an offset moves backwards', () => {
    // Consumer rewound to 0 between the 2nd and 3rd sample; then replays at 400/s with a big backlog.
    const rewound = every5s([
      [9_000, 10_000],
      [9_500, 10_500],
      [0, 11_000],
      [2_000, 11_500],
      [4_000, 12_000],
    ]);
    expect(estimateRates(rewound, 60_000)).toEqual({
      arrivalRatePerSec: 100,
      consumptionRatePerSec: 400,
      hadBacklogThroughout: true,
      spanMs: 10_000,
      sampleCount: 3,
    });
    // Topic recreated: log end back near 0.
    const recreated = every5s([
      [900, 1_000],
      [1_000, 1_200],
      [0, 10],
      [5, 60],
    ]);
    expect(estimateRates(recreated, 60_000)).toMatchObject({
      arrivalRatePerSec: 10,
      consumptionRatePerSec: 1,
      sampleCount: 2,
    });
  });

  it('rejects invalid input', () => {
    expect(() => estimateRates([], 0)).toThrow(RangeError);
    expect(() => estimateRates([], Number.NaN)).toThrow(RangeError);
    const unordered = [
      { atMs: 10, committedOffset: 0, logEndOffset: 0 },
      { atMs: 5, committedOffset: 0, logEndOffset: 0 },
    ];
    expect(() => estimateRates(unordered, 100)).toThrow(RangeError);
    expect(() => estimateRates([{ atMs: 0, committedOffset: Number.NaN, logEndOffset: 0 }], 100)).toThrow(RangeError);
  });

  it('is re-exported from capacity.ts', () => {
    expect(estimateRatesFromCapacity).toBe(estimateRates);
  });
});

import { describe, expect, it } from 'vitest';
import { LatencyRecorder } from './latency-recorder';
import {
  formatCount,
  formatMarkdownTable,
  formatMiB,
  formatMs,
  formatRatio,
  formatTextTable,
  median,
  percentileOfSorted,
  ratio,
  recordsPerSecond,
  roundTripPercentiles,
  summarizeLatency,
} from './stats';

describe('percentiles', () => {
  it('uses the nearest rank: the smallest value with at least p% at or below it', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentileOfSorted(sorted, 50)).toBe(5);
    expect(percentileOfSorted(sorted, 51)).toBe(6);
    expect(percentileOfSorted(sorted, 99)).toBe(10);
    expect(percentileOfSorted(sorted, 100)).toBe(10);
    expect(percentileOfSorted(sorted, 0)).toBe(1);
  });

  it('is null for no samples and rejects a percentile outside [0, 100]', () => {
    expect(percentileOfSorted([], 50)).toBeNull();
    expect(() => percentileOfSorted([1], 101)).toThrow(/within \[0, 100\]/);
    expect(() => percentileOfSorted([1], -1)).toThrow(/within \[0, 100\]/);
    expect(() => percentileOfSorted([1], Number.NaN)).toThrow(/within \[0, 100\]/);
  });

  it('summarizes unsorted samples numerically (not as strings) without changing them', () => {
    const samples = [100, 9, 20, 3, 1000, 5, 7, 2, 40, 1];
    const copy = [...samples];
    expect(summarizeLatency(samples)).toEqual({ count: 10, p50: 7, p99: 1000, max: 1000 });
    expect(samples).toEqual(copy);
    expect(summarizeLatency([])).toEqual({ count: 0, p50: null, p99: null, max: null });
  });

  it('p99 of 1,000 samples is the 990th smallest', () => {
    const samples = Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1000 … 1
    expect(summarizeLatency(samples).p99).toBe(990);
    expect(summarizeLatency(samples).p50).toBe(500);
  });

  it('rejects non-finite samples, which would mean a broken clock', () => {
    expect(() => summarizeLatency([1, Number.NaN])).toThrow(/finite/);
  });

  it("gives an action's round-trip and applied percentiles numerically, rounded to 0.1 ms, without sorting the input", () => {
    const roundTrips = Float64Array.from([120.04, 9.96, 300.26, 40, 80]);
    const applied = [50, 10.44, 20];
    expect(roundTripPercentiles(roundTrips, applied)).toEqual({
      p50Ms: 80,
      p95Ms: 300.3,
      maxMs: 300.3,
      appliedP50Ms: 20,
      appliedP95Ms: 50,
    });
    expect(Array.from(roundTrips)).toEqual([120.04, 9.96, 300.26, 40, 80]);
    expect(roundTripPercentiles([], [])).toEqual({
      p50Ms: Number.NaN,
      p95Ms: Number.NaN,
      maxMs: Number.NaN,
      appliedP50Ms: Number.NaN,
      appliedP95Ms: Number.NaN,
    });
  });
});

describe('median and ratios', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('divides only by a positive reference', () => {
    expect(ratio(85, 100)).toBe(0.85);
    expect(ratio(85, 0)).toBeNull();
    expect(ratio(null, 100)).toBeNull();
    expect(ratio(85, undefined)).toBeNull();
    expect(ratio(Number.NaN, 100)).toBeNull();
  });

  it('computes records per second over a positive window only', () => {
    expect(recordsPerSecond(30_000, 1_500)).toBe(20_000);
    expect(recordsPerSecond(10, 0)).toBeNull();
    expect(recordsPerSecond(10, -5)).toBeNull();
  });
});

describe('formatting', () => {
  it('formats counts, ratios, milliseconds and MiB, with a dash for missing values', () => {
    expect(formatCount(1234567.6)).toBe('1,234,568');
    expect(formatRatio(0.8549)).toBe('0.85');
    expect(formatMs(0.0412)).toBe('0.04');
    expect(formatMs(11.66)).toBe('11.7');
    expect(formatMs(1234.4)).toBe('1,234');
    expect(formatMiB(150 * 1024 * 1024)).toBe('150');
    for (const format of [formatCount, formatRatio, formatMs, formatMiB]) expect(format(null)).toBe('—');
  });

  const columns = [
    { header: '#', align: 'left' as const },
    { header: 'records/s', align: 'right' as const },
  ];

  it('pads text columns to the widest cell and right-aligns numbers', () => {
    const table = formatTextTable(columns, [
      ['1', '140,372'],
      ['3b', '9'],
    ]);
    expect(table.split('\n')).toEqual(['#   records/s', '--  ---------', '1     140,372', '3b          9']);
  });

  it('writes Markdown with right-aligned rules and escaped pipes', () => {
    const table = formatMarkdownTable(columns, [['a|b', '1']]);
    expect(table.split('\n')).toEqual(['| # | records/s |', '| --- | ---: |', '| a\\|b | 1 |']);
  });

  it('rejects rows that do not match the columns', () => {
    expect(() => formatTextTable(columns, [['only one']])).toThrow(/row 0 has 1 cells, the table has 2 columns/);
    expect(() => formatMarkdownTable([], [])).toThrow(/at least one column/);
  });
});

describe('LatencyRecorder', () => {
  it('keeps every sample beyond its initial capacity', () => {
    const recorder = new LatencyRecorder(1);
    for (let i = 1; i <= 100; i++) recorder.add(i);
    expect(recorder.size).toBe(100);
    expect(recorder.summary()).toEqual({ count: 100, p50: 50, p99: 99, max: 100 });
  });
});

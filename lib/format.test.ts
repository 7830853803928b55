import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatCount,
  formatDecimal,
  formatDuration,
  formatDurationCompact,
  formatDurationMs,
  formatMillis,
  formatNumber,
  formatPartitionList,
  formatPercent,
  formatRate,
  formatRateRounded,
  plural,
} from './format';

describe('formatDecimal', () => {
  it('writes what Intl.NumberFormat en-US writes, except that nothing reads "-0"', () => {
    const values = fc.oneof(
      fc.double({ noNaN: true }),
      fc.integer({ min: -1e9, max: 1e9 }).map((n) => n / 1000),
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => n + 0.5),
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100 + 0.005),
    );
    fc.assert(
      fc.property(values, fc.integer({ min: 0, max: 4 }), (value, digits) => {
        const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
        expect(formatDecimal(value, digits)).toBe(intl === '-0' ? '0' : intl);
      }),
      { numRuns: 5000 },
    );
  });
  it('groups thousands, drops trailing zeros and rounds half away from zero', () => {
    expect(formatDecimal(1234567.891, 2)).toBe('1,234,567.89');
    expect(formatDecimal(1000, 1)).toBe('1,000');
    expect(formatDecimal(2.5, 0)).toBe('3');
    expect(formatDecimal(-2.5, 0)).toBe('-3');
    expect(formatDecimal(1.25, 1)).toBe('1.3');
    expect(formatDecimal(1.005, 2)).toBe('1.01');
    expect(formatDecimal(0.5, 0)).toBe('1');
    expect(formatDecimal(999.96, 1)).toBe('1,000');
    expect(formatDecimal(-0.04, 1)).toBe('0');
    expect(formatDecimal(-0, 0)).toBe('0');
  });
  it('leaves values toFixed cannot write to Intl', () => {
    expect(formatDecimal(Number.NaN, 1)).toBe('NaN');
    expect(formatDecimal(Number.POSITIVE_INFINITY, 1)).toBe('∞');
    expect(formatDecimal(1e21, 0)).toBe('1,000,000,000,000,000,000,000');
    expect(formatDecimal(4e-7, 1)).toBe('0');
  });
});

describe('formatDuration', () => {
  it('formats the examples the UI relies on', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(260)).toBe('4 min 20 s');
    expect(formatDuration(300)).toBe('5 min');
    expect(formatDuration(3780)).toBe('1 h 3 min');
  });

  it('reads zero as 0 s and a positive sub-second duration as < 1 s', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(0.2)).toBe('< 1 s');
    expect(formatDuration(0.5)).toBe('1 s');
  });

  it('rounds before choosing units, so boundaries never read "60 min" or "60 s"', () => {
    expect(formatDuration(59.4)).toBe('59 s');
    expect(formatDuration(59.6)).toBe('1 min');
    expect(formatDuration(3599)).toBe('59 min 59 s');
    expect(formatDuration(3599.6)).toBe('1 h');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(3629)).toBe('1 h');
    expect(formatDuration(3630)).toBe('1 h 1 min');
    expect(formatDuration(86_369)).toBe('23 h 59 min');
    expect(formatDuration(86_399)).toBe('1 d');
  });

  it('uses days and hours beyond a day', () => {
    expect(formatDuration(86_400)).toBe('1 d');
    expect(formatDuration(2 * 86_400 + 5 * 3600 + 10 * 60)).toBe('2 d 5 h');
    expect(formatDuration(7 * 86_400)).toBe('7 d');
  });

  it('rejects what is not a duration', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => formatDuration(bad), String(bad)).toThrow(RangeError);
    }
  });
});

describe('formatCount', () => {
  it('groups thousands and shows unknown as a dash', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(null)).toBe('—');
  });
});

describe('formatAge', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('uses seconds, then minutes, then hours', () => {
    expect(formatAge('2026-11-29T11:59:48Z', now)).toBe('12 s ago');
    expect(formatAge('2026-11-29T11:55:30Z', now)).toBe('4 min ago');
    expect(formatAge('2026-11-29T09:30:00Z', now)).toBe('2 h 30 min ago');
  });
  it('never shows a negative age when clocks disagree', () => {
    expect(formatAge('2026-11-29T12:00:05Z', now)).toBe('0 s ago');
  });
});

describe('formatRateRounded and formatDurationMs', () => {
  it('keeps one decimal below 10 and shows unknown as a dash', () => {
    expect(formatRateRounded(4.25)).toBe('4.3/s');
    expect(formatRateRounded(1234.5)).toBe('1,235/s');
    expect(formatRateRounded(null)).toBe('—');
    expect(formatDurationMs(90_000)).toBe('1 min 30 s');
    expect(formatDurationMs(null)).toBe('—');
  });
});

describe('formatDurationCompact', () => {
  it('keeps axis labels short', () => {
    expect(formatDurationCompact(0)).toBe('0s');
    expect(formatDurationCompact(45_000)).toBe('45s');
    expect(formatDurationCompact(1_400_000)).toBe('23m20s');
    expect(formatDurationCompact(1_380_000)).toBe('23m');
    expect(formatDurationCompact(7_500_000)).toBe('2h5m');
    expect(formatDurationCompact(3 * 86_400_000 + 4 * 3_600_000)).toBe('3d4h');
  });
});

describe("the advisor's sentence formats", () => {
  it('keeps one decimal, groups thousands and words plurals and partition lists', () => {
    expect(formatNumber(30_000)).toBe('30,000');
    expect(formatNumber(12.345)).toBe('12.3');
    expect(formatRate(2.25)).toBe('2.3/s');
    expect(formatPercent(0.953)).toBe('95%');
    expect(plural(1, 'consumer')).toBe('1 consumer');
    expect(plural(3, 'consumer')).toBe('3 consumers');
    expect(formatPartitionList([2])).toBe('partition 2');
    expect(formatPartitionList([2, 5])).toBe('partitions 2 and 5');
    expect(formatPartitionList([1, 2, 5])).toBe('partitions 1, 2 and 5');
  });
  it('reads milliseconds below a second, tenths of seconds below a minute, then formatDuration', () => {
    expect(formatMillis(800)).toBe('800 ms');
    expect(formatMillis(1_500)).toBe('1.5 s');
    expect(formatMillis(400_000)).toBe('6 min 40 s');
  });
});

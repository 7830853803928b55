import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration';

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

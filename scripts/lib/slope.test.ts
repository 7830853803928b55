import { describe, expect, it } from 'vitest';
import { bytesSlopeMiBPerMinute, slopePerMinute } from './slope';

describe('slopePerMinute', () => {
  it('fits the least-squares line through noisy points', () => {
    const points = [0, 1, 2, 3, 4].map((minute, i) => ({
      atMs: minute * 60_000,
      value: 10 + 3 * minute + (i % 2 ? 1 : -1),
    }));
    expect(slopePerMinute(points)).toBeCloseTo(3, 0);
  });

  it('is null below two points or with one time only', () => {
    expect(slopePerMinute([{ atMs: 0, value: 1 }])).toBeNull();
    expect(
      slopePerMinute([
        { atMs: 5, value: 1 },
        { atMs: 5, value: 2 },
      ]),
    ).toBeNull();
  });

  it('gives bytes as MiB per minute', () => {
    const leak = [0, 1, 2].map((m) => ({ atMs: m * 60_000, value: 100 * 1_048_576 + m * 1_572_864 }));
    expect(bytesSlopeMiBPerMinute(leak)).toBe(1.5);
    expect(bytesSlopeMiBPerMinute([])).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { backoffCeilingMs, backoffDelayMs } from './backoff.js';

const policy = { baseMs: 100, maxMs: 30_000 };
const fixed = (value: number) => () => value;

describe('backoffDelayMs', () => {
  it('doubles the jitter ceiling per attempt: random * base * 2^(attempt-1)', () => {
    expect(backoffDelayMs(1, policy, fixed(0.5))).toBe(50);
    expect(backoffDelayMs(2, policy, fixed(0.5))).toBe(100);
    expect(backoffDelayMs(3, policy, fixed(0.5))).toBe(200);
    expect(backoffDelayMs(8, policy, fixed(0.5))).toBe(6400);
  });

  it('caps the ceiling at maxMs, also for huge attempts', () => {
    expect(backoffDelayMs(10, policy, fixed(0.5))).toBe(15_000);
    expect(backoffDelayMs(1_000_000, policy, fixed(0.5))).toBe(15_000);
    expect(backoffDelayMs(Number.MAX_SAFE_INTEGER, policy, fixed(0.999))).toBe(29_970);
  });

  it('uses full jitter: any value in [0, ceiling)', () => {
    expect(backoffDelayMs(3, policy, fixed(0))).toBe(0);
    expect(backoffDelayMs(3, policy, fixed(0.999999))).toBe(399);
    let draw = 0;
    const sweep = () => (draw = (draw + 0.037) % 1);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelayMs(4, policy, sweep);
      expect(Number.isInteger(delay)).toBe(true);
      expect(delay).not.toBeLessThan(0);
      expect(delay).toBeLessThan(800);
    }
  });

  it('clamps a random source outside [0, 1)', () => {
    expect(backoffDelayMs(1, policy, fixed(1))).toBe(99);
    expect(backoffDelayMs(1, policy, fixed(7))).toBe(99);
    expect(backoffDelayMs(1, policy, fixed(-3))).toBe(0);
    expect(backoffDelayMs(1, policy, fixed(Number.NaN))).toBe(0);
  });

  it('treats attempts below 1 as the first attempt', () => {
    expect(backoffDelayMs(0, policy, fixed(0.5))).toBe(50);
    expect(backoffDelayMs(-4, policy, fixed(0.5))).toBe(50);
    expect(backoffDelayMs(2.7, policy, fixed(0.5))).toBe(100);
  });

  it('rejects invalid input', () => {
    expect(() => backoffDelayMs(Number.NaN, policy, fixed(0.5))).toThrow(RangeError);
    expect(() => backoffDelayMs(1, { baseMs: -1, maxMs: 10 }, fixed(0.5))).toThrow(RangeError);
    expect(() => backoffDelayMs(1, { baseMs: 100, maxMs: 50 }, fixed(0.5))).toThrow(RangeError);
  });

  it('a zero base never waits', () => {
    expect(backoffDelayMs(50, { baseMs: 0, maxMs: 0 }, fixed(0.9))).toBe(0);
  });

  it("draws 'equal' jitter in [half, full] of the ceiling, rounded, with the same clamping", () => {
    expect(backoffDelayMs(3, policy, fixed(0), 'equal')).toBe(200);
    expect(backoffDelayMs(3, policy, fixed(1), 'equal')).toBe(400);
    expect(backoffDelayMs(3, policy, fixed(0.5), 'equal')).toBe(300);
    expect(backoffDelayMs(3, policy, fixed(9), 'equal')).toBe(400);
    expect(backoffDelayMs(3, policy, fixed(Number.NaN), 'equal')).toBe(200);
    expect(backoffDelayMs(1_000, policy, fixed(1), 'equal')).toBe(30_000);
  });
});

describe('backoffCeilingMs', () => {
  it('doubles from the base up to the cap, with no draw', () => {
    const startup = { baseMs: 250, maxMs: 5_000 };
    expect([1, 2, 3, 4, 5, 6, 50].map((n) => backoffCeilingMs(n, startup))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 5_000, 5_000,
    ]);
    expect(backoffCeilingMs(0, startup)).toBe(250);
    expect(() => backoffCeilingMs(1, { baseMs: 10, maxMs: 5 })).toThrow(/retry.maxMs must be >= baseMs/);
  });
});

import { describe, expect, it } from 'vitest';
import { calibratedSlowdown, MOBILE_CPU_SLOWDOWN } from './calibrate';

describe('calibratedSlowdown', () => {
  it("follows Lighthouse's calculator from 1,300 up: 3x, 4x at 1,533, 6x at 2,000, one more per 233", () => {
    expect(calibratedSlowdown(1300)).toBe(3);
    expect(calibratedSlowdown(1533)).toBe(MOBILE_CPU_SLOWDOWN);
    expect(calibratedSlowdown(2000)).toBe(6);
    expect(calibratedSlowdown(3398)).toBe(12);
  });
  it('scales in proportion below 1,300 and never speeds the CPU up', () => {
    expect(calibratedSlowdown(1000)).toBe(2.6);
    expect(calibratedSlowdown(300)).toBe(1);
    expect(calibratedSlowdown(0)).toBe(1);
  });
});

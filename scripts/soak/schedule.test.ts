import { describe, expect, it } from 'vitest';
import { faultSpacingMs, planSoakFaults, SOAK_FAULT_KINDS } from './schedule';

const HOUR = { durationMs: 60 * 60_000, workers: 2, brokerNodes: 1 as const, partitions: 6 };

describe('planSoakFaults', () => {
  it('is a function of the seed: the same seed replays the same faults, another seed differs', () => {
    expect(planSoakFaults(42, HOUR)).toEqual(planSoakFaults(42, HOUR));
    expect(planSoakFaults(43, HOUR)).not.toEqual(planSoakFaults(42, HOUR));
  });

  it('spaces faults a few minutes apart over an hour and keeps the last spacing calm', () => {
    const faults = planSoakFaults(7, HOUR);
    const spacing = faultSpacingMs(HOUR.durationMs);
    expect(spacing).toBe(240_000);
    expect(faults.length).toBeGreaterThanOrEqual(10);
    for (const [i, fault] of faults.entries()) {
      if (i > 0) expect(fault.atMs - faults[i - 1]!.atMs).toBeGreaterThanOrEqual(spacing * 0.7);
      expect(fault.atMs + fault.holdMs).toBeLessThanOrEqual(HOUR.durationMs - spacing);
    }
  });

  it('covers every kind in a four-minute run, each redrive after a poison-skip', () => {
    for (let seed = 0; seed < 200; seed++) {
      const faults = planSoakFaults(seed, { ...HOUR, durationMs: 4 * 60_000 });
      expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(SOAK_FAULT_KINDS));
      const firstPoison = faults.findIndex((f) => f.kind === 'poison-skip');
      expect(faults.findIndex((f) => f.kind === 'redrive')).toBeGreaterThan(firstPoison);
    }
  });

  it('targets existing workers, nodes and partitions', () => {
    for (let seed = 0; seed < 50; seed++)
      for (const fault of planSoakFaults(seed, { ...HOUR, brokerNodes: 3 })) {
        if (fault.kind === 'kill-worker') expect(fault.target).toBeLessThan(2);
        if (fault.kind === 'broker-restart') expect([1, 2, 3]).toContain(fault.target);
        if (fault.kind === 'poison-skip') expect(fault.target).toBeLessThan(6);
      }
  });
});

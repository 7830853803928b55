import { describe, expect, it } from 'vitest';
import { planNemesis, rssSlopeMiBPerMinute, type NemesisStep } from './nemesis';

/** Replays a schedule and returns what is down after every step, failing on a step that cannot apply. */
function replay(steps: readonly NemesisStep[]) {
  const nodesDown = new Set<number>();
  const workersUp = new Set<number>([0]);
  let databaseDown = false;
  for (const { action } of steps) {
    switch (action.kind) {
      case 'kill-node':
      case 'stop-node':
        expect(nodesDown.has(action.node)).toBe(false);
        nodesDown.add(action.node);
        expect(nodesDown.size).toBeLessThan(3);
        break;
      case 'start-node':
        expect(nodesDown.delete(action.node)).toBe(true);
        break;
      case 'kill-worker':
      case 'stop-worker':
        expect(workersUp.delete(action.worker)).toBe(true);
        break;
      case 'start-worker':
        expect(workersUp.has(action.worker)).toBe(false);
        workersUp.add(action.worker);
        break;
      case 'database-down':
        expect(databaseDown).toBe(false);
        databaseDown = true;
        break;
      case 'database-up':
        expect(databaseDown).toBe(true);
        databaseDown = false;
        break;
    }
  }
  return { nodesDown, workersUp, databaseDown };
}

describe('planNemesis', () => {
  it('is the same schedule for the same seed and another for another seed', () => {
    expect(planNemesis(42, 600_000)).toEqual(planNemesis(42, 600_000));
    expect(planNemesis(42, 600_000)).not.toEqual(planNemesis(43, 600_000));
  });

  it('draws every kind of fault over a long run, overlapping, and heals everything by the end', () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const steps = planNemesis(seed, 20 * 60_000);
      const kinds = new Set(steps.map((s) => s.action.kind));
      for (const kind of ['kill-node', 'stop-node', 'kill-worker', 'stop-worker', 'start-worker', 'database-down'])
        expect(kinds, `seed ${seed} lacks ${kind}`).toContain(kind);
      expect(steps.every((s, i) => i === 0 || s.atMs >= steps[i - 1]!.atMs)).toBe(true);
      expect(steps.at(-1)!.atMs).toBeLessThanOrEqual(20 * 60_000);
      const end = replay(steps);
      expect(end.nodesDown.size).toBe(0);
      expect(end.databaseDown).toBe(false);
      expect(end.workersUp.has(0)).toBe(true);
    }
  });

  it('overlaps faults: something else starts while a node is still down', () => {
    const steps = planNemesis(7, 20 * 60_000);
    let down = 0;
    let overlapped = false;
    for (const { action } of steps) {
      if (action.kind === 'kill-node' || action.kind === 'stop-node') {
        if (down > 0) overlapped = true;
        down += 1;
      } else if (action.kind === 'start-node') down -= 1;
      else if (down > 0 && action.kind !== 'database-up') overlapped = true;
    }
    expect(overlapped).toBe(true);
  });
});

describe('rssSlopeMiBPerMinute', () => {
  it('is the growth per minute of a leaking worker and about zero for a flat one', () => {
    const leak = Array.from({ length: 10 }, (_, i) => ({ atMs: i * 60_000, rssBytes: (100 + 2 * i) * 1_048_576 }));
    expect(rssSlopeMiBPerMinute(leak)).toBe(2);
    const flat = Array.from({ length: 10 }, (_, i) => ({ atMs: i * 30_000, rssBytes: (i % 2 ? 101 : 99) * 1_048_576 }));
    expect(Math.abs(rssSlopeMiBPerMinute(flat)!)).toBeLessThan(0.5);
    expect(rssSlopeMiBPerMinute(leak.slice(0, 1))).toBeNull();
  });
});

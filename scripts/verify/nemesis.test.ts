import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_NEMESIS_LIMITS,
  describeSchedule,
  nemesisSteps,
  oneNodeUp,
  planNemesis,
  rssSlopeMiBPerMinute,
  runSchedule,
  type NemesisStep,
  type ScheduleClock,
} from './nemesis';

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
      const faults = planNemesis(seed, 20 * 60_000);
      const steps = nemesisSteps(faults);
      const kinds = new Set(steps.map((s) => s.action.kind));
      for (const kind of ['kill-node', 'stop-node', 'kill-worker', 'stop-worker', 'start-worker', 'database-down'])
        expect(kinds, `seed ${seed} lacks ${kind}`).toContain(kind);
      expect(steps.every((s, i) => i === 0 || s.atMs >= steps[i - 1]!.atMs)).toBe(true);
      expect(steps.at(-1)!.atMs).toBeLessThanOrEqual(20 * 60_000);
      for (const fault of faults) if (fault.heal) expect(fault.heal.atMs).toBeGreaterThan(fault.startMs);
      const end = replay(steps);
      expect(end.nodesDown.size).toBe(0);
      expect(end.databaseDown).toBe(false);
      expect(end.workersUp.has(0)).toBe(true);
    }
  });

  it('overlaps faults: something else starts while a node is still down', () => {
    const steps = nemesisSteps(planNemesis(7, 20 * 60_000));
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

  it('never takes a third node down while another is within its restart allowance', () => {
    const allowance = DEFAULT_NEMESIS_LIMITS.nodeRestartAllowanceMs;
    for (const seed of [1, 2, 3, 42, 1234, 20261201]) {
      const nodeFaults = planNemesis(seed, 20 * 60_000).filter((f) => f.start.kind.endsWith('-node'));
      for (const fault of nodeFaults) {
        const busy = nodeFaults.filter(
          (other) => other !== fault && other.startMs <= fault.startMs && other.heal!.atMs + allowance > fault.startMs,
        );
        expect(busy.length, `seed ${seed} at ${fault.startMs} ms`).toBeLessThanOrEqual(1);
      }
    }
  });

  it('prints one line per fault with its start and its end', () => {
    const faults = planNemesis(5, 120_000);
    const lines = describeSchedule(faults);
    expect(lines).toHaveLength(faults.length);
    const healed = faults.findIndex((f) => f.heal !== null);
    expect(lines[healed]).toContain(`${(faults[healed]!.startMs / 1_000).toFixed(1)} s → `);
    expect(lines[healed]).toContain(`${(faults[healed]!.heal!.atMs / 1_000).toFixed(1)} s`);
  });
});

describe('runSchedule', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());
  const clock: ScheduleClock = {
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const sleep = clock.sleep;

  it('starts every step at its time while earlier steps on other targets are still running', async () => {
    const steps: NemesisStep[] = [
      { atMs: 1_000, action: { kind: 'kill-node', node: 1 } },
      { atMs: 2_000, action: { kind: 'database-down' } },
      { atMs: 3_000, action: { kind: 'kill-worker', worker: 0 } },
      { atMs: 4_000, action: { kind: 'database-up' } },
    ];
    const active = new Set<string>();
    let mostActive = 0;
    // Every step takes 10 s: run one after another they would begin at 1, 11, 21 and 31 s.
    const run = runSchedule(steps, clock, async (step) => {
      active.add(step.action.kind);
      mostActive = Math.max(mostActive, active.size);
      await sleep(10_000);
      active.delete(step.action.kind);
    });
    await vi.advanceTimersByTimeAsync(30_000);
    const outcomes = await run;
    expect(outcomes.map((o) => o.beganMs)).toEqual([1_000, 2_000, 3_000, 12_000]);
    expect(mostActive).toBe(3);
    expect(Math.max(...outcomes.map((o) => o.endedMs))).toBe(22_000);
  });

  it('applies steps on one target in schedule order: a restart waits for its kill to return', async () => {
    const steps: NemesisStep[] = [
      { atMs: 0, action: { kind: 'kill-node', node: 2 } },
      { atMs: 2_000, action: { kind: 'start-node', node: 2 } },
      { atMs: 2_000, action: { kind: 'kill-node', node: 3 } },
    ];
    const order: string[] = [];
    const run = runSchedule(steps, clock, async (step) => {
      order.push(`${step.action.kind}@${Date.now()}`);
      if (step.action.kind === 'kill-node' && step.action.node === 2) await sleep(5_000);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await run;
    expect(order).toEqual(['kill-node@0', 'kill-node@2000', 'start-node@5000']);
  });

  it('reports a step that fails and still applies the rest, heals included', async () => {
    const steps: NemesisStep[] = [
      { atMs: 0, action: { kind: 'stop-node', node: 1 } },
      { atMs: 500, action: { kind: 'database-down' } },
      { atMs: 1_000, action: { kind: 'start-node', node: 1 } },
      { atMs: 1_500, action: { kind: 'database-up' } },
    ];
    const applied: string[] = [];
    const run = runSchedule(steps, clock, async (step) => {
      if (step.action.kind === 'stop-node') throw new Error('node 1 did not stop');
      applied.push(step.action.kind);
    });
    await vi.advanceTimersByTimeAsync(2_000);
    const outcomes = await run;
    expect(outcomes[0]!.error).toBe('node 1 did not stop');
    expect(outcomes.slice(1).every((o) => o.error === undefined)).toBe(true);
    expect(applied).toEqual(['database-down', 'start-node', 'database-up']);
  });

  it('holds a third node fault until one of the two nodes down has restarted', async () => {
    const steps: NemesisStep[] = [
      { atMs: 0, action: { kind: 'kill-node', node: 1 } },
      { atMs: 0, action: { kind: 'kill-node', node: 2 } },
      { atMs: 1_000, action: { kind: 'start-node', node: 1 } },
      { atMs: 2_000, action: { kind: 'stop-node', node: 3 } },
    ];
    const down = new Set<number>();
    const run = runSchedule(
      steps,
      clock,
      async ({ action }) => {
        if (action.kind === 'start-node') {
          // A restart under load: the node counts as down until it returns, 10 s later.
          await sleep(10_000);
          down.delete(action.node);
        } else if ('node' in action) down.add(action.node);
        expect(down.size).toBeLessThan(3);
      },
      oneNodeUp(down),
    );
    await vi.advanceTimersByTimeAsync(20_000);
    const outcomes = await run;
    expect(outcomes.map((o) => o.beganMs)).toEqual([0, 0, 1_000, 11_000]);
  });

  it('lasts the schedule, not the sum of its steps, for a whole planned run', async () => {
    const steps = nemesisSteps(planNemesis(42, 5 * 60_000));
    // 20 s a step: one after another they would take far longer than the 5-minute schedule.
    expect(steps.length * 20_000).toBeGreaterThan(10 * 60_000);
    const run = runSchedule(steps, clock, () => sleep(20_000));
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    const outcomes = await run;
    expect(Math.max(...outcomes.map((o) => o.endedMs))).toBeLessThanOrEqual(5 * 60_000 + 60_000);
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

// The nemesis's randomized fault schedule, the scheduler that applies it at its times, and the
// worker-memory slope it reports. Pure: the schedule is a function of the seed and the duration alone, so
// a failing seed replays the same faults at the same times; the scheduler takes its clock as a port.

import { seededRandom } from '../../test-support/seeded-random';
import { bytesSlopeMiBPerMinute } from '../lib/slope';

export type NemesisAction =
  | { kind: 'kill-node'; node: 1 | 2 | 3 }
  | { kind: 'stop-node'; node: 1 | 2 | 3 }
  | { kind: 'start-node'; node: 1 | 2 | 3 }
  | { kind: 'kill-worker'; worker: number }
  | { kind: 'stop-worker'; worker: number }
  | { kind: 'start-worker'; worker: number }
  | { kind: 'database-down' }
  | { kind: 'database-up' };

/** One fault: its action at startMs and, unless it is for good (a worker joining or leaving), its heal at endMs. */
export interface NemesisFault {
  startMs: number;
  start: NemesisAction;
  heal: { atMs: number; action: NemesisAction } | null;
}

export interface NemesisStep {
  atMs: number;
  action: NemesisAction;
}

export interface NemesisLimits {
  /** Workers 0..maxWorkers-1 may run; worker 0 runs at the start. */
  maxWorkers: number;
  /** A new fault starts every minGapMs..maxGapMs; each lasts minFaultMs..maxFaultMs before it heals. */
  minGapMs: number;
  maxGapMs: number;
  minFaultMs: number;
  maxFaultMs: number;
  /**
   * How long a node counts as down after its restart begins, for choosing the next node fault: a restart
   * after kill -9 waits out the old session and recovers its logs (60-140 s measured under load), and a third
   * node taken down meanwhile would leave no controller quorum.
   */
  nodeRestartAllowanceMs: number;
}

export const DEFAULT_NEMESIS_LIMITS: NemesisLimits = {
  maxWorkers: 3,
  minGapMs: 5_000,
  maxGapMs: 20_000,
  minFaultMs: 5_000,
  maxFaultMs: 30_000,
  nodeRestartAllowanceMs: 120_000,
};

/**
 * Faults drawn at random times, overlapping: node kill -9 / SIGTERM (each restarted later), worker kill -9 /
 * SIGTERM (restarted later), a worker joining or leaving, and a database outage. The generator tracks what
 * is down so every step applies (never a second outage of a down node), keeps at least one node up (two
 * may be down at once: below min.insync.replicas; a restarting node counts as down for
 * `nodeRestartAllowanceMs`), lets only extra workers leave for good, and heals everything by `durationMs`,
 * so the run can finish. Sorted by start.
 */
export function planNemesis(seed: number, durationMs: number, limits = DEFAULT_NEMESIS_LIMITS): NemesisFault[] {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => Math.round(low + random() * (high - low));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const faults: NemesisFault[] = [];
  // When each node, worker and the database is back (0: up now), as the schedule stands; a node's time
  // includes its restart allowance.
  const nodeUpAt = new Map<1 | 2 | 3, number>([
    [1, 0],
    [2, 0],
    [3, 0],
  ]);
  const workerUpAt = new Map<number, number>([[0, 0]]);
  let databaseUpAt = 0;
  for (
    let at = between(limits.minGapMs, limits.maxGapMs);
    at < durationMs;
    at += between(limits.minGapMs, limits.maxGapMs)
  ) {
    const heal = Math.min(at + between(limits.minFaultMs, limits.maxFaultMs), durationMs);
    const healing = (action: NemesisAction) => ({ atMs: heal, action });
    const upNodes = [...nodeUpAt].filter(([, upAt]) => upAt <= at).map(([node]) => node);
    const upWorkers = [...workerUpAt].filter(([, upAt]) => upAt <= at).map(([worker]) => worker);
    const absent = Array.from({ length: limits.maxWorkers }, (_, i) => i).filter((w) => !workerUpAt.has(w));
    const choices: Array<() => void> = [];
    if (upNodes.length >= 2) {
      for (const kind of ['kill-node', 'stop-node'] as const)
        choices.push(() => {
          const node = pick(upNodes);
          faults.push({ startMs: at, start: { kind, node }, heal: healing({ kind: 'start-node', node }) });
          nodeUpAt.set(node, heal + limits.nodeRestartAllowanceMs);
        });
    }
    if (upWorkers.length >= 1) {
      for (const kind of ['kill-worker', 'stop-worker'] as const)
        choices.push(() => {
          const worker = pick(upWorkers);
          faults.push({ startMs: at, start: { kind, worker }, heal: healing({ kind: 'start-worker', worker }) });
          workerUpAt.set(worker, heal);
        });
    }
    if (absent.length > 0)
      choices.push(() => {
        const worker = pick(absent);
        faults.push({ startMs: at, start: { kind: 'start-worker', worker }, heal: null });
        workerUpAt.set(worker, at);
      });
    if (upWorkers.length >= 2)
      choices.push(() => {
        const worker = pick(upWorkers.filter((w) => w !== 0));
        if (worker === undefined) return;
        faults.push({ startMs: at, start: { kind: 'stop-worker', worker }, heal: null });
        workerUpAt.delete(worker);
      });
    if (databaseUpAt <= at)
      choices.push(() => {
        faults.push({ startMs: at, start: { kind: 'database-down' }, heal: healing({ kind: 'database-up' }) });
        databaseUpAt = heal;
      });
    if (choices.length > 0) pick(choices)();
  }
  return faults;
}

/** Every fault's start and heal as one list of steps, in time order (a start before a heal at the same time). */
export function nemesisSteps(faults: readonly NemesisFault[]): NemesisStep[] {
  return faults
    .flatMap((f) => [{ atMs: f.startMs, action: f.start }, ...(f.heal ? [f.heal] : [])])
    .sort((a, b) => a.atMs - b.atMs);
}

/** What a step acts on: steps on one target apply in schedule order, steps on different targets overlap. */
export function stepTarget(action: NemesisAction): string {
  if ('node' in action) return `node ${action.node}`;
  if ('worker' in action) return `worker ${action.worker}`;
  return 'database';
}

export function describeAction(action: NemesisAction): string {
  switch (action.kind) {
    case 'kill-node':
      return `kill -9 of node ${action.node}`;
    case 'stop-node':
      return `SIGTERM of node ${action.node}`;
    case 'start-node':
      return `node ${action.node} restarted`;
    case 'kill-worker':
      return `kill -9 of worker ${action.worker}`;
    case 'stop-worker':
      return `SIGTERM of worker ${action.worker}`;
    case 'start-worker':
      return `worker ${action.worker} started`;
    case 'database-down':
      return 'database unreachable';
    case 'database-up':
      return 'database back';
  }
}

/** The schedule as printed before the run: one line per fault, its start and end in seconds from the start. */
export function describeSchedule(faults: readonly NemesisFault[]): string[] {
  const seconds = (ms: number) => (ms / 1_000).toFixed(1).padStart(7);
  return faults.map(
    (f) =>
      `${seconds(f.startMs)} s → ${f.heal ? `${seconds(f.heal.atMs)} s` : '   for good'}  ${describeAction(f.start)}` +
      (f.heal ? ` (then ${describeAction(f.heal.action)})` : ''),
  );
}

export interface ScheduleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** How often a gated step asks again whether it may begin. */
export const GATE_POLL_MS = 1_000;

/**
 * The gate that keeps one node up whatever the restarts take: a node fault waits while two other nodes
 * are down (from their kill until their restart returned). Under load a restart has taken 190 s, longer
 * than any allowance the schedule can plan with, and with all three down a restarting node cannot
 * register with a controller quorum and exits.
 */
export function oneNodeUp(nodesDown: ReadonlySet<number>): (step: NemesisStep) => boolean {
  return ({ action }) =>
    (action.kind !== 'kill-node' && action.kind !== 'stop-node') ||
    [...nodesDown].filter((node) => node !== action.node).length < 2;
}

export interface StepOutcome {
  step: NemesisStep;
  /** When it began (after its gate) and ended, in ms from the schedule's start; late by beganMs - step.atMs. */
  beganMs: number;
  endedMs: number;
  /** Why it failed; the schedule carries on with the other steps. */
  error?: string;
}

/**
 * Applies every step at its time, not after the one before it: steps on different targets run at once
 * (several faults active together), steps on the same target in schedule order (a node's restart waits
 * until its kill returned). A step that throws is reported in its outcome and the rest still run, so
 * every heal is attempted. Resolves when every step has ended, with the outcomes in schedule order.
 */
export async function runSchedule(
  steps: readonly NemesisStep[],
  clock: ScheduleClock,
  apply: (step: NemesisStep) => Promise<void>,
  /** Whether a step due now may begin; polled every GATE_POLL_MS until it may (default: always). */
  gate: (step: NemesisStep) => boolean = () => true,
): Promise<StepOutcome[]> {
  const startedAt = clock.now();
  const lastOnTarget = new Map<string, Promise<unknown>>();
  return Promise.all(
    steps.map((step) => {
      const target = stepTarget(step.action);
      const before = lastOnTarget.get(target) ?? Promise.resolve();
      const outcome = (async (): Promise<StepOutcome> => {
        await before;
        const wait = startedAt + step.atMs - clock.now();
        if (wait > 0) await clock.sleep(wait);
        while (!gate(step)) await clock.sleep(GATE_POLL_MS);
        const beganMs = clock.now() - startedAt;
        try {
          await apply(step);
          return { step, beganMs, endedMs: clock.now() - startedAt };
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          return { step, beganMs, endedMs: clock.now() - startedAt, error: message };
        }
      })();
      lastOnTarget.set(target, outcome);
      return outcome;
    }),
  );
}

export interface RssSample {
  atMs: number;
  rssBytes: number;
}

/** The least-squares slope of a worker's resident memory, in MiB per minute; null below two samples. */
export function rssSlopeMiBPerMinute(samples: readonly RssSample[]): number | null {
  return bytesSlopeMiBPerMinute(samples.map((s) => ({ atMs: s.atMs, value: s.rssBytes })));
}

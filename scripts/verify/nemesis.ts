// The nemesis's randomized fault schedule and the worker-memory slope it reports. Pure: the schedule is a
// function of the seed and the duration alone, so a failing seed replays the same faults at the same times.

import { seededRandom } from '../../test-support/seeded-random';

export type NemesisAction =
  | { kind: 'kill-node'; node: 1 | 2 | 3 }
  | { kind: 'stop-node'; node: 1 | 2 | 3 }
  | { kind: 'start-node'; node: 1 | 2 | 3 }
  | { kind: 'kill-worker'; worker: number }
  | { kind: 'stop-worker'; worker: number }
  | { kind: 'start-worker'; worker: number }
  | { kind: 'database-down' }
  | { kind: 'database-up' };

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
}

export const DEFAULT_NEMESIS_LIMITS: NemesisLimits = {
  maxWorkers: 3,
  minGapMs: 5_000,
  maxGapMs: 20_000,
  minFaultMs: 5_000,
  maxFaultMs: 30_000,
};

/**
 * Faults drawn at random times, overlapping: node kill -9 / SIGTERM (each restarted later), worker kill -9 /
 * SIGTERM (restarted later), a worker joining or leaving, and a database outage. The generator tracks what
 * is down so every step applies (never a second outage of a down node), keeps at least one node up (two
 * may be down at once: below min.insync.replicas), lets only extra workers leave for good, and heals
 * everything by `durationMs`, so the run can finish.
 */
export function planNemesis(seed: number, durationMs: number, limits = DEFAULT_NEMESIS_LIMITS): NemesisStep[] {
  const random = seededRandom(seed);
  const between = (low: number, high: number) => Math.round(low + random() * (high - low));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const steps: NemesisStep[] = [];
  // When each node, worker and the database is back (0: up now), as the schedule stands.
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
    const upNodes = [...nodeUpAt].filter(([, upAt]) => upAt <= at).map(([node]) => node);
    const upWorkers = [...workerUpAt].filter(([, upAt]) => upAt <= at).map(([worker]) => worker);
    const absent = Array.from({ length: limits.maxWorkers }, (_, i) => i).filter((w) => !workerUpAt.has(w));
    const choices: Array<() => void> = [];
    if (upNodes.length >= 2) {
      for (const kind of ['kill-node', 'stop-node'] as const)
        choices.push(() => {
          const node = pick(upNodes);
          steps.push({ atMs: at, action: { kind, node } }, { atMs: heal, action: { kind: 'start-node', node } });
          nodeUpAt.set(node, heal);
        });
    }
    if (upWorkers.length >= 1) {
      for (const kind of ['kill-worker', 'stop-worker'] as const)
        choices.push(() => {
          const worker = pick(upWorkers);
          steps.push({ atMs: at, action: { kind, worker } }, { atMs: heal, action: { kind: 'start-worker', worker } });
          workerUpAt.set(worker, heal);
        });
    }
    if (absent.length > 0)
      choices.push(() => {
        const worker = pick(absent);
        steps.push({ atMs: at, action: { kind: 'start-worker', worker } });
        workerUpAt.set(worker, at);
      });
    if (upWorkers.length >= 2)
      choices.push(() => {
        const worker = pick(upWorkers.filter((w) => w !== 0));
        if (worker === undefined) return;
        steps.push({ atMs: at, action: { kind: 'stop-worker', worker } });
        workerUpAt.delete(worker);
      });
    if (databaseUpAt <= at)
      choices.push(() => {
        steps.push({ atMs: at, action: { kind: 'database-down' } }, { atMs: heal, action: { kind: 'database-up' } });
        databaseUpAt = heal;
      });
    if (choices.length > 0) pick(choices)();
  }
  return steps.sort((a, b) => a.atMs - b.atMs);
}

export interface RssSample {
  atMs: number;
  rssBytes: number;
}

/** The least-squares slope of a worker's resident memory, in MiB per minute; null below two samples. */
export function rssSlopeMiBPerMinute(samples: readonly RssSample[]): number | null {
  if (samples.length < 2) return null;
  const xs = samples.map((s) => s.atMs / 60_000);
  const ys = samples.map((s) => s.rssBytes / 1_048_576);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxx = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  if (sxx === 0) return null;
  const sxy = xs.reduce((sum, x, i) => sum + (x - meanX) * (ys[i]! - meanY), 0);
  return Math.round((sxy / sxx) * 100) / 100;
}

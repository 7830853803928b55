// The soak's fault schedule: one fault every few minutes, drawn from the seed. Pure: the schedule is a
// function of the seed and the settings alone, so a run replays with --seed.
import { seededRandom } from '../../test-support/seeded-random';

export const SOAK_FAULT_KINDS = [
  'kill-worker',
  'broker-restart',
  'database-down',
  'receiver-down',
  'poison-skip',
  'redrive',
] as const;
export type SoakFaultKind = (typeof SOAK_FAULT_KINDS)[number];

export interface SoakFault {
  /** When it starts, from the start of the traffic. */
  atMs: number;
  kind: SoakFaultKind;
  /**
   * kill-worker: the worker; broker-restart: the node (1 on a single broker); poison-skip: the input
   * partition; the others: 0.
   */
  target: number;
  /**
   * How long it lasts: a killed worker, a stopped broker, the database or the receiver stay down this long;
   * a poison record stays quarantined this long before the skip; a redrive waits for its job.
   */
  holdMs: number;
}

export interface SoakScheduleSettings {
  durationMs: number;
  workers: number;
  brokerNodes: 1 | 3;
  partitions: number;
}

/** Faults are this far apart (plus up to 30% of it at random): a twelfth of the run, within 30 s..4 min. */
export function faultSpacingMs(durationMs: number): number {
  return Math.min(240_000, Math.max(30_000, Math.round(durationMs / 12)));
}

/**
 * One fault per spacing from the first spacing on, each ending at least one spacing before the end (the
 * last stretch is calm, so the workers catch up before the checker's final read). The first six are the six
 * kinds in a seeded order, so even a short run has each once; the rest are drawn uniformly. A redrive needs
 * a dead letter: it never comes before the first poison-skip (the two swap places when drawn so).
 */
export function planSoakFaults(seed: number, settings: SoakScheduleSettings): SoakFault[] {
  const random = seededRandom(seed);
  const spacing = faultSpacingMs(settings.durationMs);
  const pickIndex = (n: number) => Math.floor(random() * n);
  const order = [...SOAK_FAULT_KINDS];
  for (let i = order.length - 1; i > 0; i--) {
    const j = pickIndex(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const firstPoison = order.indexOf('poison-skip');
  const firstRedrive = order.indexOf('redrive');
  if (firstRedrive < firstPoison) [order[firstRedrive], order[firstPoison]] = ['poison-skip', 'redrive'];

  const faults: SoakFault[] = [];
  for (let slot = 1; ; slot++) {
    const atMs = slot * spacing + Math.round(random() * spacing * 0.3);
    const holdMs = Math.round(spacing * (0.2 + random() * 0.3));
    if (atMs + holdMs > settings.durationMs - spacing) break;
    const kind = order[slot - 1] ?? SOAK_FAULT_KINDS[pickIndex(SOAK_FAULT_KINDS.length)]!;
    const target =
      kind === 'kill-worker'
        ? pickIndex(settings.workers)
        : kind === 'broker-restart'
          ? 1 + pickIndex(settings.brokerNodes)
          : kind === 'poison-skip'
            ? pickIndex(settings.partitions)
            : 0;
    faults.push({ atMs, kind, target, holdMs });
  }
  return faults;
}

export function describeFault(fault: SoakFault): string {
  const hold = `${Math.round(fault.holdMs / 1_000)} s`;
  switch (fault.kind) {
    case 'kill-worker':
      return `kill -9 of worker ${fault.target}, restarted after ${hold}`;
    case 'broker-restart':
      return `broker node ${fault.target} stopped for ${hold}, then restarted`;
    case 'database-down':
      return `Postgres unreachable for ${hold} (connections cut by the proxy)`;
    case 'receiver-down':
      return `alert receiver down for ${hold}`;
    case 'poison-skip':
      return `poison record on partition ${fault.target}, quarantined ${hold}, then skipped through the API`;
    case 'redrive':
      return `redrive of the run's dead letters through the API`;
  }
}

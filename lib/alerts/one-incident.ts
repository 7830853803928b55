// One incident, one notification: a cause raises one alert. A group's status is a summary of causes that often
// have an alert of their own (a quarantined partition: partition-quarantined; records deleted unread:
// records-lost; the Warden worker of the group not ready or gone: worker-not-ready). The group-status alert
// speaks only for the causes no other alert of the group speaks for. Pure; evaluate-alerts.ts applies it.
//
// The causes of a non-OK group status, one per partition that makes it so, and the group's own:
// - a quarantined partition ('quarantined'): its STOP, STALL or WARN are the quarantine's consequence;
// - a LOST partition ('lost': an unacknowledged record loss);
// - a partition's Burrow STOP, STALL, WARN or REWIND (REWIND even on a quarantined partition: a quarantine
//   never moves a commit back);
// - the worst time lag above the objective ('objective').
// A cause is explained, and raises no group-status notification, when the alert that speaks for it holds
// (its condition is found this round and enabled for the group):
// - 'quarantined' by partition-quarantined;
// - 'lost' by records-lost (which holds for every LOST partition, by construction);
// - STOP by worker-not-ready of the same group: a Warden worker that is not ready or gone stops committing its
//   partitions, and that is one incident, told by the worker's alert.
// Nothing else is explained: a different partition's STOP, a STALL, a REWIND, a WARN, the objective.

import type { BurrowStatus, PartitionStatus } from '../lag/partition-status';
import type { AlertCondition } from './alert-settings';

export interface StatusPartition {
  topic: string;
  partition: number;
  /** Its status (LOST or Burrow's) and Burrow's own. */
  status: PartitionStatus;
  burrowStatus: BurrowStatus;
}

export type CauseKind = 'quarantined' | 'lost' | 'STOP' | 'STALL' | 'WARN' | 'REWIND' | 'objective';

export interface StatusCause {
  kind: CauseKind;
  /** null for the group's own cause (the objective). */
  topic: string | null;
  partition: number | null;
  /** The alert that speaks for it; null: group-status must. */
  explainedBy: AlertCondition | null;
}

export interface GroupStatusCauses {
  causes: StatusCause[];
  /** The causes group-status speaks for; empty: it raises no notification for this group now. */
  unexplained: StatusCause[];
}

/**
 * The causes of a group's non-OK status and which of them another alert explains (see above). `problems` are
 * the partitions whose status is not OK; `quarantined` every quarantined partition; `holding` the group's
 * other conditions that hold this round and are enabled for it.
 */
export function groupStatusCauses(input: {
  problems: readonly StatusPartition[];
  quarantined: ReadonlyArray<{ topic: string; partition: number }>;
  objectiveBreached: boolean;
  holding: ReadonlySet<AlertCondition>;
}): GroupStatusCauses {
  const key = (p: { topic: string; partition: number }) => `${p.topic}\u0000${p.partition}`;
  const held = new Set(input.quarantined.map(key));
  const causes: StatusCause[] = [];
  const add = (kind: CauseKind, ref: { topic: string; partition: number } | null, by: AlertCondition | null) =>
    causes.push({
      kind,
      topic: ref?.topic ?? null,
      partition: ref?.partition ?? null,
      explainedBy: by !== null && input.holding.has(by) ? by : null,
    });
  for (const q of sortRefs(input.quarantined)) add('quarantined', q, 'partition-quarantined');
  for (const p of sortRefs(input.problems)) {
    if (p.status === 'LOST') add('lost', p, 'records-lost');
    else if (p.burrowStatus === 'REWIND') add('REWIND', p, null);
    else if (held.has(key(p))) continue;
    else if (p.burrowStatus === 'STOP') add('STOP', p, 'worker-not-ready');
    else if (p.burrowStatus !== 'OK') add(p.burrowStatus, p, null);
  }
  if (input.objectiveBreached) add('objective', null, null);
  return { causes, unexplained: causes.filter((c) => c.explainedBy === null) };
}

function sortRefs<T extends { topic: string; partition: number }>(refs: readonly T[]): T[] {
  return [...refs].sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

// A record's completion: its partition marks it complete (partition-state.ts), the counters and the
// 'completed' event record it, and the partition's flow decides the commit (partition-flow.ts). A call that
// settles after its record was released completes nothing: its success is remembered when the call was
// detached with 'remember' and its partition is still current (same state, same epoch), so the redelivered
// copy completes without running again; any other outcome is reported as ignored.
//
// Invariants:
// - A record completes at most once: a completion of a record that is not unfinished changes, counts and
//   reports nothing.
// - A detached call never touches a revoked partition, nor one an operator seek discarded since it started.
// - Completion never starts work; its caller runs the scheduler once it is done (one pump per settled call).

import { countCompletion } from './core-counters.js';
import type { CoreEvents } from './core-events.js';
import type { CommitScheduler } from './commit-scheduler.js';
import type { PartitionFlow } from './partition-flow.js';
import type { RecordCall, RecordEntry } from './record-entry.js';
import type { Clock, CompletionOutcome, CoreCounters, RecordPhase, SkipOrigin } from './types.js';

export interface CompletionPorts {
  clock: Clock;
  counters: CoreCounters;
  events: CoreEvents;
  flow: Pick<PartitionFlow, 'completed'>;
  commits: Pick<CommitScheduler, 'schedule'>;
}

export class Completion<T> {
  /** When a record last completed (any outcome), null before the first. */
  lastCompletedAtMs: number | null = null;
  private readonly clock: Clock;
  private readonly counters: CoreCounters;
  private readonly events: CoreEvents;
  private readonly flow: Pick<PartitionFlow, 'completed'>;
  private readonly commits: Pick<CommitScheduler, 'schedule'>;

  constructor(ports: CompletionPorts) {
    this.clock = ports.clock;
    this.counters = ports.counters;
    this.events = ports.events;
    this.flow = ports.flow;
    this.commits = ports.commits;
  }

  complete(entry: RecordEntry<T>, outcome: CompletionOutcome): void {
    const owner = entry.owner;
    if (!owner.complete(entry)) return;
    countCompletion(this.counters, outcome);
    this.lastCompletedAtMs = this.clock.now();
    this.events.emit({
      type: 'completed',
      topic: owner.topic,
      partition: owner.partition,
      offset: entry.offset,
      outcome,
      attempts: entry.handleAttempts,
    });
    this.flow.completed(owner);
  }

  /** A call whose record was released settled (its slot is already freed). */
  settledDetached(call: RecordCall<T>, ok: boolean): void {
    const { entry } = call;
    const owner = entry.owner;
    if (ok && call.detached === 'remember' && !owner.revoked && owner.epoch === call.epoch) {
      owner.remember(entry.offset, 'completed');
      this.commits.schedule();
      return;
    }
    this.events.emit({
      type: 'late-completion-ignored',
      topic: owner.topic,
      partition: owner.partition,
      offset: entry.offset,
      phase: call.phase,
    });
  }
}

/** What a successful call of `phase` completes a record as. */
export function outcomeOf(phase: RecordPhase): CompletionOutcome {
  switch (phase) {
    case 'handle':
      return 'handled';
    case 'permanent-failure':
      return 'failed-result';
    case 'dead-letter':
      return 'dead-lettered';
  }
}

/** What a record known complete before it ran completes as. */
export function skipOutcome(origin: SkipOrigin): CompletionOutcome {
  switch (origin) {
    case 'metadata':
      return 'skipped-metadata';
    case 'completed':
      return 'skipped-completed';
    case 'operator':
      return 'skipped-operator';
  }
}

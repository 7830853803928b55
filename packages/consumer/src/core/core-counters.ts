// The core's running totals (`CoreSnapshot.counters`): one counter per outcome an operator asks about.

import type { CompletionOutcome, CoreCounters } from './types.js';

/** Counters of a core that has done nothing yet. */
export function zeroCounters(): CoreCounters {
  return {
    completed: 0,
    handled: 0,
    retries: 0,
    permanentFailures: 0,
    admissionFailures: 0,
    deadLettered: 0,
    stallDeadLetters: 0,
    quarantines: 0,
    redelivered: 0,
    skippedFromMetadata: 0,
    skippedCompleted: 0,
    skippedByOperator: 0,
    droppedDeliveries: 0,
    commits: 0,
    commitFailures: 0,
  };
}

/** Counts one completed record under its outcome (a failure result counts as completed only). */
export function countCompletion(counters: CoreCounters, outcome: CompletionOutcome): void {
  counters.completed++;
  switch (outcome) {
    case 'handled':
      counters.handled++;
      return;
    case 'dead-lettered':
      counters.deadLettered++;
      return;
    case 'skipped-metadata':
      counters.skippedFromMetadata++;
      return;
    case 'skipped-completed':
      counters.skippedCompleted++;
      return;
    case 'skipped-operator':
      counters.skippedByOperator++;
      return;
    case 'failed-result':
      return;
  }
}

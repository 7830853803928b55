import { describe, expect, it } from 'vitest';
import { countCompletion, zeroCounters } from './core-counters.js';
import type { CompletionOutcome, CoreCounters } from './types.js';

describe('countCompletion', () => {
  it.each<[CompletionOutcome, keyof CoreCounters | null]>([
    ['handled', 'handled'],
    ['dead-lettered', 'deadLettered'],
    ['skipped-metadata', 'skippedFromMetadata'],
    ['skipped-completed', 'skippedCompleted'],
    ['skipped-operator', 'skippedByOperator'],
    ['failed-result', null],
  ])('%s counts as completed and under %s', (outcome, counter) => {
    const counters = zeroCounters();
    countCompletion(counters, outcome);
    const expected = { ...zeroCounters(), completed: 1, ...(counter ? { [counter]: 1 } : {}) };
    expect(counters).toEqual(expected);
  });
});

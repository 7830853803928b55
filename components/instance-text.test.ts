import { describe, expect, it } from 'vitest';
import {
  instanceReadiness,
  instanceStateCounts,
  instanceStateNote,
  partitionCountText,
  partitionListText,
} from './instance-text';

describe('instance texts', () => {
  it('says why an instance is in its state', () => {
    expect(instanceStateNote({ state: 'live', stateIntervalMs: 5_000, goneAfterMs: 15_000 })).toBe('reports every 5 s');
    expect(instanceStateNote({ state: 'live', stateIntervalMs: 1_500, goneAfterMs: 15_000 })).toBe(
      'reports every 1.5 s',
    );
    expect(instanceStateNote({ state: 'gone', stateIntervalMs: 20_000, goneAfterMs: 60_000 })).toBe(
      'no report for over 1 min',
    );
    expect(instanceStateNote({ state: 'stopped', stateIntervalMs: 5_000, goneAfterMs: 15_000 })).toBe(
      'shut down cleanly',
    );
  });

  it('words readiness as current only for a live instance', () => {
    expect(instanceReadiness({ state: 'live', ready: true })).toBe('Ready');
    expect(instanceReadiness({ state: 'live', ready: false })).toBe('Not ready');
    expect(instanceReadiness({ state: 'gone', ready: false })).toBe('Was not ready');
    expect(instanceReadiness({ state: 'stopped', ready: true })).toBe('Was ready');
  });

  it('counts partitions', () => {
    expect(partitionCountText(0)).toBe('none');
    expect(partitionCountText(1)).toBe('1 partition');
    expect(partitionCountText(1_200)).toBe('1,200 partitions');
  });

  it('lists partitions per topic, and says how many the answer left out', () => {
    const listed = [
      { topic: 'audit', partition: 3 },
      { topic: 'orders-in', partition: 0 },
      { topic: 'orders-in', partition: 2 },
    ];
    expect(partitionListText(listed, 3)).toBe('audit 3 · orders-in 0, 2');
    expect(partitionListText(listed, 10)).toBe('audit 3 · orders-in 0, 2 and 7 more');
    expect(partitionListText([], 0)).toBe('');
  });

  it('counts the states present, live first', () => {
    const states = ['stopped', 'live', 'gone', 'live'] as const;
    expect(instanceStateCounts(states.map((state) => ({ state })))).toBe('2 live · 1 gone · 1 stopped');
    expect(instanceStateCounts([{ state: 'gone' }])).toBe('1 gone');
  });
});

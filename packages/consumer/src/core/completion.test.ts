import { describe, expect, it } from 'vitest';
import { CallTracker } from './call-tracker.js';
import { Completion, outcomeOf, skipOutcome } from './completion.js';
import { zeroCounters } from './core-counters.js';
import type { OwnedPartition } from './record-entry.js';
import { ManualClock } from './testing/fake-clock.js';
import { countedCommits, recordedEvents } from './testing/part-fakes.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';

function completionOf() {
  const clock = new ManualClock(5_000);
  const counters = zeroCounters();
  const { events, emitted } = recordedEvents();
  const commits = countedCommits();
  const flowed: OwnedPartition<string>[] = [];
  const flow = { completed: (partition: OwnedPartition<string>) => void flowed.push(partition) };
  const completion = new Completion<string>({ clock, counters, events, flow, commits });
  return { clock, counters, emitted, commits, flowed, completion, calls: new CallTracker<string>(clock) };
}

describe('Completion.complete', () => {
  it('completes the record once: counts, reports, notes the time and hands the partition to its flow', () => {
    const { counters, emitted, flowed, completion } = completionOf();
    const partition = ownedPartition();
    const entry = deliverEntry(partition, 0);
    entry.handleAttempts = 2;
    completion.complete(entry, 'handled');
    completion.complete(entry, 'handled');
    expect(entry.status).toBe('complete');
    expect(entry.record).toBeNull();
    expect(counters).toMatchObject({ completed: 1, handled: 1 });
    expect(emitted).toEqual([
      { type: 'completed', topic: 'events', partition: 0, offset: '0', outcome: 'handled', attempts: 2 },
    ]);
    expect(completion.lastCompletedAtMs).toBe(5_000);
    expect(flowed).toEqual([partition]);
  });

  it('changes nothing for a released record', () => {
    const { counters, emitted, flowed, completion } = completionOf();
    const partition = ownedPartition();
    const entry = deliverEntry(partition, 0);
    partition.releaseFrom(0n, true);
    completion.complete(entry, 'handled');
    expect([counters.completed, emitted.length, flowed.length, completion.lastCompletedAtMs]).toEqual([0, 0, 0, null]);
  });
});

describe('Completion.settledDetached', () => {
  it('remembers the success of a call detached to be remembered, and schedules a commit', () => {
    const { commits, emitted, completion, calls } = completionOf();
    const partition = ownedPartition();
    const call = calls.begin(deliverEntry(partition, 3), 'handle', true, 1);
    calls.detach(call, 'remember', null);
    completion.settledDetached(call, true);
    expect(partition.skip.get('3')).toBe('completed');
    expect(commits.scheduled).toBe(1);
    expect(emitted).toEqual([]);
  });

  it.each([
    { case: 'a failure', ok: false, mode: 'remember', change: () => undefined },
    { case: 'an ignored call', ok: true, mode: 'ignore', change: () => undefined },
    {
      case: 'a revoked partition',
      ok: true,
      mode: 'remember',
      change: (p: OwnedPartition<string>) => (p.revoked = true),
    },
    {
      case: 'an operator seek since the call began',
      ok: true,
      mode: 'remember',
      change: (p: OwnedPartition<string>) => void p.discardAll(10n),
    },
  ] as const)('ignores $case and reports it', ({ ok, mode, change }) => {
    const { commits, emitted, completion, calls } = completionOf();
    const partition = ownedPartition();
    const call = calls.begin(deliverEntry(partition, 3), 'permanent-failure', false, 1);
    calls.detach(call, mode, null);
    change(partition);
    completion.settledDetached(call, ok);
    expect(partition.skip.has('3')).toBe(false);
    expect(commits.scheduled).toBe(0);
    expect(emitted).toEqual([
      { type: 'late-completion-ignored', topic: 'events', partition: 0, offset: '3', phase: 'permanent-failure' },
    ]);
  });
});

describe('completion outcomes', () => {
  it('names what a successful call or a known completion completes a record as', () => {
    expect((['handle', 'permanent-failure', 'dead-letter'] as const).map(outcomeOf)).toEqual([
      'handled',
      'failed-result',
      'dead-lettered',
    ]);
    expect((['metadata', 'completed', 'operator'] as const).map(skipOutcome)).toEqual([
      'skipped-metadata',
      'skipped-completed',
      'skipped-operator',
    ]);
  });
});

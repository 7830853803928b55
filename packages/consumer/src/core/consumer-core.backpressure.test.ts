import { describe, expect, it } from 'vitest';
import { createHarness, makeRecord, makeRecords, tp } from './testing/harness.js';

describe('ConsumerCore backpressure', () => {
  it('pauses only the partition whose pending records reach the limit; resumes below half after commits', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 4, assign: [tp(0), tp(1)] });
    h.core.deliver(makeRecords(0, 3, { partition: 0 }));
    expect(h.source.isPaused(tp(0))).toBe(false);
    h.core.deliver(makeRecords(3, 1, { partition: 0 }));
    expect(h.source.isPaused(tp(0))).toBe(true);
    expect(h.partitionSnapshot(0).paused).toBe(true);
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    expect(h.source.isPaused(tp(1))).toBe(false);

    // Completion alone does not free pending slots: the records stay held until committed.
    await h.succeed(0, 0);
    await h.succeed(1, 0);
    expect(h.source.isPaused(tp(0))).toBe(true);
    await h.core.commitNow(); // pending 2: not below half (2) yet
    expect(h.source.isPaused(tp(0))).toBe(true);
    await h.succeed(2, 0);
    await h.core.commitNow(); // pending 1
    expect(h.source.isPaused(tp(0))).toBe(false);
    expect(h.source.pauseCalls(tp(0), 'pause')).toBe(1);
    expect(h.source.pauseCalls(tp(0), 'resume')).toBe(1);
    expect(h.eventsOf('backpressure').map((event) => event.paused)).toEqual([true, false]);
  });

  it('accepts a batch beyond the limit whole: the bound is the limit plus one fetch batch', () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 4 });
    expect(h.core.deliver(makeRecords(0, 10))).toMatchObject({ accepted: 10 });
    expect(h.partitionSnapshot().deliveredCount).toBe(10);
    expect(h.source.isPaused(tp())).toBe(true);
  });

  it('pauses on unfinished payload bytes and resumes when completions free them', async () => {
    const h = createHarness({ ordering: 'unordered', maxBufferedBytesPerPartition: 100 });
    const big = 'x'.repeat(40);
    h.core.deliver([makeRecord(0, { value: big }), makeRecord(1, { value: big })]);
    expect(h.source.isPaused(tp())).toBe(false);
    expect(h.partitionSnapshot().bufferedBytes).toBe(80);
    h.core.deliver([makeRecord(2, { value: big })]);
    expect(h.source.isPaused(tp())).toBe(true);
    await h.succeed(0);
    expect(h.source.isPaused(tp())).toBe(true); // 80 >= 50
    await h.succeed(1);
    expect(h.partitionSnapshot().bufferedBytes).toBe(40);
    expect(h.source.isPaused(tp())).toBe(false);
  });

  it('does not resume a quarantined partition when backpressure clears', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 4 });
    h.core.deliver(makeRecords(0, 4));
    expect(h.source.isPaused(tp())).toBe(true);
    // A batch fetched before the pause landed still arrives, with a bad record in it.
    h.core.deliver([makeRecord(4, { invalid: true })]);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('4');
    for (let offset = 0; offset < 4; offset++) await h.succeed(offset);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('4');
    expect(h.partitionSnapshot()).toMatchObject({ paused: false, deliveredCount: 1 });
    expect(h.source.isPaused(tp())).toBe(true);
    expect(h.source.pauseCalls(tp(), 'resume')).toBe(0);
  });
});

describe('ConsumerCore backpressure and commits', () => {
  const transient = Object.assign(new Error('coordinator loading'), { retriable: true });

  it('commits a backpressured partition on the next timer turn after its records complete, not at the next interval', async () => {
    const h = createHarness({
      ordering: 'unordered',
      maxPendingPerPartition: 4,
      commitIntervalMs: 60_000,
      assign: [tp(0), tp(1)],
    });
    h.core.deliver(makeRecords(0, 4, { partition: 0 }));
    h.core.deliver(makeRecords(0, 1, { partition: 1 }));
    expect(h.source.isPaused(tp(0))).toBe(true);
    for (let offset = 0; offset < 3; offset++) await h.succeed(offset, 0);
    // Completions of one burst share the commit: it waits for the timer turn, not for time.
    expect(h.source.calls.filter((call) => call.op === 'commit')).toHaveLength(0);
    await h.clock.tick(0);
    // No time passed: the paused partition committed and resumed anyway (pending 1 < half of 4).
    expect(h.source.committed(tp(0))?.offset).toBe('3');
    expect(h.source.isPaused(tp(0))).toBe(false);
    // The one commit in flight at a time carries everything committable, the unpaused partition included.
    await h.succeed(0, 1);
    expect(h.source.committed(tp(1))).toBeUndefined();
  });

  it('commits early from half the pending budget, but only when the commit would release records', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 8, commitIntervalMs: 60_000 });
    h.core.deliver(makeRecords(0, 4));
    expect(h.source.isPaused(tp())).toBe(false);
    const commits = () => h.source.calls.filter((call) => call.op === 'commit').length;
    // The head is unfinished: a commit would release nothing, so none before the interval.
    await h.succeed(1);
    await h.clock.tick(0);
    expect(commits()).toBe(0);
    await h.succeed(0);
    await h.clock.tick(0);
    expect(h.source.committed(tp())?.offset).toBe('2');
    expect(commits()).toBe(1);
    // Below half the budget (2 pending of 8) completions wait for the interval again.
    await h.succeed(2);
    await h.clock.tick(0);
    expect(commits()).toBe(1);
    await h.clock.tick(60_000);
    expect(h.source.committed(tp())?.offset).toBe('3');
  });

  it('coalesces completions during a commit in flight into one follow-up commit', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 8, commitIntervalMs: 60_000 });
    h.core.deliver(makeRecords(0, 8));
    h.source.holdNextCommits();
    await h.succeed(0);
    await h.clock.tick(0);
    expect(h.source.heldCommitCount).toBe(1);
    for (let offset = 1; offset < 5; offset++) {
      await h.succeed(offset);
      await h.clock.tick(0);
    }
    h.source.holdNextCommits(false);
    h.source.releaseHeldCommit();
    await h.core.commitNow();
    const commitCalls = h.source.calls.filter((call) => call.op === 'commit');
    // The held one, the single coalesced follow-up, and nothing new for commitNow (nothing changed).
    expect(commitCalls).toHaveLength(2);
    expect(h.source.committed(tp())?.offset).toBe('5');
  });

  it('after a failed commit, a paused partition waits the interval before trying again (no tight loop)', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 4, commitIntervalMs: 1_000 });
    h.core.deliver(makeRecords(0, 4));
    h.source.rejectCommits(transient);
    await h.succeed(0);
    await h.clock.tick(0);
    await h.succeed(1);
    await h.succeed(2);
    expect(h.source.calls.filter((call) => call.op === 'commit')).toHaveLength(1);
    expect(h.source.isPaused(tp())).toBe(true);
    await h.clock.tick(1_000);
    expect(h.source.committed(tp())?.offset).toBe('3');
    expect(h.source.isPaused(tp())).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeCompletedAbove } from './offsets.js';
import { flushMicrotasks } from './testing/fake-clock.js';
import { createHarness, makeRecord, makeRecords, tp, transientError } from './testing/harness.js';

describe('ConsumerCore commits', () => {
  it('never commits past an unfinished delivered record when completion is out of order', async () => {
    const h = createHarness({ commitIntervalMs: 1000 });
    h.core.deliver(['a', 'b', 'c', 'd'].map((key, i) => makeRecord(i, { key })));
    expect(h.started()).toEqual(['0', '1', '2', '3']);

    await h.succeed(1);
    await h.succeed(2);
    await h.succeed(3);
    await h.clock.tick(5000);
    expect(h.source.commits).toEqual([]);
    expect(h.partitionSnapshot().committableOffset).toBeNull();

    await h.succeed(0);
    await h.clock.tick(1000);
    expect(h.source.commits).toEqual([[{ topic: 'events', partition: 0, offset: '4', metadata: 'w1:4:' }]]);
  });

  it('commits the completed prefix and carries completed offsets above it in the metadata', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 5));
    await h.succeed(0);
    await h.succeed(1);
    await h.core.commitNow();
    expect(h.source.committed(tp())).toMatchObject({ offset: '2', metadata: 'w1:2:' });

    await h.succeed(3);
    await h.succeed(4);
    await h.core.commitNow();
    const stuck = h.source.committed(tp())!;
    expect(stuck.offset).toBe('2');
    expect(decodeCompletedAbove('2', stuck.metadata)).toEqual(new Set(['3', '4']));

    await h.succeed(2);
    await h.core.commitNow();
    expect(h.source.committed(tp())).toMatchObject({ offset: '5', metadata: 'w1:5:' });
  });

  it('respects offset gaps: the commit follows delivered records, not numbers', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver([makeRecord(10), makeRecord(12), makeRecord(15)]);
    await h.succeed(10);
    await h.succeed(15);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('11');
    await h.succeed(12);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('16');
  });

  it('commits at most once per commitIntervalMs, only when something changed', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.core.deliver(makeRecords(0, 3));
    await h.succeed(0);
    await h.clock.tick(999);
    expect(h.source.commits).toHaveLength(0);
    await h.clock.tick(1);
    expect(h.source.commits).toHaveLength(1);

    await h.succeed(1);
    await h.clock.tick(500);
    expect(h.source.commits).toHaveLength(1);
    await h.clock.tick(500);
    expect(h.source.commits).toHaveLength(2);
    expect(h.source.committed(tp())?.offset).toBe('2');

    await h.clock.tick(10_000);
    expect(h.source.commits).toHaveLength(2);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('drops bookkeeping below the watermark after a successful commit', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 4));
    await h.succeed(0);
    await h.succeed(1);
    expect(h.partitionSnapshot()).toMatchObject({ deliveredCount: 4, completedUncommitted: 2, watermark: null });
    await h.core.commitNow();
    expect(h.partitionSnapshot()).toMatchObject({
      deliveredCount: 2,
      completedUncommitted: 0,
      watermark: '2',
      highestCompleted: '1',
      inFlight: 2,
    });
  });

  it('retries a failed commit at the next interval and reports it', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.source.rejectCommits(Object.assign(new Error('coordinator moved'), { type: 'NOT_COORDINATOR' }));
    h.core.deliver(makeRecords(0, 1));
    await h.succeed(0);
    await h.clock.tick(1000);
    expect(h.source.commits).toHaveLength(0);
    expect(h.eventsOf('commit-failed')).toHaveLength(1);
    expect(h.eventsOf('commit-failed')[0]!.errorClass).toBe('transient');
    expect(h.core.isFatal()).toBe(false);

    await h.clock.tick(1000);
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.core.snapshot().counters).toMatchObject({ commits: 1, commitFailures: 1 });
  });

  it('spaces repeated commit failures by the interval (no hot retry loop against a failing broker)', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.source.rejectCommits(new Error('Request timed out'), 3);
    h.core.deliver(makeRecords(0, 1));
    await h.succeed(0);
    const attempts = () => h.source.calls.filter((call) => call.op === 'commit').length;
    await h.clock.tick(1000);
    expect(attempts()).toBe(1);
    await h.clock.tick(999);
    expect(attempts()).toBe(1);
    await h.clock.tick(1);
    expect(attempts()).toBe(2);
    await h.clock.tick(999);
    expect(attempts()).toBe(2);
    await h.clock.tick(1);
    expect(attempts()).toBe(3);
    await h.clock.tick(1000);
    expect(attempts()).toBe(4);
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('a change during an in-flight commit waits a full interval after that commit started', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.core.deliver(makeRecords(0, 2));
    await h.succeed(0);
    h.source.holdNextCommits();
    await h.clock.tick(1000); // commit of 1 starts at t=2000 and hangs
    await h.clock.tick(500);
    await h.succeed(1);
    h.source.holdNextCommits(false);
    h.source.releaseHeldCommit();
    await h.clock.tick(0);
    expect(h.source.calls.filter((call) => call.op === 'commit')).toHaveLength(1);
    await h.clock.tick(499);
    expect(h.source.calls.filter((call) => call.op === 'commit')).toHaveLength(1);
    await h.clock.tick(1);
    expect(h.source.commits.map((batch) => batch[0]!.offset)).toEqual(['1', '2']);
  });

  it('goes fatal when the commit error is classified permanent', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.source.rejectCommits(
      Object.assign(new Error('Not authorized to access group'), { type: 'GROUP_AUTHORIZATION_FAILED' }),
    );
    h.core.deliver(makeRecords(0, 2));
    await h.succeed(0);
    await h.core.commitNow();
    expect(h.core.isFatal()).toBe(true);
    expect(h.core.fatalReason).toMatch(/commit failed permanently/);
    expect(h.core.state).toBe('fatal');
    expect(h.core.deliver(makeRecords(2, 1))).toEqual({ accepted: 0, ignored: 0, dropped: 1 });
  });

  it('commits without metadata when the completed-above set does not fit', async () => {
    const h = createHarness({ ordering: 'unordered', metadataMaxBytes: 12 });
    h.core.deliver(makeRecords(0, 20));
    await h.succeed(0);
    for (let offset = 2; offset < 20; offset += 2) await h.succeed(offset);
    await h.core.commitNow();
    expect(h.source.committed(tp())).toEqual({ topic: 'events', partition: 0, offset: '1', metadata: null });
    expect(h.eventsOf('metadata-overflow')).toEqual([
      { type: 'metadata-overflow', topic: 'events', partition: 0, offset: '1' },
    ]);
  });

  it('serialises commits: a commit requested during another one waits and then sends the newer state', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 3));
    await h.succeed(0);
    h.source.holdNextCommits();
    const first = h.core.commitNow();
    await flushMicrotasks();
    await h.succeed(1);
    const second = h.core.commitNow();
    await flushMicrotasks();
    expect(h.source.calls.filter((call) => call.op === 'commit')).toHaveLength(1);
    h.source.holdNextCommits(false);
    h.source.releaseHeldCommit();
    await first;
    await second;
    expect(h.source.commits.map((batch) => batch[0]!.offset)).toEqual(['1', '2']);
  });

  it('does not count a retry as progress: a retrying first record keeps the commit where it is', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 2));
    await h.fail(0, transientError());
    await h.succeed(1);
    await h.core.commitNow();
    expect(h.source.commits).toEqual([]);
  });

  it('ignores a commit acknowledgement that arrives after an operator seek discarded the partition state', async () => {
    const h = createHarness({ ordering: 'partition' });
    h.core.deliver([makeRecord(0), makeRecord(1), makeRecord(2, { invalid: true })]);
    await h.succeed(0);
    await h.succeed(1);
    h.source.holdNextCommits();
    const inFlight = h.core.commitNow();
    await flushMicrotasks();
    h.core.seekQuarantined(tp(), '0'); // the operator rewinds to reprocess from 0
    h.source.holdNextCommits(false);
    h.source.releaseHeldCommit(); // the broker stores 2, but the core must not adopt it
    await inFlight;
    expect(h.partitionSnapshot().watermark).toBeNull();

    h.core.deliver(makeRecords(0, 1));
    await h.succeed(0);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('1');
  });

  it('keeps a partition revoked during an in-flight commit untouched when the acknowledgement arrives', async () => {
    const h = createHarness({ ordering: 'unordered', maxPendingPerPartition: 2, assign: [tp(0), tp(1)] });
    h.source.holdNextCommits();
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    // p1 is backpressured (2 pending of 2): its completions start a commit at once, held in flight here.
    await h.succeed(0, 1);
    await h.succeed(1, 1);
    await h.clock.tick(0);
    expect(h.source.heldCommitCount).toBe(1);
    const inFlight = h.core.commitNow();
    await flushMicrotasks();
    h.core.onAssignment([tp(0)]); // p1 revoked (its pause is lifted so a reassignment does not start paused)
    const callsAfterRevoke = h.source.calls.length;
    h.source.holdNextCommits(false);
    h.source.releaseHeldCommit();
    await inFlight;
    // No pause/resume/seek for the revoked partition because of the late acknowledgement.
    expect(h.source.calls.slice(callsAfterRevoke)).toEqual([]);
    expect(h.core.owns(tp(1))).toBe(false);
  });
});

describe('ConsumerCore commits at the log end', () => {
  it('commits on the next timer turn once every record up to the reported log end completed', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.core.deliver(makeRecords(0, 3), '3');
    await h.succeed(0);
    await h.succeed(1);
    await h.clock.tick(0);
    expect(h.source.commits).toEqual([]);

    await h.succeed(2);
    await h.clock.tick(0);
    expect(h.source.commits).toEqual([[{ topic: 'events', partition: 0, offset: '3', metadata: 'w1:3:' }]]);
    await h.clock.tick(10_000);
    expect(h.source.commits).toHaveLength(1);
  });

  it('waits for the interval while the log end is ahead of the delivered records, or is unknown', async () => {
    const ahead = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    ahead.core.deliver(makeRecords(0, 3), '10');
    const unknown = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    unknown.core.deliver(makeRecords(0, 3));
    for (const h of [ahead, unknown]) {
      for (const offset of [0, 1, 2]) await h.succeed(offset);
      await h.clock.tick(999);
      expect(h.source.commits).toEqual([]);
      await h.clock.tick(1);
      expect(h.source.committed(tp())?.offset).toBe('3');
    }
  });

  it('waits for the interval while a record below the log end is unfinished, and commits early once it completes', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.core.deliver(makeRecords(0, 3), '3');
    await h.succeed(0);
    await h.succeed(2);
    await h.clock.tick(500);
    expect(h.source.commits).toEqual([]);

    await h.succeed(1);
    await h.clock.tick(0);
    expect(h.source.committed(tp())).toMatchObject({ offset: '3', metadata: 'w1:3:' });
  });

  it('keeps the highest log end reported: an older, lower report does not make a partition look drained', async () => {
    const h = createHarness({ ordering: 'unordered', commitIntervalMs: 1000 });
    h.core.deliver(makeRecords(0, 2), '5');
    h.core.deliver(makeRecords(2, 1), '3');
    for (const offset of [0, 1, 2]) await h.succeed(offset);
    await h.clock.tick(999);
    expect(h.source.commits).toEqual([]);
  });

  it('refuses a log end that is not an offset, before it takes any record', () => {
    const h = createHarness({ ordering: 'unordered' });
    expect(() => h.core.deliver(makeRecords(0, 2), 'end')).toThrow(/log end offset is not an int64 offset: end/);
    expect(h.started()).toEqual([]);
    expect(h.partitionSnapshot().deliveredCount).toBe(0);
    expect(h.core.deliver(makeRecords(0, 2), '2').accepted).toBe(2);
  });
});

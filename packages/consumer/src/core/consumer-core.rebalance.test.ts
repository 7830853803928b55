import { describe, expect, it } from 'vitest';
import { ConsumerCore } from './consumer-core.js';
import type { QuarantineClearReason, TopicPartition } from './types.js';
import { FakeSource } from './testing/fake-source.js';
import { ManualClock } from './testing/fake-clock.js';
import { createHarness, makeRecord, makeRecords, tp } from './testing/harness.js';

describe('ConsumerCore rebalance', () => {
  it('onRebalanceStart commits the completed prefix and stops starting work', async () => {
    const h = createHarness({ ordering: 'partition' });
    h.core.deliver(makeRecords(0, 3));
    await h.succeed(0);
    await h.core.onRebalanceStart();
    expect(h.source.committed(tp())?.offset).toBe('1');
    expect(h.core.state).toBe('rebalancing');
    await h.succeed(1); // running work may finish...
    expect(h.started()).toEqual(['0', '1']); // ...but 2, now the lane head, is not started
    expect(h.core.deliver(makeRecords(3, 1))).toEqual({ accepted: 0, ignored: 0, dropped: 1 });
  });

  it('drops revoked partitions: their late completions are ignored and nothing is committed for them', async () => {
    const cleared: Array<[TopicPartition, QuarantineClearReason]> = [];
    const h = createHarness({
      ordering: 'unordered',
      assign: [tp(0), tp(1), tp(2)],
      onQuarantineCleared: (partition, reason) => {
        cleared.push([partition, reason]);
      },
    });
    h.core.deliver(makeRecords(0, 2, { partition: 0 }));
    h.core.deliver(makeRecords(0, 2, { partition: 1 }));
    h.core.deliver([makeRecord(0, { partition: 2, invalid: true })]);
    await h.succeed(0, 1); // p1@0 completed but not committed yet

    await h.core.onRebalanceStart();
    expect(h.source.committed(tp(1))?.offset).toBe('1');
    const commitsBefore = h.source.commits.length;
    h.core.onAssignment([tp(0)]);

    const signal = h.calls.find((call) => call.partition === 1 && call.offset === '1')!.signal!;
    expect(signal.aborted).toBe(true);
    await h.succeed(1, 1); // the revoked partition's in-flight work finishes...
    await h.core.commitNow();
    // ...and is ignored: no commit for p1, no state for p1 or p2.
    expect(
      h.source.commits
        .slice(commitsBefore)
        .flat()
        .map((request) => request.partition),
    ).toEqual([]);
    expect(h.core.snapshot().partitions.map((partition) => partition.partition)).toEqual([0]);
    expect(h.eventsOf('late-completion-ignored')).toMatchObject([{ partition: 1, offset: '1' }]);
    expect(h.core.snapshot().inFlight).toBe(2); // p0's two calls still hold their slots
    expect(cleared).toEqual([[tp(2), 'revoked']]);
    expect(h.source.isPaused(tp(2))).toBe(false); // a later reassignment must not start paused
    expect(h.core.owns(tp(1))).toBe(false);
    expect(h.core.deliver(makeRecords(2, 1, { partition: 1 }))).toMatchObject({ dropped: 1 });
  });

  it('rewinds kept partitions: uncommitted records are redelivered; completed ones are not run again', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 4));
    await h.succeed(0);
    h.source.rejectCommits(Object.assign(new Error('rebalancing'), { type: 'REBALANCE_IN_PROGRESS' }));
    await h.succeed(2); // complete above an unfinished record
    await h.core.onRebalanceStart(); // the commit fails: the broker still has nothing
    h.core.onAssignment([tp(0)]);
    expect(h.eventsOf('redelivered')).toMatchObject([{ partition: 0, count: 4, reason: 'rebalance' }]);
    expect(h.core.snapshot().counters.redelivered).toBe(4);
    expect(h.partitionSnapshot().deliveredCount).toBe(0);

    // The source restarts from the committed offset (none -> 0); calls for 1 and 3 are still running.
    h.core.deliver(makeRecords(0, 4));
    expect(h.core.snapshot().counters.skippedCompleted).toBe(2); // 0 and 2
    expect(h.started()).toEqual(['0', '1', '2', '3']); // no second concurrent run of 1 or 3

    await h.succeed(1); // the original call finishes: its redelivered copy completes without running again
    expect(h.started()).toEqual(['0', '1', '2', '3']);
    await h.core.commitNow();
    expect(h.source.committed(tp())?.offset).toBe('3');
    expect(h.core.snapshot().counters.skippedCompleted).toBe(3);
  });

  it('a redelivered copy of a record whose original call failed runs again after that call settles', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(0, 1));
    await h.core.onRebalanceStart();
    h.core.onAssignment([tp(0)]);
    h.core.deliver(makeRecords(0, 1));
    expect(h.started()).toEqual(['0']);
    await h.fail(0, new Error('ECONNRESET'));
    expect(h.started()).toEqual(['0', '0']);
  });

  it('keeps the quarantine of a kept partition; lifting it rewinds to the commit point', async () => {
    const h = createHarness({ ordering: 'partition' });
    h.core.deliver([makeRecord(0), makeRecord(1), makeRecord(2, { invalid: true })]);
    await h.succeed(0);
    await h.core.onRebalanceStart(); // commits 1
    h.core.onAssignment([tp(0)]);
    expect(h.partitionSnapshot().quarantine?.offset).toBe('2');
    expect(h.source.isPaused(tp())).toBe(true);
    const result = h.core.resumeQuarantined(tp());
    expect(result.seekOffset).toBe('1'); // record 1 was released by the rewind and must be read again
    expect(h.source.isPaused(tp())).toBe(false);
  });

  it('a partition assigned again after a revoke starts from scratch', async () => {
    const h = createHarness({ ordering: 'unordered' });
    h.core.deliver(makeRecords(5, 2));
    await h.core.onRebalanceStart();
    h.core.onAssignment([]);
    h.core.onAssignment([tp(0)]);
    expect(h.partitionSnapshot()).toMatchObject({ deliveredCount: 0, watermark: null });
    expect(h.core.deliver(makeRecords(0, 2))).toMatchObject({ accepted: 2 });
  });
});

describe('ConsumerCore restart from commit metadata', () => {
  it('skips records the previous owner completed above the commit, and commits past them', async () => {
    const before = createHarness({ ordering: 'unordered' });
    before.core.deliver(makeRecords(0, 6));
    for (const offset of [0, 1, 3, 4]) await before.succeed(offset);
    await before.core.commitNow();
    const { offset, metadata } = before.source.committed(tp())!;
    expect(offset).toBe('2');

    const after = createHarness({ ordering: 'unordered' });
    expect(after.core.setCommittedMetadata(tp(), offset, metadata)).toBe(2);
    after.core.deliver(makeRecords(2, 4));
    expect(after.started()).toEqual(['2', '5']);
    expect(after.core.snapshot().counters.skippedFromMetadata).toBe(2);
    await after.succeed(2);
    await after.succeed(5);
    await after.core.commitNow();
    expect(after.source.committed(tp())?.offset).toBe('6');
  });

  it('ignores foreign metadata and the "no commit" offset', () => {
    const h = createHarness({ ordering: 'unordered' });
    expect(h.core.setCommittedMetadata(tp(), '2', 'some other tool')).toBe(0);
    expect(h.core.setCommittedMetadata(tp(), '-1', null)).toBe(0);
    h.core.deliver(makeRecords(2, 2));
    expect(h.started()).toEqual(['2', '3']);
    expect(() => h.core.setCommittedMetadata(tp(9), '0', null)).toThrow(/not owned/);
  });

  it('ignores redelivered records below the committed offset', () => {
    const clock = new ManualClock();
    const source = new FakeSource();
    const started: string[] = [];
    const core = new ConsumerCore<string>({
      source,
      clock,
      random: () => 0,
      admit: (record) => ({ ok: true, value: record.offset, orderingKey: null }),
      handle: async (value) => {
        started.push(value);
      },
    });
    core.onAssignment([tp()]);
    core.setCommittedMetadata(tp(), '10', null);
    expect(core.deliver(makeRecords(8, 4))).toEqual({ accepted: 2, ignored: 2, dropped: 0 });
    expect(started).toEqual(['10']);
  });
});

import { describe, expect, it } from 'vitest';
import { Backpressure } from './backpressure.js';
import { PartitionFlow } from './partition-flow.js';
import { SourceControl } from './source-control.js';
import { FakeSource } from './testing/fake-source.js';
import { countedCommits, recordedEvents, ROUTING } from './testing/part-fakes.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';

// Limits: 4 pending records, 1 MB; resume below 2 pending.
function flowOf() {
  const source = new FakeSource();
  const { events, emitted } = recordedEvents();
  const commits = countedCommits();
  let fatal: string | null = null;
  const sourceControl = new SourceControl(
    source,
    ROUTING,
    { isFatal: () => fatal !== null, setFatal: (reason) => (fatal = reason) },
    (event) => events.emit(event),
  );
  const flow = new PartitionFlow({ backpressure: new Backpressure(4, 1_000_000), sourceControl, commits, events });
  return { flow, source, emitted, commits, fatal: () => fatal };
}

describe('PartitionFlow.update', () => {
  it('pauses at the limit and resumes below half, one event and one source call per change', () => {
    const { flow, source, emitted } = flowOf();
    const partition = ownedPartition();
    const entries = [0, 1, 2, 3].map((offset) => deliverEntry(partition, offset));
    flow.update(partition);
    flow.update(partition);
    expect(source.isPaused(partition.tp)).toBe(true);
    expect(source.pauseCalls(partition.tp, 'pause')).toBe(1);
    expect(emitted).toEqual([
      { type: 'backpressure', topic: 'events', partition: 0, paused: true, pending: 4, bufferedBytes: 0 },
    ]);

    for (const entry of entries) partition.complete(entry);
    partition.acknowledgeCommit({ topic: 'events', partition: 0, offset: '3', metadata: null });
    flow.update(partition); // 1 pending: below half
    expect(source.isPaused(partition.tp)).toBe(false);
    expect(emitted.at(-1)).toMatchObject({ type: 'backpressure', paused: false, pending: 1 });
    expect(emitted).toHaveLength(2);
  });

  it('keeps a quarantined partition paused when its backpressure ends', () => {
    const { flow, source } = flowOf();
    const partition = ownedPartition();
    const entry = deliverEntry(partition, 0);
    partition.quarantine = { info: {} as never, entry, resumeFrom: '0' };
    flow.update(partition);
    expect(partition.backpressured).toBe(false);
    expect(source.isPaused(partition.tp)).toBe(true);
  });

  it('a failed pause makes the core fatal through source control', () => {
    const { flow, source, fatal } = flowOf();
    const partition = ownedPartition();
    for (const offset of [0, 1, 2, 3]) deliverEntry(partition, offset);
    source.failNext.pause = new Error('not running');
    flow.update(partition);
    expect(fatal()).toMatch(/^pause of events\[0\] failed: .*not running$/);
  });
});

describe('PartitionFlow.completed: when the commit goes', () => {
  it('schedules at the interval while the partition is far from its budget', () => {
    const { flow, commits } = flowOf();
    const partition = ownedPartition();
    partition.complete(deliverEntry(partition, 0)); // 1 pending, below half the budget; log end unknown
    flow.completed(partition);
    expect(commits).toMatchObject({ scheduled: 1, expedited: 0 });
  });

  it('expedites from half the pending budget when a commit would release records', () => {
    const { flow, commits } = flowOf();
    const partition = ownedPartition();
    const [first, second] = [0, 1, 2].map((offset) => deliverEntry(partition, offset));
    partition.complete(second!); // 3 pending, nothing releasable: the prefix is not complete
    flow.completed(partition);
    expect(commits).toMatchObject({ scheduled: 1, expedited: 0 });
    partition.complete(first!);
    flow.completed(partition);
    expect(commits).toMatchObject({ scheduled: 1, expedited: 1 });
  });

  it('expedites once every record up to the reported log end completed', () => {
    const { flow, commits } = flowOf();
    const partition = ownedPartition();
    partition.reportLogEnd(1n);
    partition.complete(deliverEntry(partition, 0));
    flow.completed(partition);
    expect(commits).toMatchObject({ scheduled: 0, expedited: 1 });
  });
});

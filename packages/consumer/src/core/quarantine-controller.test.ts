import { describe, expect, it } from 'vitest';
import { Backpressure } from './backpressure.js';
import { CallTracker } from './call-tracker.js';
import { Completion } from './completion.js';
import { zeroCounters } from './core-counters.js';
import { PartitionFlow } from './partition-flow.js';
import { QuarantineController, type QuarantineCallbacks } from './quarantine-controller.js';
import type { OwnedPartition } from './record-entry.js';
import { RecordRelease } from './record-release.js';
import { SourceControl } from './source-control.js';
import { ManualClock } from './testing/fake-clock.js';
import { FakeSource } from './testing/fake-source.js';
import { makeRecord } from './testing/harness.js';
import { countedCommits, recordedEvents, ROUTING } from './testing/part-fakes.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';
import type { DeadLetterInfo, QuarantineClearReason, QuarantineInfo, TopicPartition } from './types.js';

const INFO: DeadLetterInfo = { errorClass: 'missing-result-key', reason: 'result key missing', attempts: 0 };
const TP: TopicPartition = { topic: 'events', partition: 0 };

function controllerOf(callbacks: QuarantineCallbacks = {}) {
  const clock = new ManualClock(2_000);
  const counters = zeroCounters();
  const { events, emitted } = recordedEvents();
  const status: { fatal: string | null } = { fatal: null };
  const source = new FakeSource();
  const calls = new CallTracker<string>(clock);
  const commits = countedCommits();
  const sourceControl = new SourceControl(
    source,
    ROUTING,
    { isFatal: () => status.fatal !== null, setFatal: (reason) => (status.fatal ??= reason) },
    (event) => events.emit(event),
  );
  const flow = new PartitionFlow({ backpressure: new Backpressure(100, 1e9), sourceControl, commits, events });
  const release = new RecordRelease<string>({ clock, calls, counters, events });
  const completion = new Completion<string>({ clock, counters, events, flow, commits });
  const scheduler = { pumps: 0, pump: () => void scheduler.pumps++ };
  const partition = ownedPartition();
  const partitions = new Map<string, OwnedPartition<string>>([[partition.key, partition]]);
  const controller = new QuarantineController<string>({
    clock,
    counters,
    events,
    callbacks,
    status,
    partitions,
    release,
    completion,
    flow,
    sourceControl,
    commits,
    scheduler,
  });
  return { controller, partition, source, calls, counters, emitted, status, commits, scheduler };
}

/** Records 0..3 delivered; 0 runs, 1 is held (with a record of its own payload), 2 and 3 wait. */
function held(callbacks: QuarantineCallbacks = {}) {
  const setup = controllerOf(callbacks);
  const { partition, calls, controller } = setup;
  const entries = [0, 1, 2, 3].map((offset) => deliverEntry(partition, offset));
  entries.forEach((entry) => partition.lanes.enqueue('', entry));
  const running = calls.begin(entries[0]!, 'handle', true, 1);
  const laterCall = calls.begin(entries[2]!, 'handle', true, 1);
  entries[1]!.record = makeRecord(1, { key: 'k', value: 'no-id' });
  entries[1]!.handleAttempts = 0;
  controller.hold(entries[1]!, INFO);
  return { ...setup, entries, running, laterCall };
}

describe('QuarantineController.hold', () => {
  it('stops the partition at the record: pause, seek back, release what follows, report once', () => {
    const quarantines: QuarantineInfo[] = [];
    const { partition, entries, running, laterCall, source, counters, emitted } = held({
      onQuarantine: (q) => void quarantines.push(q),
    });
    expect(source.isPaused(TP)).toBe(true);
    expect(source.seeks(TP)).toEqual(['1']);
    expect(entries.map((entry) => entry.status)).toEqual(['buffered', 'quarantined', 'released', 'released']);
    expect(entries[1]!.lane).toBeUndefined();
    expect(running.detached).toBeNull(); // records before it keep running
    expect(laterCall.detached).toBe('remember');
    const info: QuarantineInfo = {
      topic: 'events',
      partition: 0,
      offset: '1',
      reason: 'result key missing',
      errorClass: 'missing-result-key',
      sinceMs: 2_000,
      attempts: 0,
      key: Buffer.from('k'),
      value: Buffer.from('no-id'),
      headers: {},
      timestampMs: 0,
    };
    expect(partition.quarantine).toEqual({ info, entry: entries[1], resumeFrom: '1' });
    expect(quarantines).toEqual([info]);
    expect(counters).toMatchObject({ quarantines: 1, redelivered: 2 });
    expect(emitted.map((event) => event.type)).toEqual(['redelivered', 'quarantined']);
  });

  it('reports a callback that throws or rejects, and holds all the same', async () => {
    const throwing = held({
      onQuarantine: () => {
        throw new Error('store down');
      },
    });
    const rejecting = held({ onQuarantine: () => Promise.reject(new Error('store down')) });
    await Promise.resolve();
    for (const { emitted, partition } of [throwing, rejecting]) {
      expect(emitted.filter((event) => event.type === 'callback-failed')).toMatchObject([
        { callback: 'onQuarantine', error: { message: 'store down' } },
      ]);
      expect(partition.quarantine).not.toBeNull();
    }
  });
});

describe('QuarantineController: operator actions lift the hold', () => {
  function clearedLog() {
    const cleared: Array<[TopicPartition, QuarantineClearReason]> = [];
    return {
      cleared,
      callbacks: {
        onQuarantineCleared: (tp: TopicPartition, reason: QuarantineClearReason) => void cleared.push([tp, reason]),
      },
    };
  }

  it('resume reads the record again: seek to it, resume, commit and schedule', () => {
    const { cleared, callbacks } = clearedLog();
    const { controller, partition, source, emitted, commits, scheduler } = held(callbacks);
    expect(controller.resume(TP)).toEqual({ topic: 'events', partition: 0, action: 'resumed', seekOffset: '1' });
    expect(partition.quarantine).toBeNull();
    expect(source.seeks(TP)).toEqual(['1', '1']);
    expect(source.isPaused(TP)).toBe(false);
    expect(partition.accepts(1n)).toBe(true);
    expect(cleared).toEqual([[TP, 'resumed']]);
    expect(emitted.at(-1)).toEqual({ type: 'quarantine-cleared', ...TP, reason: 'resumed', seekOffset: '1' });
    expect([commits.scheduled, scheduler.pumps]).toEqual([1, 1]);
  });

  it('skip completes the record unprocessed and reads on after it', () => {
    const { controller, entries, source, counters } = held();
    expect(controller.skip(TP).seekOffset).toBe('2');
    expect(entries[1]!.status).toBe('complete');
    expect(counters.skippedByOperator).toBe(1);
    expect(source.seeks(TP).at(-1)).toBe('2');
  });

  it('skip after a rewind past the record remembers it and reads again from the rewind point', () => {
    const { controller, partition, source } = held();
    partition.releaseFrom(0n, true);
    controller.rewound(partition, '0');
    expect(partition.quarantine?.entry).toBeNull();
    expect(controller.skip(TP).seekOffset).toBe('0');
    expect(partition.skip.get('1')).toBe('operator');
    expect(source.seeks(TP).at(-1)).toBe('0');
  });

  it('seek forgets the partition state and aborts its calls', () => {
    const { controller, partition, running, source } = held();
    expect(controller.seek(TP, '50')).toMatchObject({ action: 'seeked', seekOffset: '50' });
    expect(partition).toMatchObject({ pending: 0, epoch: 1, committed: null });
    expect(partition.accepts(49n)).toBe(false);
    expect([running.detached, running.signal.aborted]).toEqual(['ignore', true]);
    expect(source.seeks(TP).at(-1)).toBe('50');
  });

  it('refuses partitions not owned or not held, bad offsets, and a fatal core; nothing changes', () => {
    const { controller, partition, status, source } = held();
    expect(() => controller.resume({ topic: 'events', partition: 7 })).toThrow(
      'events[7] is not owned by this consumer',
    );
    expect(() => controller.seek(TP, '-3')).toThrow(/not an int64 offset/);
    status.fatal = 'commit failed permanently';
    expect(() => controller.skip(TP)).toThrow('consumer core is fatal (commit failed permanently); restart it instead');
    status.fatal = null;
    controller.skip(TP);
    expect(() => controller.resume(TP)).toThrow('events[0] is not quarantined');
    expect(partition.quarantine).toBeNull();
    expect(source.seeks(TP)).toEqual(['1', '2']);
  });

  it('a failed seek makes the core fatal and the action throw; the source stays paused', () => {
    const { controller, source, status, scheduler } = held();
    source.failNext.seek = new Error('consumer not running');
    expect(() => controller.resume(TP)).toThrow(
      /^seek of events\[0\] to 1 failed: seek of events\[0\] to 1 failed: .*consumer not running$/,
    );
    expect(status.fatal).not.toBeNull();
    expect(source.isPaused(TP)).toBe(true);
    expect(scheduler.pumps).toBe(0);
  });

  it('a failed resume after the seek makes the action throw', () => {
    const { controller, source } = held();
    source.failNext.resume = new Error('consumer not running');
    expect(() => controller.resume(TP)).toThrow(/^resume of events\[0\] failed: resume of events\[0\] failed/);
  });
});

describe('QuarantineController: revoke and rewind', () => {
  it('a revoke ends a hold with reason revoked; a partition not held reports nothing', () => {
    const cleared: QuarantineClearReason[] = [];
    const { controller, partition, emitted } = held({
      onQuarantineCleared: (_tp, reason) => void cleared.push(reason),
    });
    const other = ownedPartition(1);
    controller.revoked(other);
    controller.revoked(partition);
    expect(cleared).toEqual(['revoked']);
    expect(emitted.at(-1)).toEqual({ type: 'quarantine-cleared', ...TP, reason: 'revoked', seekOffset: null });
  });

  it('a rewind moves where lifting reads from only backwards', () => {
    const { controller, partition } = held();
    controller.rewound(partition, '3');
    expect(partition.quarantine?.resumeFrom).toBe('1');
    controller.rewound(partition, '0');
    expect(partition.quarantine?.resumeFrom).toBe('0');
  });
});

import { describe, expect, it } from 'vitest';
import { CallTracker } from './call-tracker.js';
import { SOLO_LANE, type LaneKey } from './lane-table.js';
import type { OwnedPartition, RecordCall, RecordEntry } from './record-entry.js';
import { Scheduler, type SchedulerSettings, type SchedulerWork } from './scheduler.js';
import { flushMicrotasks, ManualClock } from './testing/fake-clock.js';
import { deferred, type Deferred } from './testing/harness.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';
import type { BatchItem, HandlerContext, SourceRecord } from './types.js';

type Entry = RecordEntry<string>;
const ref = (entry: Entry) => `${entry.owner.partition}@${entry.offset}`;
/** The handler context is the record's call (record-entry.ts). */
const entryOf = (ctx: HandlerContext): Entry => (ctx as RecordCall<string>).entry;

/**
 * A scheduler over a real call tracker. Handler calls are deferreds settled by hand (`open`); completion
 * completes the record in its partition, as the real one does; every port call is logged.
 */
function schedulerOf(
  settings: Partial<SchedulerSettings> = {},
  mode: 'handle' | 'batch' = 'handle',
  handle?: SchedulerWork<string>['handle'],
) {
  const clock = new ManualClock(1_000);
  const calls = new CallTracker<string>(clock);
  const status = { admitting: true };
  const log: string[] = [];
  const started: string[] = [];
  const open = new Map<string, Deferred>();
  const batches: string[][] = [];
  const run = (entry: Entry): Promise<void> => {
    started.push(ref(entry));
    const call = deferred();
    open.set(ref(entry), call);
    return call.promise;
  };
  const work: SchedulerWork<string> = {
    onPermanentFailure: (value, record, error) => {
      log.push(`failure result ${record.offset} ${value} ${(error as Error).message}`);
      return Promise.resolve();
    },
    deadLetter: (record, info) => {
      log.push(`dead letter ${record.offset} ${info.reason}`);
      return Promise.resolve();
    },
    ...(mode === 'batch'
      ? {
          handleBatch: (items: readonly BatchItem<string>[]) => {
            batches.push(items.map((item) => `${item.record.partition}@${item.record.offset}`));
            return items.map((item) => run(entryOf(item.context)));
          },
        }
      : { handle: handle ?? ((_value: string, _record: SourceRecord, ctx: HandlerContext) => run(entryOf(ctx))) }),
  };
  const scheduler = new Scheduler<string>({
    clock,
    calls,
    status,
    settings: { maxInFlight: 8, maxInFlightPerPartition: 8, batchSize: 100, batchLingerMs: 0, ...settings },
    work,
    completion: {
      complete: (entry, outcome) => {
        entry.owner.complete(entry);
        log.push(`complete ${ref(entry)} ${outcome}`);
      },
      settledDetached: (call, ok) => void log.push(`detached ${ref(call.entry)} ${ok}`),
    },
  });
  scheduler.connect({
    failed: (entry, phase, error) => void log.push(`failed ${ref(entry)} ${phase} ${String(error)}`),
  });
  const settle = async (key: string, error?: unknown) => {
    const call = open.get(key);
    if (!call) throw new Error(`no open call for ${key}`);
    open.delete(key);
    if (error === undefined) call.resolve();
    else call.reject(error);
    await flushMicrotasks();
  };
  return { clock, calls, status, log, started, batches, scheduler, settle };
}

/** Records `offsets` of `partition`, admitted into the lane `key` (SOLO_LANE: a lane each). */
function admit(partition: OwnedPartition<string>, offsets: number[], key: LaneKey | typeof SOLO_LANE = SOLO_LANE) {
  return offsets.map((offset) => {
    const entry = deliverEntry(partition, offset);
    entry.value = `v${offset}`;
    partition.lanes.enqueue(key, entry);
    return entry;
  });
}

describe('Scheduler: slots and round robin', () => {
  it('shares the global budget round robin across partitions, within each partition budget', async () => {
    const { scheduler, started, settle, calls } = schedulerOf({ maxInFlight: 3, maxInFlightPerPartition: 2 });
    const p0 = ownedPartition(0);
    const p1 = ownedPartition(1);
    admit(p0, [0, 1, 2]);
    admit(p1, [0, 1, 2]);
    scheduler.assign([p0, p1]);
    scheduler.pump();
    expect(started).toEqual(['0@0', '1@0', '1@1']);
    expect([calls.slotsInUse, p0.inFlight, p1.inFlight]).toEqual([3, 1, 2]);
    await settle('1@0');
    expect(started).toEqual(['0@0', '1@0', '1@1', '0@1']); // p1 is at its budget
    await settle('0@0');
    expect(started.at(-1)).toBe('1@2'); // the round moved on: p1 has the first turn now
  });

  it('starts one record of a lane at a time, in offset order', async () => {
    const { scheduler, started, settle, log } = schedulerOf();
    const partition = ownedPartition();
    admit(partition, [0, 1], 'k');
    scheduler.assign([partition]);
    scheduler.pump();
    expect(started).toEqual(['0@0']);
    await settle('0@0');
    expect(log).toEqual(['complete 0@0 handled']);
    expect(started).toEqual(['0@0', '0@1']);
  });

  it('starts nothing while the core is not admitting, nor for a revoked partition', () => {
    const { scheduler, started, status } = schedulerOf();
    const kept = ownedPartition(0);
    const revoked = ownedPartition(1);
    admit(kept, [0]);
    admit(revoked, [0]);
    revoked.revoked = true;
    scheduler.assign([revoked, kept]);
    status.admitting = false;
    scheduler.pump();
    expect(started).toEqual([]);
    status.admitting = true;
    scheduler.pump();
    expect(started).toEqual(['0@0']);
  });

  it('completes a head known complete without a call, even with the partition budget taken', () => {
    const { scheduler, started, log, calls } = schedulerOf({ maxInFlightPerPartition: 1 });
    const partition = ownedPartition();
    admit(partition, [0, 1, 2]);
    partition.remember('1', 'metadata');
    scheduler.assign([partition]);
    scheduler.pump();
    expect(started).toEqual(['0@0']);
    expect(log).toEqual(['complete 0@1 skipped-metadata']);
    expect(partition.skip.size).toBe(0);
    expect(calls.slotsInUse).toBe(1);
  });

  it('a redelivered copy waits while the original call of its record still runs detached', async () => {
    const { scheduler, started, calls } = schedulerOf();
    const revoked = ownedPartition();
    const original = calls.begin(deliverEntry(revoked, 0), 'handle', true, 1);
    calls.detach(original, 'ignore', 'events[0] was revoked');
    const reassigned = ownedPartition();
    admit(reassigned, [0, 1]);
    scheduler.assign([reassigned]);
    scheduler.pump();
    expect(started).toEqual(['0@1']);
    calls.end(original);
    scheduler.pump();
    expect(started).toEqual(['0@1', '0@0']);
  });
});

describe('Scheduler: settled calls', () => {
  it('hands a failure to the failure paths, frees the slot and schedules again', async () => {
    const { scheduler, started, settle, log, calls } = schedulerOf({ maxInFlight: 1 });
    const partition = ownedPartition();
    const [first] = admit(partition, [0, 1]);
    scheduler.assign([partition]);
    scheduler.pump();
    await settle('0@0', 'ECONNRESET');
    expect(log).toEqual(['failed 0@0 handle ECONNRESET']);
    expect(first!.call).toBeNull();
    expect(started).toEqual(['0@0', '0@1']);
    expect(calls.slotsInUse).toBe(1);
  });

  it('a handler that throws fails like a rejection', async () => {
    const { scheduler, log, calls } = schedulerOf({}, 'handle', () => {
      throw new Error('handler bug');
    });
    const partition = ownedPartition();
    admit(partition, [0]);
    scheduler.assign([partition]);
    scheduler.pump();
    await flushMicrotasks();
    expect(log).toEqual(['failed 0@0 handle Error: handler bug']);
    expect(calls.running).toBe(0);
  });

  it('the outcome of a detached call goes to completion as such', async () => {
    const { scheduler, settle, log, calls } = schedulerOf();
    const partition = ownedPartition();
    const [entry] = admit(partition, [0]);
    scheduler.assign([partition]);
    scheduler.pump();
    calls.detach(entry!.call!, 'remember', null);
    await settle('0@0');
    expect(log).toEqual(['detached 0@0 true']);
  });

  it('a due retry waits for a slot in its lane and runs with the next attempt', async () => {
    const { scheduler, started, settle } = schedulerOf({ maxInFlight: 1 });
    const partition = ownedPartition();
    const [retried] = admit(partition, [0, 1], 'k');
    const [other] = admit(partition, [2], 'j');
    scheduler.assign([partition]);
    scheduler.pump();
    await settle('0@0', 'ECONNRESET'); // the fake failure paths leave it running: put it in its retry wait
    retried!.status = 'retry-wait';
    expect(started).toEqual(['0@0', '0@2']);
    scheduler.retryDue(retried!);
    expect(started).toEqual(['0@0', '0@2']);
    await settle('0@2');
    expect(started).toEqual(['0@0', '0@2', '0@0']);
    expect([retried!.handleAttempts, other!.status]).toEqual([2, 'complete']);
  });

  it('starts failure paths at once without a slot; their success completes the record', async () => {
    const { scheduler, log, calls } = schedulerOf({ maxInFlight: 1 });
    const partition = ownedPartition();
    const [failed, dead] = admit(partition, [0, 1]);
    failed!.phase = 'permanent-failure';
    failed!.failure = { error: new Error('dimension mismatch'), reason: 'dimension mismatch' };
    dead!.phase = 'dead-letter';
    dead!.deadLetterInfo = { errorClass: 'decode', reason: 'bad json', attempts: 0 };
    scheduler.startFailurePath(failed!);
    scheduler.startFailurePath(dead!);
    expect(calls.slotsInUse).toBe(0);
    expect([failed!.phaseAttempts, dead!.status]).toEqual([1, 'running']);
    await flushMicrotasks();
    expect(log).toEqual([
      'failure result 0 v0 dimension mismatch',
      'dead letter 1 bad json',
      'complete 0@0 failed-result',
      'complete 0@1 dead-lettered',
    ]);
  });
});

describe('Scheduler: batch mode', () => {
  it('schedules once per timer turn; a lane gives consecutive records; the batch goes at the end of the turn', async () => {
    const { scheduler, batches, clock, settle } = schedulerOf({}, 'batch');
    const partition = ownedPartition();
    admit(partition, [0, 1], 'a');
    admit(partition, [2], 'b');
    admit(partition, [3], 'a');
    scheduler.assign([partition]);
    scheduler.pump();
    scheduler.pump();
    expect(batches).toEqual([]);
    expect(clock.pendingTimers).toBe(1);
    clock.advance(0);
    expect(batches).toEqual([['0@0', '0@1', '0@3', '0@2']]);
    await settle('0@0');
    expect(clock.pendingTimers).toBe(1);
  });

  it('a lane run never spans two batches', () => {
    const { scheduler, batches, clock } = schedulerOf({ batchSize: 2 }, 'batch');
    const partition = ownedPartition();
    admit(partition, [0, 1, 2], 'a');
    scheduler.assign([partition]);
    scheduler.pump();
    clock.advance(0);
    expect(batches).toEqual([['0@0', '0@1']]);
  });

  it('a requeued record does not count the attempt and runs again', async () => {
    const { scheduler, batches, clock, calls } = schedulerOf({}, 'batch');
    const partition = ownedPartition();
    const [entry] = admit(partition, [0]);
    scheduler.assign([partition]);
    scheduler.pump();
    clock.advance(0);
    scheduler.requeue(entry!.call!);
    expect([entry!.handleAttempts, entry!.status, calls.slotsInUse]).toEqual([0, 'buffered', 0]);
    clock.advance(0);
    expect(batches).toEqual([['0@0'], ['0@0']]);
    await flushMicrotasks();
  });

  it('flushBatch hands a lingering batch over; stop leaves no timer', () => {
    const { scheduler, batches, clock } = schedulerOf({ batchLingerMs: 50 }, 'batch');
    const partition = ownedPartition();
    admit(partition, [0]);
    scheduler.assign([partition]);
    scheduler.pump();
    clock.advance(0);
    expect(batches).toEqual([]);
    scheduler.flushBatch();
    expect(batches).toEqual([['0@0']]);
    admit(partition, [1]);
    scheduler.pump();
    scheduler.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});

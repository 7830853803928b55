import { describe, expect, it } from 'vitest';
import { BatchDispatch, type BatchSlot } from './batch-dispatch.js';
import { CallTracker } from './call-tracker.js';
import type { RecordCall } from './record-entry.js';
import { flushMicrotasks, ManualClock } from './testing/fake-clock.js';
import { deferred, type Deferred } from './testing/harness.js';
import { deliverEntry, ownedPartition } from './testing/tracked-records.js';
import type { BatchHandler, BatchItem } from './types.js';

/**
 * A dispatch over started records 0..count-1 of one partition; `lanes` lists, per record, the index of its
 * lane predecessor in the batch (null: none). The scheduler port logs what it was told.
 */
function dispatchOf(lanes: Array<number | null>, handleBatch: BatchHandler<string>) {
  const clock = new ManualClock();
  const calls = new CallTracker<string>(clock);
  const partition = ownedPartition();
  const log: string[] = [];
  const scheduler = {
    settle(call: RecordCall<string>, ok: boolean, error: unknown) {
      calls.end(call);
      log.push(ok ? `ok@${call.entry.offset}` : `fail@${call.entry.offset}: ${(error as Error).message}`);
    },
    requeue(call: RecordCall<string>) {
      calls.end(call);
      log.push(`requeue@${call.entry.offset}`);
    },
  };
  const slots: BatchSlot<string>[] = lanes.map((_, offset) => {
    const entry = deliverEntry(partition, offset);
    entry.value = `v${offset}`;
    return { call: calls.begin(entry, 'handle', true, 1), previous: null, next: null, own: null, completed: null };
  });
  lanes.forEach((previous, index) => {
    if (previous === null) return;
    slots[index]!.previous = slots[previous]!;
    slots[previous]!.next = slots[index]!;
  });
  const dispatch = new BatchDispatch<string>({ calls, work: { handleBatch }, scheduler });
  return { dispatch, slots, calls, log };
}

/** handleBatch answering one deferred per record; `seen` keeps each batch's items. */
function perRecord() {
  const seen: Array<readonly BatchItem<string>[]> = [];
  const pending: Deferred[] = [];
  const handleBatch: BatchHandler<string> = (items) => {
    seen.push(items);
    return items.map(() => {
      const call = deferred();
      pending.push(call);
      return call.promise;
    });
  };
  return { seen, pending, handleBatch };
}

describe('BatchDispatch: one promise per record', () => {
  it('hands the records over with their lane predecessors; a record settles only after its predecessor', async () => {
    const { seen, pending, handleBatch } = perRecord();
    const { dispatch, slots, log } = dispatchOf([null, 0, null], handleBatch);
    dispatch.run(slots);
    expect(
      seen[0]!.map(({ value, record, context, previous }) => [value, record.offset, context.attempt, previous]),
    ).toEqual([
      ['v0', '0', 1, null],
      ['v1', '1', 1, 0],
      ['v2', '2', 1, null],
    ]);
    pending[1]!.resolve();
    pending[2]!.resolve();
    await flushMicrotasks();
    expect(log).toEqual(['ok@2']);
    pending[0]!.resolve();
    await flushMicrotasks();
    expect(log).toEqual(['ok@2', 'ok@0', 'ok@1']);
  });

  it('records after a failed lane predecessor go back to their lane, whatever their own outcome', async () => {
    const { pending, handleBatch } = perRecord();
    const { dispatch, slots, log } = dispatchOf([null, 0, 1], handleBatch);
    dispatch.run(slots);
    pending[2]!.resolve();
    pending[1]!.reject(new Error('never seen'));
    pending[0]!.reject(new Error('ECONNRESET'));
    await flushMicrotasks();
    expect(log).toEqual(['fail@0: ECONNRESET', 'requeue@1', 'requeue@2']);
  });

  it('a throwing handleBatch or a wrong number of promises fails every record', async () => {
    const throwing = dispatchOf([null, null], () => {
      throw new Error('handler bug');
    });
    const short = dispatchOf([null, null], () => [Promise.resolve()]);
    throwing.dispatch.run(throwing.slots);
    short.dispatch.run(short.slots);
    await flushMicrotasks();
    expect(throwing.log).toEqual(['fail@0: handler bug', 'fail@1: handler bug']);
    expect(short.log).toEqual([
      'fail@0: handleBatch returned 1 results for 2 records',
      'fail@1: handleBatch returned 1 results for 2 records',
    ]);
  });
});

describe('BatchDispatch: one promise of the outcomes', () => {
  it('settles each record by its outcome, in batch order', async () => {
    const { dispatch, slots, log } = dispatchOf([null, null, 1], () => Promise.resolve([null, new Error('bad'), null]));
    dispatch.run(slots);
    await flushMicrotasks();
    expect(log).toEqual(['ok@0', 'fail@1: bad', 'requeue@2']);
  });

  it('a rejection or outcomes of the wrong length fail every record', async () => {
    const rejected = dispatchOf([null, null], () => Promise.reject(new Error('store down')));
    const long = dispatchOf([null], () => Promise.resolve([null, null]));
    rejected.dispatch.run(rejected.slots);
    long.dispatch.run(long.slots);
    await flushMicrotasks();
    expect(rejected.log).toEqual(['fail@0: store down', 'fail@1: store down']);
    expect(long.log).toEqual(['fail@0: handleBatch resolved 2 outcomes for 1 records']);
  });
});

describe('BatchDispatch: records released while the batch formed', () => {
  it('leaves them out unrun; a record whose predecessor was left out goes back to its lane', async () => {
    const { seen, pending, handleBatch } = perRecord();
    const { dispatch, slots, calls, log } = dispatchOf([null, 0, null], handleBatch);
    calls.detach(slots[0]!.call, 'remember', null);
    dispatch.run(slots);
    expect(seen[0]!.map((item) => [item.record.offset, item.previous])).toEqual([['2', null]]);
    expect(log).toEqual(['requeue@1']);
    expect(slots[0]!.call.settled).toBe(true);
    pending[0]!.resolve();
    await flushMicrotasks();
    expect(log).toEqual(['requeue@1', 'ok@2']);
    expect(calls.running).toBe(0);
  });

  it('a batch with nothing left calls no handler and wakes a drain waiting for idle', async () => {
    const { handleBatch, seen } = perRecord();
    const { dispatch, slots, calls } = dispatchOf([null], handleBatch);
    const idle = calls.waitForIdle(1_000);
    calls.detach(slots[0]!.call, 'ignore', 'events[0] was revoked');
    dispatch.run(slots);
    expect(seen).toEqual([]);
    await expect(idle).resolves.toBe(false);
  });
});

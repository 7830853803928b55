import { describe, expect, it } from 'vitest';
import { zeroCounters } from './core-counters.js';
import { RecordAdmission, type DeliverResult } from './record-admission.js';
import type { OwnedPartition, RecordEntry } from './record-entry.js';
import { makeRecord } from './testing/harness.js';
import { recordedEvents } from './testing/part-fakes.js';
import { ownedPartition } from './testing/tracked-records.js';
import type { Admission, CompletionOutcome, OrderingMode, SourceRecord } from './types.js';

type Entry = RecordEntry<string>;

/** Admits every record whose value is not 'bad'; the ordering key is the record's key. */
function admitByValue(record: SourceRecord): Admission<string> {
  const text = record.value?.toString() ?? '';
  if (text === 'bad') return { ok: false, reason: 'result key missing', errorClass: 'missing-result-key' };
  if (text === 'throws') throw new Error('decoder bug');
  return { ok: true, value: text.toUpperCase(), orderingKey: record.key?.toString() ?? null };
}

function admissionOf(ordering: OrderingMode = 'key', onFailure: (entry: Entry) => void = () => undefined) {
  const counters = zeroCounters();
  const { events, emitted } = recordedEvents();
  const completed: Array<[Entry, CompletionOutcome]> = [];
  const failed: Array<[string, string, string]> = [];
  const admission = new RecordAdmission<string>({
    host: { admit: admitByValue },
    ordering,
    counters,
    events,
    completion: { complete: (entry, outcome) => void completed.push([entry, outcome]) },
    failures: {
      admissionFailed: (entry, reason, errorClass) => {
        failed.push([entry.offset, reason, errorClass]);
        onFailure(entry);
      },
    },
  });
  return { admission, counters, emitted, completed, failed };
}

function take(admission: RecordAdmission<string>, partition: OwnedPartition<string>, records: SourceRecord[]) {
  const result: DeliverResult = { accepted: 0, ignored: 0, dropped: 0 };
  const offsets = records.map((record) => BigInt(record.offset));
  admission.take(partition, records, offsets, null, 1_000, result);
  return result;
}

/** Offsets of the lane heads ready to start, in the order the scheduler would take them (takes them). */
function readyHeads(partition: OwnedPartition<string>): string[] {
  const heads: string[] = [];
  for (let head = partition.lanes.takeReadyHead(() => true); head; head = partition.lanes.takeReadyHead(() => true))
    heads.push(head.offset);
  return heads;
}

describe('RecordAdmission.take', () => {
  it('tracks and admits each record above the read position; ignores the rest', () => {
    const { admission } = admissionOf();
    const partition = ownedPartition();
    partition.raiseFloor(2n);
    const result = take(admission, partition, [makeRecord(1), makeRecord(2), makeRecord(3)]);
    expect(result).toEqual({ accepted: 2, ignored: 1, dropped: 0 });
    expect(partition.delivered.map((entry) => [entry.offset, entry.value, entry.deliveredAtMs])).toEqual([
      ['2', 'VALUE-2', 1_000],
      ['3', 'VALUE-3', 1_000],
    ]);
  });

  it('takes the records in the given order', () => {
    const { admission } = admissionOf('partition');
    const partition = ownedPartition();
    const records = [makeRecord(7), makeRecord(5)];
    const result: DeliverResult = { accepted: 0, ignored: 0, dropped: 0 };
    admission.take(partition, records, [7n, 5n], [1, 0], 0, result);
    expect(partition.delivered.map((entry) => entry.offset)).toEqual(['5', '7']);
  });

  it('completes a record already known complete without admitting it', () => {
    const { admission, completed } = admissionOf();
    const partition = ownedPartition();
    partition.remember('1', 'metadata');
    take(admission, partition, [makeRecord(0), makeRecord(1)]);
    expect(completed.map(([entry, outcome]) => [entry.offset, outcome])).toEqual([['1', 'skipped-metadata']]);
    expect(partition.skip.size).toBe(0);
    expect(readyHeads(partition)).toEqual(['0']);
  });

  it.each([
    { ordering: 'key', heads: ['0', '1', '3'], rule: "key: a lane per key, one for null keys, '' a key of its own" },
    { ordering: 'partition', heads: ['0'], rule: 'partition: one lane' },
    { ordering: 'unordered', heads: ['0', '1', '2', '3', '4'], rule: 'unordered: a lane per record' },
  ] as const)('$rule', ({ ordering, heads }) => {
    const { admission } = admissionOf(ordering);
    const partition = ownedPartition();
    take(admission, partition, [
      makeRecord(0, { key: 'a' }),
      makeRecord(1, { key: null }),
      makeRecord(2, { key: 'a' }),
      makeRecord(3, { key: '' }),
      makeRecord(4, { key: null }),
    ]);
    expect(readyHeads(partition)).toEqual(heads);
  });

  it('hands a failing or throwing admission to the failure paths; it takes no lane', () => {
    const { admission, failed } = admissionOf('unordered');
    const partition = ownedPartition();
    take(admission, partition, [makeRecord(0, { value: 'bad' }), makeRecord(1, { value: 'throws' }), makeRecord(2)]);
    expect(failed).toEqual([
      ['0', 'result key missing', 'missing-result-key'],
      ['1', 'admission threw: Error: decoder bug', 'admission-error'],
    ]);
    expect(readyHeads(partition)).toEqual(['2']);
  });

  it('drops the rest of the delivery once a record quarantined the partition', () => {
    const { admission, counters, emitted } = admissionOf('key', (entry) => {
      entry.owner.quarantine = { info: {} as never, entry, resumeFrom: entry.offset };
    });
    const partition = ownedPartition();
    const result = take(admission, partition, [
      makeRecord(0),
      makeRecord(1, { value: 'bad' }),
      makeRecord(2),
      makeRecord(3),
    ]);
    expect(result).toEqual({ accepted: 2, ignored: 0, dropped: 2 });
    expect(counters.droppedDeliveries).toBe(2);
    expect(emitted).toEqual([
      { type: 'batch-dropped', topic: 'events', partition: 0, count: 2, reason: 'quarantined' },
    ]);
  });
});

describe('RecordAdmission.drop', () => {
  it('counts and reports the dropped records', () => {
    const { admission, counters, emitted } = admissionOf();
    const result: DeliverResult = { accepted: 0, ignored: 0, dropped: 1 };
    admission.drop({ topic: 'events', partition: 3 }, 5, 'rebalancing', result);
    expect(result.dropped).toBe(6);
    expect(counters.droppedDeliveries).toBe(5);
    expect(emitted).toEqual([
      { type: 'batch-dropped', topic: 'events', partition: 3, count: 5, reason: 'rebalancing' },
    ]);
  });
});

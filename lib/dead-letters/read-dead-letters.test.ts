import { describe, expect, it } from 'vitest';
import type { FetchedRecord, RecordSource } from '../kafka/partition-records';
import { DEAD_LETTER_HEADERS, decodeDeadLetter, headerPreviews } from './dead-letter-record';
import { countDeadLetters, readDeadLetterPage } from './read-dead-letters';
import { selectedRecords, selectionRanges } from './redrive-selection';

function letter(
  partition: number,
  offset: number,
  timestampMs: number,
  errorClass: string,
  key: string | null,
): FetchedRecord {
  return {
    partition,
    offset: BigInt(offset),
    timestampMs,
    key: key === null ? null : Buffer.from(key),
    value: Buffer.from(`v${offset}`),
    headers: {
      [DEAD_LETTER_HEADERS.topic]: Buffer.from('orders'),
      [DEAD_LETTER_HEADERS.partition]: Buffer.from(String(partition + 10)),
      [DEAD_LETTER_HEADERS.offset]: Buffer.from(String(offset * 3)),
      [DEAD_LETTER_HEADERS.errorClass]: Buffer.from(errorClass),
      [DEAD_LETTER_HEADERS.attempts]: Buffer.from('3'),
      trace: Buffer.from([0xff, 0x01]),
    },
  };
}

/** A fake topic; counts the records each read returns so a test can prove the scan bound. */
function fakeSource(partitions: FetchedRecord[][]): RecordSource & { reads: number } {
  const source = {
    reads: 0,
    async partitionLogs() {
      return partitions.map((records, partition) => ({
        partition,
        low: records[0]?.offset ?? 0n,
        high: (records[records.length - 1]?.offset ?? -1n) + 1n,
      }));
    },
    async readRange(_topic: string, partition: number, from: bigint, end: bigint, max: number) {
      const out = partitions[partition]!.filter((r) => r.offset >= from && r.offset < end).slice(0, max);
      source.reads += out.length;
      return out;
    },
    async offsetsAtTime(_topic: string, ms: number) {
      return new Map(
        partitions.map((records, p) => [
          p,
          records.find((r) => r.timestampMs >= ms)?.offset ?? (records[records.length - 1]?.offset ?? -1n) + 1n,
        ]),
      );
    },
    async close() {},
  };
  return source;
}

const topic = [
  Array.from({ length: 30 }, (_, i) => letter(0, i, 1_000 + i * 10, i % 3 === 0 ? 'decode' : 'permanent', `k${i % 5}`)),
  Array.from({ length: 20 }, (_, i) => letter(1, i, 1_005 + i * 10, 'permanent', null)),
];

describe('readDeadLetterPage', () => {
  it('pages newest first across partitions without skipping or repeating a record', async () => {
    const source = fakeSource(topic);
    const seen: string[] = [];
    let cursor: Map<number, bigint> | undefined;
    let lastTs = Infinity;
    for (let page = 0; page < 20; page++) {
      const result = await readDeadLetterPage(source, 'dlq', { filter: {}, limit: 7, cursor });
      for (const l of result.letters) {
        expect(l.record.timestampMs).toBeLessThanOrEqual(lastTs);
        lastTs = l.record.timestampMs;
        seen.push(`${l.record.partition}:${l.record.offset}`);
      }
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
    expect(seen).toHaveLength(50);
    expect(new Set(seen).size).toBe(50);
  });

  it('filters by error class, key and time range, and stops at the scan bound', async () => {
    const source = fakeSource(topic);
    const decode = await readDeadLetterPage(source, 'dlq', { filter: { errorClass: 'decode' }, limit: 50 });
    expect(decode.letters.map((l) => Number(l.record.offset))).toEqual([27, 24, 21, 18, 15, 12, 9, 6, 3, 0]);
    const keyed = await readDeadLetterPage(source, 'dlq', { filter: { key: 'k2' }, limit: 50 });
    expect(keyed.letters.map((l) => Number(l.record.offset))).toEqual([27, 22, 17, 12, 7, 2]);
    const timed = await readDeadLetterPage(source, 'dlq', {
      filter: { from: new Date(1_100).toISOString(), to: new Date(1_130).toISOString() },
      limit: 50,
    });
    expect(timed.letters.map((l) => `${l.record.partition}:${l.record.offset}`)).toEqual([
      '1:12',
      '0:12',
      '1:11',
      '0:11',
      '1:10',
      '0:10',
    ]);
    const bounded = fakeSource(topic);
    const limited = await readDeadLetterPage(bounded, 'dlq', {
      filter: { errorClass: 'none' },
      limit: 5,
      scanLimit: 12,
    });
    expect(limited.letters).toEqual([]);
    expect(limited.scanned).toBe(12);
    expect(bounded.reads).toBe(12);
    expect(limited.nextCursor).not.toBeNull();
  });
});

/** A topic the broker does not have: offsets and fetches fail the way kafkajs fails them there. */
function missingTopicSource(): RecordSource {
  const unknown = () => Promise.reject(new Error('This server does not host this topic-partition'));
  return { partitionLogs: async () => null, readRange: unknown, offsetsAtTime: unknown, close: async () => {} };
}

describe('a dead-letter topic that does not exist yet, and filters that reach past the log', () => {
  const future = { from: '2099-12-31T23:59:59.998Z' };
  const past = { from: '2000-01-01T00:00:00.023Z', to: '2015-08-02T18:02:37.247Z' };

  it('reads an empty page and matches nothing, with or without a time range', async () => {
    for (const filter of [{}, future, past, { errorClass: 'apply', ...future }]) {
      const page = await readDeadLetterPage(missingTopicSource(), 'dlq', { filter, limit: 64 });
      expect(page).toEqual({ letters: [], nextCursor: null, scanned: 0 });
      const ranges = await selectionRanges(missingTopicSource(), 'dlq', { kind: 'filter', filter });
      expect(ranges).toEqual([]);
    }
    const cursor = new Map([[72468468, 3n]]);
    const paged = await readDeadLetterPage(missingTopicSource(), 'dlq', { filter: past, limit: 64, cursor });
    expect(paged.letters).toEqual([]);
  });

  it('reads nothing for named records the log does not hold', async () => {
    const selection = { kind: 'records' as const, records: [{ partition: 0, offset: '4' }] };
    expect(await selectionRanges(missingTopicSource(), 'dlq', selection)).toEqual([]);
    const source = fakeSource(topic);
    const named = {
      kind: 'records' as const,
      records: [
        { partition: 7, offset: '1' },
        { partition: 1, offset: '20' },
        { partition: 0, offset: '29' },
      ],
    };
    const ranges = await selectionRanges(source, 'dlq', named);
    expect(ranges).toEqual([{ partition: 0, start: 29n, end: 30n }]);
    const letters = [];
    for await (const l of selectedRecords(source, 'dlq', named, ranges)) letters.push(l);
    expect(letters.map((l) => `${l.record.partition}:${l.record.offset}`)).toEqual(['0:29']);
  });

  it('reads an empty page for a time range after the newest or before the oldest record', async () => {
    const source = fakeSource(topic);
    // The fake's records are stamped 1,000-1,290 ms after the epoch: `past` is after them all, too.
    const beforeOldest = { from: new Date(0).toISOString(), to: new Date(999).toISOString() };
    for (const filter of [future, past, beforeOldest]) {
      const page = await readDeadLetterPage(source, 'dlq', { filter, limit: 64 });
      expect(page.letters).toEqual([]);
      expect(page.scanned).toBe(0);
    }
  });

  it('reads an empty page for a cursor naming a partition the topic does not have', async () => {
    const page = await readDeadLetterPage(fakeSource(topic), 'dlq', {
      filter: {},
      limit: 64,
      cursor: new Map([[72468468, 3n]]),
    });
    expect(page).toEqual({ letters: [], nextCursor: null, scanned: 0 });
  });
});

describe('decodeDeadLetter', () => {
  it('reads Warden headers, previews binary headers as hex, and never throws on foreign records', () => {
    const decoded = decodeDeadLetter(topic[0]![4]!);
    expect(decoded).toMatchObject({ sourceTopic: 'orders', sourcePartition: 10, sourceOffset: '12', attempts: 3 });
    expect(headerPreviews(topic[0]![4]!)).toEqual({ trace: 'hex:ff01' });
    const foreign = decodeDeadLetter({
      partition: 0,
      offset: 1n,
      timestampMs: 0,
      key: null,
      value: null,
      headers: {
        [DEAD_LETTER_HEADERS.partition]: Buffer.from('x'),
        [DEAD_LETTER_HEADERS.offset]: Buffer.from('-5'),
      },
    });
    expect(foreign).toMatchObject({ sourceTopic: null, sourcePartition: null, sourceOffset: null, errorClass: null });
  });
});

describe('countDeadLetters', () => {
  it('counts by error class and source over the newest records within the bound', async () => {
    const counts = await countDeadLetters(fakeSource(topic), 'dlq', 20);
    expect(counts.total).toBe(50);
    expect(counts.scanned).toBe(20);
    expect(counts.byErrorClass.get('decode')).toBe(3); // offsets 20..29 of partition 0: 21, 24, 27
    expect([...counts.bySource.values()].map((s) => s.count).sort()).toEqual([10, 10]);
  });
});

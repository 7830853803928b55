import { describe, expect, it } from 'vitest';
import { admitEvent } from '../../worker/pipeline/events';
import {
  BLOCKER_KEY,
  eventValue,
  layoutRecords,
  partitionCounts,
  POISON_VALUE,
  regularRecord,
  topicName,
  VALUE_BYTES,
  type TopicLayout,
} from './records';

const sourceRecord = (key: string, value: string) => ({
  topic: 't',
  partition: 0,
  offset: '0',
  key: Buffer.from(key),
  value: Buffer.from(value),
  timestampMs: 0,
  headers: {},
});

function produce(layout: TopicLayout, chunkSize = 7) {
  return [...layoutRecords(layout, chunkSize)].flat();
}

describe('bench records', () => {
  it('are document.upsert events of exactly VALUE_BYTES that the real pipeline admits', () => {
    const value = eventValue('e-123456', 'key-9999', 42);
    expect(Buffer.byteLength(value)).toBe(VALUE_BYTES);
    const admission = admitEvent(sourceRecord('key-9999', value));
    expect(admission).toMatchObject({ ok: true, orderingKey: 'key-9999' });
    if (admission.ok)
      expect(admission.value.event).toMatchObject({
        businessId: 'key-9999',
        sequence: 42,
        resultKey: 'result-key-9999',
      });
  });

  it('keep a key in one partition with its sequence counting up in produce order', () => {
    const layout = { name: 't', partitions: 6, records: 100, keys: 10 };
    const records = produce(layout);
    expect(records).toHaveLength(100);
    const seen = new Map<string, { partition: number; sequences: number[] }>();
    for (const record of records) {
      const { sequence } = JSON.parse(record.value) as { sequence: number };
      const entry = seen.get(record.key) ?? { partition: record.partition, sequences: [] };
      expect(record.partition).toBe(entry.partition);
      entry.sequences.push(sequence);
      seen.set(record.key, entry);
    }
    expect(seen.size).toBe(10);
    for (const { sequences } of seen.values()) expect(sequences).toEqual([...Array(10).keys()]);
    expect(regularRecord(layout, 13).partition).toBe(3 % 6);
  });

  it('counts per partition exactly what is produced, head records included', () => {
    const layouts: TopicLayout[] = [
      { name: 'a', partitions: 6, records: 1003, keys: 10 },
      { name: 'b', partitions: 6, records: 50, keys: 10_000 },
      { name: 'c', partitions: 6, records: 20, keys: 1000, poisonHeadPartition: 0 },
      {
        name: 'd',
        partitions: 3,
        records: 40,
        keys: 5,
        onlyPartition: 0,
        recordsPerOtherPartition: 4,
        blockerHeadPartition: 0,
      },
    ];
    for (const layout of layouts) {
      const produced = new Array<number>(layout.partitions).fill(0);
      for (const record of produce(layout)) produced[record.partition]!++;
      expect(partitionCounts(layout)).toEqual(produced);
    }
  });

  it('puts the poison and the blocker first in their partition', () => {
    const poison = produce({ name: 'p', partitions: 2, records: 4, keys: 2, poisonHeadPartition: 1 });
    expect(poison.find((r) => r.partition === 1)).toEqual({ partition: 1, key: 'poison', value: POISON_VALUE });
    const blocked = produce({
      name: 'b',
      partitions: 2,
      records: 4,
      keys: 2,
      onlyPartition: 0,
      blockerHeadPartition: 0,
    });
    expect(blocked[0]).toMatchObject({ partition: 0, key: BLOCKER_KEY });
    expect(blocked.slice(1).every((r) => r.partition === 0)).toBe(true);
  });

  it('names topics after their whole layout, so a changed layout never reuses an old topic', () => {
    const base = { name: 'keys10', partitions: 6, records: 1000, keys: 10 };
    expect(topicName(base)).toBe(`warden-bench.keys10.p6.n1000.k10.v${VALUE_BYTES}`);
    expect(topicName({ ...base, records: 1001 })).not.toBe(topicName(base));
    expect(topicName({ ...base, poisonHeadPartition: 0 })).not.toBe(topicName(base));
  });

  it('rejects layouts that cannot be produced', () => {
    expect(() => partitionCounts({ name: 'x', partitions: 0, records: 1, keys: 1 })).toThrow(
      /partitions must be a positive integer/,
    );
    expect(() => partitionCounts({ name: 'x', partitions: 2, records: 1, keys: 1, onlyPartition: 2 })).toThrow(
      /onlyPartition 2 is not a partition of 2/,
    );
    expect(() => [...layoutRecords({ name: 'x', partitions: 1, records: 1, keys: 1 }, 0)]).toThrow(/chunkSize/);
    expect(() => eventValue('e', 'k'.repeat(300), 0)).toThrow(/more than 200/);
  });
});

// The benchmark's records and topic layouts, as pure data. Every record is a default-pipeline event
// (`document.upsert`, so the full-pipeline workload can store it) padded to VALUE_BYTES. Key k always
// goes to partition k % partitions, as a key-hashing producer would keep a key in one partition, and
// carries its own sequence 0, 1, 2, … so key order can be checked.

/** Size of every record value in bytes (about 200, as the throughput targets assume). */
export const VALUE_BYTES = 200;

/** Key of the record placed at the head of a partition that must never complete (memory workload). */
export const BLOCKER_KEY = 'blocker';

/** Value of the record placed at the head of a partition that fails admission (head-of-line workload). */
export const POISON_VALUE = 'POISON: not an event';

export interface TopicLayout {
  /** Logical name; the broker topic name also encodes the layout so a changed layout gets a new topic. */
  name: string;
  partitions: number;
  /** Regular records, spread over keys (and so over partitions) round robin. */
  records: number;
  keys: number;
  /** Every regular record goes to this partition instead of its key's partition. */
  onlyPartition?: number;
  /** Extra regular records per partition other than `onlyPartition` (memory workload: the healthy ones). */
  recordsPerOtherPartition?: number;
  /** A poison record first in this partition (offset 0). */
  poisonHeadPartition?: number;
  /** A record that never completes first in this partition (offset 0). */
  blockerHeadPartition?: number;
}

export interface BenchRecord {
  partition: number;
  key: string;
  value: string;
}

function checkLayout(layout: TopicLayout): void {
  const positive = (name: string, value: number) => {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`${layout.name}: ${name} must be a positive integer, got ${value}`);
  };
  positive('partitions', layout.partitions);
  positive('keys', layout.keys);
  if (!Number.isInteger(layout.records) || layout.records < 0) {
    throw new RangeError(`${layout.name}: records must be a non-negative integer, got ${layout.records}`);
  }
  for (const field of ['onlyPartition', 'poisonHeadPartition', 'blockerHeadPartition'] as const) {
    const partition = layout[field];
    if (partition !== undefined && (!Number.isInteger(partition) || partition < 0 || partition >= layout.partitions)) {
      throw new RangeError(`${layout.name}: ${field} ${partition} is not a partition of ${layout.partitions}`);
    }
  }
}

/** The broker topic name: the layout's fields, so a topic left by an older layout is never reused. */
export function topicName(layout: TopicLayout): string {
  checkLayout(layout);
  const parts = [
    'warden-bench',
    layout.name,
    `p${layout.partitions}`,
    `n${layout.records}`,
    `k${layout.keys}`,
    `v${VALUE_BYTES}`,
    layout.onlyPartition === undefined ? '' : `only${layout.onlyPartition}`,
    layout.recordsPerOtherPartition === undefined ? '' : `other${layout.recordsPerOtherPartition}`,
    layout.poisonHeadPartition === undefined ? '' : `poison${layout.poisonHeadPartition}`,
    layout.blockerHeadPartition === undefined ? '' : `blocker${layout.blockerHeadPartition}`,
  ];
  return parts.filter((part) => part !== '').join('.');
}

/** Key index, key and per-key sequence of regular record `index`. */
export function keyOf(index: number, keys: number): { keyIndex: number; key: string; sequence: number } {
  const keyIndex = index % keys;
  return { keyIndex, key: `key-${keyIndex}`, sequence: Math.floor(index / keys) };
}

/** A `document.upsert` event for `key` padded with spaces inside its payload to exactly VALUE_BYTES. */
export function eventValue(eventId: string, key: string, sequence: number): string {
  const head = JSON.stringify({
    eventId,
    type: 'document.upsert',
    businessId: key,
    resultKey: `result-${key}`,
    sequence,
    payload: { pad: '' },
  });
  const padding = VALUE_BYTES - Buffer.byteLength(head, 'utf8');
  if (padding < 0)
    throw new RangeError(`event ${eventId} is ${Buffer.byteLength(head)} bytes, more than ${VALUE_BYTES}`);
  return head.replace('"pad":""', `"pad":"${' '.repeat(padding)}"`);
}

/** Regular record `index` of a layout (without the head records). */
export function regularRecord(layout: TopicLayout, index: number, eventPrefix = 'e'): BenchRecord {
  const { keyIndex, key, sequence } = keyOf(index, layout.keys);
  const partition = layout.onlyPartition ?? keyIndex % layout.partitions;
  return { partition, key, value: eventValue(`${eventPrefix}-${index}`, key, sequence) };
}

/** Records per partition the layout produces, head records included: the end offsets of a fresh topic. */
export function partitionCounts(layout: TopicLayout): number[] {
  checkLayout(layout);
  const counts = new Array<number>(layout.partitions).fill(0);
  if (layout.onlyPartition !== undefined) {
    counts[layout.onlyPartition] = layout.records;
    for (let p = 0; p < layout.partitions; p++) {
      if (p !== layout.onlyPartition) counts[p] = layout.recordsPerOtherPartition ?? 0;
    }
  } else {
    // Key k lives in partition k % partitions and gets every keys-th record.
    for (let keyIndex = 0; keyIndex < Math.min(layout.keys, layout.records); keyIndex++) {
      const perKey = Math.floor(layout.records / layout.keys) + (keyIndex < layout.records % layout.keys ? 1 : 0);
      counts[keyIndex % layout.partitions]! += perKey;
    }
  }
  if (layout.poisonHeadPartition !== undefined) counts[layout.poisonHeadPartition]! += 1;
  if (layout.blockerHeadPartition !== undefined) counts[layout.blockerHeadPartition]! += 1;
  return counts;
}

/**
 * Every record of the layout, in produce order, in chunks of at most `chunkSize` (head records first, then
 * regular records, then the other partitions' extra records). A generator, so a million records never
 * sit in memory at once.
 */
export function* layoutRecords(layout: TopicLayout, chunkSize: number): Generator<BenchRecord[]> {
  checkLayout(layout);
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const heads: BenchRecord[] = [];
  if (layout.poisonHeadPartition !== undefined)
    heads.push({ partition: layout.poisonHeadPartition, key: 'poison', value: POISON_VALUE });
  if (layout.blockerHeadPartition !== undefined) {
    heads.push({
      partition: layout.blockerHeadPartition,
      key: BLOCKER_KEY,
      value: eventValue('blocker', BLOCKER_KEY, 0),
    });
  }
  let chunk: BenchRecord[] = heads;
  for (let index = 0; index < layout.records; index++) {
    chunk.push(regularRecord(layout, index));
    if (chunk.length >= chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (layout.onlyPartition !== undefined) {
    const extra = layout.recordsPerOtherPartition ?? 0;
    for (let p = 0; p < layout.partitions; p++) {
      if (p === layout.onlyPartition) continue;
      for (let index = 0; index < extra; index++) {
        const { key, sequence } = keyOf(index, layout.keys);
        chunk.push({ partition: p, key, value: eventValue(`o${p}-${index}`, key, sequence) });
        if (chunk.length >= chunkSize) {
          yield chunk;
          chunk = [];
        }
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

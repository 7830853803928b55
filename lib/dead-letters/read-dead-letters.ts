import type { PartitionLog, RecordSource } from '../kafka/partition-records';
import type { TDeadLetterFilter } from '../schemas/dead-letters';
import { decodeDeadLetter, matchesFilter, type DeadLetterRecord } from './dead-letter-record';

// Paged, bounded reads of the dead-letter topic. Nothing here loads a topic whole: a page reads backwards
// from each partition's end (or the cursor) in chunks and stops at `scanLimit` records read; counts and
// redrive matches read at most their own bound. Time filters are turned into offsets first
// (ListOffsets by timestamp), so a narrow time range reads only its own part of the log.

/** Records read from one partition per step of a backward scan. */
export const SCAN_CHUNK = 200;
/** Most records one page reads from the broker (matches may be rarer than this: the page then says so). */
export const PAGE_SCAN_LIMIT = 5_000;
/** Most records the counts read: the newest this many of the topic. */
export const COUNT_SCAN_LIMIT = 20_000;
/** Most records one redrive's selection may scan; a larger filter is refused, naming the bound. */
export const MATCH_SCAN_LIMIT = 200_000;

/** Per partition: read [start, end). */
export interface PartitionRange {
  partition: number;
  start: bigint;
  end: bigint;
}

/** The ranges of the topic a filter can match, each clipped by the filter's time range and a cursor. */
export async function rangesFor(
  source: RecordSource,
  topic: string,
  filter: TDeadLetterFilter,
  cursor?: Map<number, bigint>,
): Promise<PartitionRange[]> {
  const logs: PartitionLog[] = (await source.partitionLogs(topic)) ?? [];
  // A topic that does not exist yet (the writer creates it on the first dead letter) holds nothing to match;
  // asking the broker for its offsets by time would fail with UNKNOWN_TOPIC_OR_PARTITION instead.
  if (logs.length === 0) return [];
  const [fromOffsets, toOffsets] = await Promise.all([
    filter.from === undefined ? null : source.offsetsAtTime(topic, Date.parse(filter.from)),
    filter.to === undefined ? null : source.offsetsAtTime(topic, Date.parse(filter.to)),
  ]);
  return logs.map((log) => {
    let start = log.low;
    let end = log.high;
    const from = fromOffsets?.get(log.partition);
    if (from !== undefined && from > start) start = from;
    const to = toOffsets?.get(log.partition);
    if (to !== undefined && to < end) end = to;
    const before = cursor?.get(log.partition);
    if (cursor !== undefined) end = before === undefined ? start : before < end ? before : end;
    return { partition: log.partition, start, end: end < start ? start : end };
  });
}

export interface DeadLetterPage {
  letters: DeadLetterRecord[];
  /** Per partition, where the next page ends; null when every range is read to its start. */
  nextCursor: Map<number, bigint> | null;
  scanned: number;
}

/**
 * The newest `limit` dead letters matching `filter`, newest first (by timestamp across partitions, by offset
 * within one). Reads backwards at most `scanLimit` records; the cursor resumes exactly after the last record
 * returned per partition, so paging never skips or repeats a record.
 */
export async function readDeadLetterPage(
  source: RecordSource,
  topic: string,
  options: { filter: TDeadLetterFilter; limit: number; cursor?: Map<number, bigint>; scanLimit?: number },
): Promise<DeadLetterPage> {
  const scanLimit = options.scanLimit ?? PAGE_SCAN_LIMIT;
  const ranges = await rangesFor(source, topic, options.filter, options.cursor);
  // Per partition: matches in descending offset order, and how far down the scan has read.
  const state = ranges.map((r) => ({ ...r, low: r.end, matches: [] as DeadLetterRecord[] }));
  let scanned = 0;
  let active = state.filter((s) => s.low > s.start);
  while (active.length > 0 && scanned < scanLimit && totalMatches(state) < options.limit) {
    for (const s of active) {
      const remaining = scanLimit - scanned;
      if (remaining <= 0) break;
      const size = BigInt(Math.min(SCAN_CHUNK, remaining));
      const from = s.low - size > s.start ? s.low - size : s.start;
      const records = await source.readRange(topic, s.partition, from, s.low, Number(s.low - from));
      scanned += Number(s.low - from);
      for (const record of records.reverse()) {
        const letter = decodeDeadLetter(record);
        if (matchesFilter(letter, options.filter)) s.matches.push(letter);
      }
      s.low = from;
    }
    active = state.filter((s) => s.low > s.start);
  }
  // Merge: repeatedly take the partition head with the newest timestamp, so each partition's taken records
  // are a prefix of its matches and its cursor is simply the last one taken.
  const letters: DeadLetterRecord[] = [];
  const heads = state.map(() => 0);
  while (letters.length < options.limit) {
    let best = -1;
    for (let i = 0; i < state.length; i++) {
      const candidate = state[i]!.matches[heads[i]!];
      if (candidate === undefined) continue;
      const current = best === -1 ? undefined : state[best]!.matches[heads[best]!];
      if (current === undefined || candidate.record.timestampMs > current.record.timestampMs) best = i;
    }
    if (best === -1) break;
    letters.push(state[best]!.matches[heads[best]!]!);
    heads[best]! += 1;
  }
  const cursor = new Map<number, bigint>();
  state.forEach((s, i) => {
    const untaken = s.matches.length > heads[i]!;
    cursor.set(s.partition, untaken ? (s.matches[heads[i]! - 1]?.record.offset ?? s.end) : s.low);
  });
  const exhausted = state.every((s, i) => s.low <= s.start && s.matches.length === heads[i]);
  return { letters, nextCursor: exhausted ? null : cursor, scanned };
}

function totalMatches(state: Array<{ matches: unknown[] }>): number {
  return state.reduce((sum, s) => sum + s.matches.length, 0);
}

/**
 * Every dead letter matching `filter` in `ranges`, oldest first per partition, read forwards in chunks;
 * throws when the ranges hold more than `scanLimit` records (the caller names the bound).
 */
export async function* scanMatches(
  source: RecordSource,
  topic: string,
  ranges: readonly PartitionRange[],
  filter: TDeadLetterFilter,
  chunk = 500,
): AsyncGenerator<DeadLetterRecord> {
  for (const range of ranges) {
    let next = range.start;
    while (next < range.end) {
      const records = await source.readRange(topic, range.partition, next, range.end, chunk);
      if (records.length === 0) break;
      for (const record of records) {
        const letter = decodeDeadLetter(record);
        if (matchesFilter(letter, filter)) yield letter;
      }
      next = records[records.length - 1]!.offset + 1n;
    }
  }
}

/** Records in the ranges (offsets, so compacted gaps and control records count too): the scan's size. */
export function rangeSize(ranges: readonly PartitionRange[]): number {
  return ranges.reduce((sum, r) => sum + Number(r.end - r.start), 0);
}

export interface DeadLetterCounts {
  scanned: number;
  total: number;
  byErrorClass: Map<string, number>;
  bySource: Map<string, { topic: string; partition: number | null; count: number }>;
}

/** Counts by error class and by source partition over the newest `scanLimit` records of the topic. */
export async function countDeadLetters(
  source: RecordSource,
  topic: string,
  scanLimit = COUNT_SCAN_LIMIT,
): Promise<DeadLetterCounts> {
  const logs = (await source.partitionLogs(topic)) ?? [];
  const total = logs.reduce((sum, l) => sum + Number(l.high - l.low), 0);
  // Each partition gets its share of the bound, newest records first.
  const share = BigInt(Math.max(1, Math.floor(scanLimit / Math.max(1, logs.length))));
  const ranges = logs.map((l) => ({
    partition: l.partition,
    start: l.high - share > l.low ? l.high - share : l.low,
    end: l.high,
  }));
  const counts: DeadLetterCounts = { scanned: 0, total, byErrorClass: new Map(), bySource: new Map() };
  for await (const letter of scanMatches(source, topic, ranges, {})) {
    counts.scanned += 1;
    const errorClass = letter.errorClass ?? 'unknown';
    counts.byErrorClass.set(errorClass, (counts.byErrorClass.get(errorClass) ?? 0) + 1);
    const sourceKey = `${letter.sourceTopic ?? '?'}\u0000${letter.sourcePartition ?? '?'}`;
    const entry = counts.bySource.get(sourceKey) ?? {
      topic: letter.sourceTopic ?? '(unknown)',
      partition: letter.sourcePartition,
      count: 0,
    };
    entry.count += 1;
    counts.bySource.set(sourceKey, entry);
  }
  return counts;
}

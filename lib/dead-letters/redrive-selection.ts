import type { RecordSource } from '../kafka/partition-records';
import type { TRedriveSelection } from '../schemas/dead-letters';
import type { DeadLetterRecord } from './dead-letter-record';
import { MATCH_SCAN_LIMIT, rangeSize, rangesFor, scanMatches, type PartitionRange } from './read-dead-letters';

// What a redrive selection means in the dead-letter topic. The API resolves it to count what the operator
// confirms and to freeze each partition's end (records dead-lettered later are not part of the job); the
// worker resolves it again, with those ends and its own progress as the start, to send the records.

/** Per DLQ partition, an offset: the frozen ends of a job, or its progress. */
export type PartitionOffsets = Record<string, string>;

export class SelectionTooLargeError extends Error {
  constructor(readonly records: number) {
    super(
      `the filter spans ${records} records of the dead-letter topic; a redrive scans at most ${MATCH_SCAN_LIMIT}: narrow it (time range, source, error class)`,
    );
    this.name = 'SelectionTooLargeError';
  }
}

/**
 * The ranges a selection reads: for a filter, the filter's ranges (ends clipped to `ends` when given, starts
 * raised to `from` when given), none when the topic does not exist; for named records, one single-offset
 * range for each the log still holds. Throws SelectionTooLargeError
 * when a filter spans more than MATCH_SCAN_LIMIT records.
 */
export async function selectionRanges(
  source: RecordSource,
  topic: string,
  selection: TRedriveSelection,
  bounds: { ends?: PartitionOffsets; from?: PartitionOffsets } = {},
): Promise<PartitionRange[]> {
  let ranges: PartitionRange[];
  if (selection.kind === 'records') {
    // Only offsets the log still holds are read: a missing topic or partition, or an offset never written or
    // removed by retention, would make the broker refuse the Fetch. The caller sees such a record as absent.
    const logs = new Map(((await source.partitionLogs(topic)) ?? []).map((l) => [l.partition, l]));
    ranges = [...selection.records]
      .filter((r) => {
        const log = logs.get(r.partition);
        const offset = BigInt(r.offset);
        return log !== undefined && offset >= log.low && offset < log.high;
      })
      .map((r) => ({ partition: r.partition, start: BigInt(r.offset), end: BigInt(r.offset) + 1n }))
      .sort((a, b) => a.partition - b.partition || (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  } else {
    ranges = await rangesFor(source, topic, selection.filter);
  }
  const clipped = ranges.map((r) => {
    const end = bounds.ends?.[r.partition] === undefined ? r.end : min(r.end, BigInt(bounds.ends[r.partition]!));
    const start = bounds.from?.[r.partition] === undefined ? r.start : max(r.start, BigInt(bounds.from[r.partition]!));
    return { ...r, start, end: end < start ? start : end };
  });
  if (selection.kind === 'filter' && rangeSize(clipped) > MATCH_SCAN_LIMIT)
    throw new SelectionTooLargeError(rangeSize(clipped));
  return clipped;
}

/** The dead letters a selection names in `ranges`, in partition then offset order. */
export function selectedRecords(
  source: RecordSource,
  topic: string,
  selection: TRedriveSelection,
  ranges: readonly PartitionRange[],
): AsyncGenerator<DeadLetterRecord> {
  return scanMatches(source, topic, ranges, selection.kind === 'filter' ? selection.filter : {});
}

/** Each partition's end in `ranges` (the highest when a partition has several), as stored on a job. */
export function endsOf(ranges: readonly PartitionRange[]): PartitionOffsets {
  const ends: PartitionOffsets = {};
  for (const r of ranges) {
    const current = ends[r.partition];
    if (current === undefined || BigInt(current) < r.end) ends[r.partition] = r.end.toString();
  }
  return ends;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

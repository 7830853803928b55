// Exact time lag: now minus the timestamp of the record at the committed offset (the record the group waits
// for). Reading records costs a fetch, so reads are batched: at most one batch per `intervalMs`, at most
// `maxPartitions` records per batch, worst estimated time lag first. A timestamp read once stays valid while
// the committed offset does not move, so a stuck consumer keeps an exact, growing value without new reads.
// Pure: the sampler performs the reads this planner asks for and hands the results back.

import type { RecordReadRequest, RecordReadResult } from '../../lib/kafka/cluster-observation';

export interface ExactTimeLagOptions {
  /** Minimum time between two read batches. */
  intervalMs: number;
  /** Records per batch; 0 turns exact reads off. */
  maxPartitions: number;
}

export interface PartitionPosition {
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
}

const readKey = (topic: string, partition: number, offset: bigint): string =>
  `${topic}\u0000${partition}\u0000${offset}`;

export class ExactTimeLagPlanner {
  private readonly timestamps = new Map<string, number>();
  private lastBatchAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: ExactTimeLagOptions) {
    if (!Number.isFinite(options.intervalMs) || options.intervalMs < 0)
      throw new RangeError(`intervalMs must be >= 0, got ${options.intervalMs}`);
    if (!Number.isInteger(options.maxPartitions) || options.maxPartitions < 0) {
      throw new RangeError(`maxPartitions must be an integer >= 0, got ${options.maxPartitions}`);
    }
  }

  /**
   * The records to read this round: none before the interval elapsed; otherwise lagging partitions whose
   * record at the committed offset is still in the log and not read yet, deduplicated (groups at the same
   * offset share a read), worst `estimatedMs` first (unknown last), at most maxPartitions.
   */
  plan(
    positions: ReadonlyArray<PartitionPosition & { estimatedMs: number | null }>,
    nowMs: number,
  ): RecordReadRequest[] {
    if (this.options.maxPartitions === 0 || nowMs - this.lastBatchAtMs < this.options.intervalMs) return [];
    const wanted = new Map<string, RecordReadRequest & { estimatedMs: number | null }>();
    for (const p of positions) {
      if (!isReadable(p)) continue;
      const offset = p.committedOffset as bigint;
      const key = readKey(p.topic, p.partition, offset);
      if (this.timestamps.has(key)) continue;
      const seen = wanted.get(key);
      if (!seen || (p.estimatedMs ?? -1) > (seen.estimatedMs ?? -1)) {
        wanted.set(key, { topic: p.topic, partition: p.partition, offset, estimatedMs: p.estimatedMs });
      }
    }
    const requests = [...wanted.values()]
      .sort((a, b) => (b.estimatedMs ?? -1) - (a.estimatedMs ?? -1))
      .slice(0, this.options.maxPartitions)
      .map(({ topic, partition, offset }) => ({ topic, partition, offset }));
    if (requests.length > 0) this.lastBatchAtMs = nowMs;
    return requests;
  }

  /** Remembers what a batch read; a record that could not be read is simply planned again later. */
  accept(results: readonly RecordReadResult[]): void {
    for (const r of results) {
      if (r.timestampMs !== null && Number.isFinite(r.timestampMs))
        this.timestamps.set(readKey(r.topic, r.partition, r.offset), r.timestampMs);
    }
  }

  /**
   * Exact time lag of one position: 0 when nothing is waiting (committed at or past the log end), now minus
   * the known record timestamp (never negative: producer clocks may run ahead), null when no commit, the
   * record is gone (committed below the log start) or not read yet.
   */
  exactFor(p: PartitionPosition, nowMs: number): number | null {
    if (p.committedOffset === null) return null;
    if (p.committedOffset >= p.logEndOffset) return 0;
    if (p.committedOffset < p.logStartOffset) return null;
    const timestampMs = this.timestamps.get(readKey(p.topic, p.partition, p.committedOffset));
    return timestampMs === undefined ? null : Math.max(0, Math.round(nowMs - timestampMs));
  }

  /** Drops timestamps no position of this round refers to, so the cache never outgrows the sampled partitions. */
  retainOnly(positions: readonly PartitionPosition[]): void {
    const inUse = new Set(
      positions.flatMap((p) => (p.committedOffset === null ? [] : [readKey(p.topic, p.partition, p.committedOffset)])),
    );
    for (const key of this.timestamps.keys()) if (!inUse.has(key)) this.timestamps.delete(key);
  }
}

function isReadable(p: PartitionPosition): boolean {
  return p.committedOffset !== null && p.committedOffset < p.logEndOffset && p.committedOffset >= p.logStartOffset;
}

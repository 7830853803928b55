// Bookkeeping of one owned partition: what was delivered and not committed, which of it is complete,
// its ordering lanes, what is remembered as already complete, and its quarantine.
//
// Invariants:
// - Every delivered, not yet committed record is, in ascending offset order without holes, either in
//   `completedPrefix` (only its offset: the records of the completed prefix, dropped as soon as they complete
//   so their entries die young instead of surviving until the commit) or after it in `entries`. Every record
//   the source holds between the acknowledged commit and the last accepted offset is one of these, or was
//   released together with everything after it (a rewind), so a commit computed from the completed prefix
//   can never pass a record that was not finished. `entries[0]` is unfinished whenever `entries` is not empty,
//   except between a rewind or acknowledgement and the next completion.
// - An offset is accepted only above `acceptAbove`, which moves to every accepted record and to just below
//   the seek position on a rewind. Redelivered copies at or below it are ignored.
// - `skip` remembers offsets known to be complete that are not in `entries` (commit metadata, calls that
//   finished after their record was released, operator skips). The redelivered copy completes without work.

import { LaneTable, type LaneMember } from './lane-table.js';
import { movedFront } from './moved-front.js';
import { encodeCompletedValuesAbove, offsetSuccessor } from './offsets.js';
import { topicPartitionKey } from './topic-partition.js';
import type {
  CommitRequest,
  Offset,
  PartitionSnapshot,
  QuarantineInfo,
  RecordPhase,
  SkipOrigin,
  TopicPartition,
} from './types.js';

export type EntryStatus =
  /** admitted (or waiting for its failure path), not running */
  | 'buffered'
  | 'running'
  /** waiting for a backoff timer; keeps its lane, holds no execution slot */
  | 'retry-wait'
  | 'complete'
  /** the partition is stopped at this record */
  | 'quarantined'
  /** dropped by a rewind; the source will deliver the record again */
  | 'released';

/**
 * What the partition's bookkeeping reads and writes of a delivered record. `RecordEntry` is the one
 * implementation; the partition knows only this shape, so the two modules do not depend on each other.
 */
export interface TrackedRecord<E> extends LaneMember<E> {
  status: EntryStatus;
  readonly phase: RecordPhase;
  readonly offset: Offset;
  readonly offsetValue: bigint;
  readonly deliveredAtMs: number;
  /** Payload bytes counted in `unfinishedBytes` while the record is unfinished. */
  readonly bytes: number;
  readonly isUnfinished: boolean;
  /** Drops the payload once the record is complete. */
  releasePayload(): void;
}

export interface QuarantineState<E> {
  info: QuarantineInfo;
  /** The quarantined record while it is still tracked; null after a rebalance rewound past it. */
  entry: E | null;
  /** Where reading must restart when the quarantine is lifted: the record itself, or an earlier rewind point. */
  resumeFrom: Offset;
}

export interface CommitCandidate {
  request: CommitRequest;
  /** The completed-above set did not fit the metadata budget; a restart replays those records. */
  metadataOverflow: boolean;
}

export class PartitionState<E extends TrackedRecord<E>> {
  readonly key: string;
  /** Bumped when an operator seek discards the state: calls started before must not touch it. */
  epoch = 0;
  /** Set when the partition is revoked; the core keeps no reference after that except in running calls. */
  revoked = false;
  readonly lanes = new LaneTable<E>((entry) => entry.status === 'buffered' && entry.phase === 'handle');
  readonly skip = new Map<Offset, SkipOrigin>();
  /** Last commit the broker acknowledged (or the committed offset the adapter read after assignment). */
  committed: { offset: Offset; metadata: string | null } | null = null;
  quarantine: QuarantineState<E> | null = null;
  /** Pending or unfinished bytes crossed the limit; cleared with hysteresis at half the limit. */
  backpressured = false;
  /** What the core last told the source. */
  sourcePaused = false;
  /** Execution slots held by this partition's handler calls (including calls of released records). */
  inFlight = 0;
  unfinishedBytes = 0;
  highestCompleted: bigint | null = null;
  /** The log end (next offset the log will write) the source last reported with a delivery; null: unknown. */
  logEnd: bigint | null = null;

  /** The tracked records from `entriesStart` on; the slots before it left (index, not shift: O(1)). */
  private entries: E[] = [];
  private entriesStart = 0;
  /** Offsets of the completed prefix from `prefixStart` on (the slots before it were committed). */
  private completedPrefix: bigint[] = [];
  private prefixStart = 0;
  /** The highest offset not accepted again (null: any); a bigint kept as is, so appends allocate none. */
  private acceptAbove: bigint | null = null;

  constructor(
    readonly topic: string,
    readonly partition: number,
  ) {
    this.key = topicPartitionKey({ topic, partition });
  }

  get tp(): TopicPartition {
    return { topic: this.topic, partition: this.partition };
  }

  /** Delivered and not committed, the quantity `maxPendingPerPartition` bounds. */
  get pending(): number {
    return this.entries.length - this.entriesStart + this.completedPrefixCount;
  }

  /** Completed records before the first unfinished one, waiting for a commit. */
  get completedPrefixCount(): number {
    return this.completedPrefix.length - this.prefixStart;
  }

  get delivered(): readonly E[] {
    return this.entriesStart === 0 ? this.entries : this.entries.slice(this.entriesStart);
  }

  /** The oldest delivered record is complete: a commit now would release at least one record. */
  get prefixCompleted(): boolean {
    return this.completedPrefixCount > 0 || this.entries[this.entriesStart]?.status === 'complete';
  }

  /**
   * Every delivered record is complete and the last one accepted reached the reported log end: no record
   * is left to join a later commit, so delaying the commit would only delay it. O(1).
   */
  get drainedToLogEnd(): boolean {
    return (
      this.entriesStart === this.entries.length &&
      this.logEnd !== null &&
      this.acceptAbove !== null &&
      this.acceptAbove + 1n >= this.logEnd
    );
  }

  /** The source's log end at a delivery; it only grows (an older report never lowers it). */
  reportLogEnd(logEnd: bigint): void {
    if (this.logEnd === null || logEnd > this.logEnd) this.logEnd = logEnd;
  }

  accepts(offset: bigint): boolean {
    return this.acceptAbove === null || offset > this.acceptAbove;
  }

  /** Sets where the next accepted record may start, if nothing later was accepted yet. */
  raiseFloor(offset: bigint): void {
    if (this.acceptAbove === null || offset - 1n > this.acceptAbove) this.acceptAbove = offset - 1n;
  }

  private setFloor(offset: bigint): void {
    this.acceptAbove = offset - 1n;
  }

  append(entry: E): void {
    if (!this.accepts(entry.offsetValue)) throw new Error(`offset ${entry.offset} is below the accept floor`);
    this.entries.push(entry);
    this.acceptAbove = entry.offsetValue;
    this.unfinishedBytes += entry.bytes;
  }

  /** Marks an unfinished tracked record complete and frees its payload. False if it was not unfinished. */
  complete(entry: E): boolean {
    if (!entry.isUnfinished) return false;
    entry.status = 'complete';
    this.unfinishedBytes -= entry.bytes;
    if (this.highestCompleted === null || entry.offsetValue > this.highestCompleted) {
      this.highestCompleted = entry.offsetValue;
    }
    this.lanes.remove(entry);
    entry.releasePayload();
    if (this.entries[this.entriesStart] === entry) this.dropCompletedHead();
    return true;
  }

  /** Moves the completed records at the head of `entries` into `completedPrefix`. */
  private dropCompletedHead(): void {
    const entries = this.entries;
    let start = this.entriesStart;
    while (start < entries.length && entries[start]!.status === 'complete') {
      this.completedPrefix.push(entries[start]!.offsetValue);
      start++;
    }
    this.setEntriesStart(start);
  }

  private setEntriesStart(start: number): void {
    for (let index = this.entriesStart; index < start; index++) this.entries[index] = undefined as unknown as E;
    ({ items: this.entries, start: this.entriesStart } = movedFront(this.entries, start));
  }

  private prefixOffsets(): readonly bigint[] {
    return this.completedPrefix.slice(this.prefixStart);
  }

  /** Forgets the prefix offsets from `index` (relative to prefixStart) on. */
  private truncatePrefix(index: number): void {
    this.completedPrefix.length = this.prefixStart + index;
    ({ items: this.completedPrefix, start: this.prefixStart } = movedFront(this.completedPrefix, this.prefixStart));
  }

  remember(offset: Offset, origin: SkipOrigin): void {
    if (!this.skip.has(offset)) this.skip.set(offset, origin);
  }

  /**
   * Drops every tracked record at or above `from` (all records when null) because the source will deliver
   * them again from `from`. Completed ones are remembered when `rememberCompleted`, so they do not run twice.
   * Returns the dropped records; the caller detaches their running calls and cancels their retry timers.
   */
  releaseFrom(from: bigint | null, rememberCompleted: boolean): { released: E[]; count: number } {
    let cut = this.entries.length;
    while (cut > this.entriesStart && (from === null || this.entries[cut - 1]!.offsetValue >= from)) cut--;
    const released = this.entries.splice(cut);
    let prefixReleased = 0;
    if (cut === this.entriesStart) {
      const prefix = this.prefixOffsets();
      let keep = prefix.length;
      while (keep > 0 && (from === null || prefix[keep - 1]! >= from)) keep--;
      prefixReleased = prefix.length - keep;
      if (rememberCompleted)
        for (let index = keep; index < prefix.length; index++) this.remember(prefix[index]!.toString(), 'completed');
      if (prefixReleased > 0) this.truncatePrefix(keep);
    }
    const count = released.length + prefixReleased;
    if (released.length === 0) {
      if (from !== null) this.setFloor(from);
      return { released, count };
    }
    this.lanes.removeAll(released);
    for (const entry of released) {
      if (entry.status === 'complete') {
        if (rememberCompleted) this.remember(entry.offset, 'completed');
        continue;
      }
      if (entry.isUnfinished) this.unfinishedBytes -= entry.bytes;
      entry.status = 'released';
    }
    if (this.quarantine?.entry?.status === 'released') this.quarantine.entry = null;
    if (from !== null) this.setFloor(from);
    return { released, count };
  }

  /** Forgets everything (operator seek): later calls of this partition's old records cannot touch it. */
  discardAll(nextOffset: bigint): E[] {
    const { released } = this.releaseFrom(null, false);
    this.lanes.clear();
    this.skip.clear();
    this.committed = null;
    this.highestCompleted = null;
    this.epoch++;
    this.setFloor(nextOffset);
    return released;
  }

  /** Where the source restarts after a rebalance: the committed offset, else the first tracked record. */
  rewindPoint(): Offset | null {
    if (this.committed) return this.committed.offset;
    if (this.completedPrefixCount > 0) return this.completedPrefix[this.prefixStart]!.toString();
    return this.entries[this.entriesStart]?.offset ?? null;
  }

  oldestUnfinished(): E | undefined {
    for (let index = this.entriesStart; index < this.entries.length; index++) {
      const entry = this.entries[index]!;
      if (entry.isUnfinished) return entry;
    }
    return undefined;
  }

  /** Unfinished records (not complete, not released); walks every tracked record. */
  unfinishedCount(): number {
    let count = 0;
    for (let index = this.entriesStart; index < this.entries.length; index++) {
      if (this.entries[index]!.isUnfinished) count++;
    }
    return count;
  }

  /**
   * The commit this partition needs now, or null when the broker already has it: one past the completed
   * prefix of the delivered records (nextCommitOffset's rule, computed over `entries` directly), with the
   * completed records above it in the metadata. Costs the records after the prefix, not every pending one.
   */
  commitCandidate(metadataMaxBytes: number): CommitCandidate | null {
    const entries = this.entries;
    let prefix = this.entriesStart;
    while (prefix < entries.length && entries[prefix]!.status === 'complete') prefix++;
    const committedOffset = this.committed?.offset ?? null;
    const lastCompleted =
      prefix > this.entriesStart
        ? entries[prefix - 1]!.offsetValue
        : this.completedPrefixCount > 0
          ? this.completedPrefix[this.completedPrefix.length - 1]!
          : null;
    let nextValue = lastCompleted === null ? null : offsetSuccessor(lastCompleted);
    if (committedOffset !== null && (nextValue === null || nextValue < BigInt(committedOffset)))
      nextValue = BigInt(committedOffset);
    if (nextValue === null) return null;

    const completedAbove: bigint[] = [];
    for (let index = prefix; index < entries.length; index++) {
      const entry = entries[index]!;
      if (entry.status === 'complete') completedAbove.push(entry.offsetValue);
    }
    for (const offset of this.skip.keys()) completedAbove.push(BigInt(offset));
    const metadata = encodeCompletedValuesAbove(nextValue, completedAbove, metadataMaxBytes);
    const next = nextValue.toString();
    if (this.committed && this.committed.offset === next && this.committed.metadata === metadata) return null;
    return {
      request: { topic: this.topic, partition: this.partition, offset: next, metadata },
      metadataOverflow: metadata === null,
    };
  }

  /** What an operator sees of this partition (the core's snapshot); walks every tracked record. */
  snapshot(nowMs: number, metadataMaxBytes: number): PartitionSnapshot {
    let completedUncommitted = this.completedPrefixCount;
    let buffered = 0;
    let retryWaiting = 0;
    for (let index = this.entriesStart; index < this.entries.length; index++) {
      const status = this.entries[index]!.status;
      if (status === 'complete') completedUncommitted++;
      else if (status === 'buffered') buffered++;
      else if (status === 'retry-wait') retryWaiting++;
    }
    const oldest = this.oldestUnfinished();
    return {
      topic: this.topic,
      partition: this.partition,
      watermark: this.committed?.offset ?? null,
      committableOffset: this.commitCandidate(metadataMaxBytes)?.request.offset ?? this.committed?.offset ?? null,
      highestCompleted: this.highestCompleted?.toString() ?? null,
      deliveredCount: this.pending,
      inFlight: this.inFlight,
      completedUncommitted,
      buffered,
      bufferedBytes: this.unfinishedBytes,
      retryWaiting,
      lanes: this.lanes.size,
      oldestUnfinishedOffset: oldest?.offset ?? null,
      oldestUnfinishedAgeMs: oldest ? nowMs - oldest.deliveredAtMs : null,
      paused: this.backpressured,
      quarantine: this.quarantine ? { ...this.quarantine.info } : null,
    };
  }

  /** After the broker stored `request`: forget the committed prefix. */
  acknowledgeCommit(request: CommitRequest): void {
    this.committed = { offset: request.offset, metadata: request.metadata };
    const committedValue = BigInt(request.offset);
    let committedPrefix = this.prefixStart;
    while (committedPrefix < this.completedPrefix.length && this.completedPrefix[committedPrefix]! < committedValue)
      committedPrefix++;
    ({ items: this.completedPrefix, start: this.prefixStart } = movedFront(this.completedPrefix, committedPrefix));
    let drop = this.entriesStart;
    while (drop < this.entries.length) {
      const entry = this.entries[drop]!;
      if (entry.offsetValue >= committedValue || entry.status !== 'complete') break;
      drop++;
    }
    this.setEntriesStart(drop);
    for (const offset of [...this.skip.keys()]) {
      if (BigInt(offset) < committedValue) this.skip.delete(offset);
    }
    this.raiseFloor(committedValue);
  }
}

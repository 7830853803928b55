// Bookkeeping of one delivered record and of one call (attempt) made for it.

import type { Lane } from './lane-table.js';
import type { EntryStatus, PartitionState, TrackedRecord } from './partition-state.js';
import { recordIdentity } from './topic-partition.js';
import type { DeadLetterInfo, HandlerContext, Offset, RecordPhase, SourceRecord, TimerHandle } from './types.js';

/** An owned partition of a core handling values of type T. */
export type OwnedPartition<T> = PartitionState<RecordEntry<T>>;

/**
 * What happens when a call settles after its record was released:
 * 'remember' — a success is remembered so the redelivered copy completes without running again;
 * 'ignore' — the outcome no longer matters (partition revoked, cleared by an operator, stall dead-letter).
 */
export type DetachMode = 'remember' | 'ignore';

export class RecordEntry<T> implements TrackedRecord<RecordEntry<T>> {
  status: EntryStatus = 'buffered';
  phase: RecordPhase = 'handle';
  /** Kept by the partition's LaneTable; undefined when the record is in no lane. */
  lane: Lane<RecordEntry<T>> | null | undefined = undefined;
  readyQueued = false;
  laneNext: RecordEntry<T> | null = null;
  /** Released on completion so completed-uncommitted records hold only a few numbers. */
  record: SourceRecord | null;
  value: T | undefined = undefined;
  handleAttempts = 0;
  /** Attempts of the current failure phase (failure result or dead-letter write). */
  phaseAttempts = 0;
  firstStartedAtMs: number | null = null;
  failure: { error: unknown; reason: string } | null = null;
  deadLetterInfo: DeadLetterInfo | null = null;
  retryTimer: TimerHandle | null = null;
  call: RecordCall<T> | null = null;

  constructor(
    /** The partition state that delivered the record; a revoked or rewound partition gets a new one or epoch. */
    readonly owner: OwnedPartition<T>,
    record: SourceRecord,
    readonly offset: Offset,
    readonly offsetValue: bigint,
    readonly deliveredAtMs: number,
    readonly bytes: number,
  ) {
    this.record = record;
  }

  get isUnfinished(): boolean {
    return this.status !== 'complete' && this.status !== 'released';
  }

  releasePayload(): void {
    this.record = null;
    this.value = undefined;
  }
}

/**
 * One invocation of handle / onPermanentFailure / deadLetter; only 'handle' calls hold an execution slot. It
 * is also the handler's context (`attempt`, `signal`): one object per call on the hot path.
 */
export class RecordCall<T> implements HandlerContext {
  /** Created on first read of `signal`, since most handlers never read it; see abortCall. */
  controller: AbortController | null = null;
  /** Set when the call was aborted; a signal created later starts aborted with it. */
  abortReason: Error | null = null;
  /** Set when the record was released while the call ran; see DetachMode. */
  detached: DetachMode | null = null;
  settled = false;

  constructor(
    readonly entry: RecordEntry<T>,
    readonly phase: RecordPhase,
    readonly holdsSlot: boolean,
    /** Partition state generation the call started in; see PartitionState.epoch. */
    readonly epoch: number,
    readonly attempt: number,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      if (this.abortReason !== null) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** The record across partition-state resets and reassignments (a redelivered copy has the same one). */
  get identity(): string {
    return recordIdentity(this.entry.owner, this.entry.offset);
  }
}

export function abortCall<T>(call: RecordCall<T>, reason: Error): void {
  if (call.abortReason !== null) return;
  call.abortReason = reason;
  call.controller?.abort(reason);
}

export function payloadBytes(record: SourceRecord): number {
  let bytes = (record.key?.length ?? 0) + (record.value?.length ?? 0);
  const headers = record.headers;
  for (const name in headers) {
    const header = headers[name];
    bytes += name.length;
    if (typeof header === 'string') bytes += Buffer.byteLength(header, 'utf8');
    else if (header) bytes += header.length;
  }
  return bytes;
}

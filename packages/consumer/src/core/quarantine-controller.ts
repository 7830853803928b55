// Quarantine: a partition stopped at one record no automatic path could finish, until an operator lifts it.
// Holding pauses the partition, seeks the source back to the record, releases every record after it (they
// are delivered again once the hold is lifted) and keeps the record out of every commit; records before it
// keep running, so the commit reaches it. Lifting it (resume: read the record again; skip: complete it
// unprocessed; seek: forget the partition's uncommitted state and read from an offset) seeks the source and
// resumes it. A revoke ends a hold without lifting it (the next owner holds the same record again if it is
// still bad); a rebalance that rewinds a kept partition past the record moves where lifting resumes.
//
// Invariants:
// - While a partition is held the commit never passes the record, the source stays paused, and deliveries
//   of the partition are dropped (the core's admission checks `partition.quarantine`).
// - Every hold reports 'quarantined' and `onQuarantine` once; every end of a hold (lift or revoke) reports
//   'quarantine-cleared' and `onQuarantineCleared` once, with its reason. A callback that throws or rejects
//   is reported ('callback-failed') and changes nothing else.
// - An operator action on a partition that is not owned or not held, or on a fatal core, throws and changes
//   nothing. A failed seek while lifting makes the core fatal and the action throws; the hold is gone, the
//   source stays paused (fatal resumes nothing).

import type { CommitScheduler } from './commit-scheduler.js';
import type { Completion } from './completion.js';
import type { CoreEvents } from './core-events.js';
import { parseOffset } from './offsets.js';
import type { PartitionFlow } from './partition-flow.js';
import type { OwnedPartition, RecordEntry } from './record-entry.js';
import type { RecordRelease } from './record-release.js';
import type { SourceControl } from './source-control.js';
import { formatTopicPartition, topicPartitionKey } from './topic-partition.js';
import type {
  Clock,
  CoreCounters,
  DeadLetterInfo,
  Offset,
  OperatorActionResult,
  QuarantineClearReason,
  QuarantineInfo,
  TopicPartition,
} from './types.js';

/** The host's quarantine callbacks, read at every call. */
export interface QuarantineCallbacks {
  readonly onQuarantine?: ((quarantine: QuarantineInfo) => void | Promise<void>) | undefined;
  readonly onQuarantineCleared?:
    ((tp: TopicPartition, reason: QuarantineClearReason) => void | Promise<void>) | undefined;
}

export interface QuarantinePorts<T> {
  clock: Clock;
  counters: CoreCounters;
  events: CoreEvents;
  callbacks: QuarantineCallbacks;
  status: { readonly fatal: string | null };
  partitions: ReadonlyMap<string, OwnedPartition<T>>;
  release: Pick<RecordRelease<T>, 'releaseFrom' | 'detach'>;
  completion: Pick<Completion<T>, 'complete'>;
  flow: Pick<PartitionFlow, 'update'>;
  sourceControl: Pick<SourceControl, 'seek'>;
  commits: Pick<CommitScheduler, 'schedule'>;
  scheduler: { pump(): void };
}

type HeldPartition<T> = OwnedPartition<T> & { quarantine: NonNullable<OwnedPartition<T>['quarantine']> };

export class QuarantineController<T> {
  private readonly clock: Clock;
  private readonly counters: CoreCounters;
  private readonly events: CoreEvents;
  private readonly callbacks: QuarantineCallbacks;
  private readonly status: { readonly fatal: string | null };
  private readonly partitions: ReadonlyMap<string, OwnedPartition<T>>;
  private readonly release: Pick<RecordRelease<T>, 'releaseFrom' | 'detach'>;
  private readonly completion: Pick<Completion<T>, 'complete'>;
  private readonly flow: Pick<PartitionFlow, 'update'>;
  private readonly sourceControl: Pick<SourceControl, 'seek'>;
  private readonly commits: Pick<CommitScheduler, 'schedule'>;
  private readonly scheduler: { pump(): void };

  constructor(ports: QuarantinePorts<T>) {
    this.clock = ports.clock;
    this.counters = ports.counters;
    this.events = ports.events;
    this.callbacks = ports.callbacks;
    this.status = ports.status;
    this.partitions = ports.partitions;
    this.release = ports.release;
    this.completion = ports.completion;
    this.flow = ports.flow;
    this.sourceControl = ports.sourceControl;
    this.commits = ports.commits;
    this.scheduler = ports.scheduler;
  }

  /** Stops the record's partition at it (see the header). */
  hold(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    const partition = entry.owner;
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    this.release.releaseFrom(partition, entry.offsetValue + 1n, 'quarantine');
    partition.lanes.remove(entry);
    entry.status = 'quarantined';

    const quarantine: QuarantineInfo = {
      topic: partition.topic,
      partition: partition.partition,
      offset: entry.offset,
      reason: info.reason,
      errorClass: info.errorClass,
      sinceMs: this.clock.now(),
      attempts: entry.handleAttempts,
      key: record.key,
      value: record.value,
      headers: { ...record.headers },
      timestampMs: record.timestampMs,
    };
    partition.quarantine = { info: quarantine, entry, resumeFrom: entry.offset };
    this.counters.quarantines++;
    this.flow.update(partition);
    this.sourceControl.seek(partition, entry.offset);
    this.events.emit({ type: 'quarantined', quarantine });
    this.callback('onQuarantine', () => this.callbacks.onQuarantine?.(quarantine));
  }

  /** Operator: retry the quarantined record (it is delivered and admitted again). */
  resume(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireHeld(tp);
    const from = partition.quarantine.resumeFrom;
    this.release.releaseFrom(partition, BigInt(from), 'resume');
    return this.lift(partition, from, 'resumed');
  }

  /** Operator: complete the quarantined record without processing it, so the commit moves past it. */
  skip(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireHeld(tp);
    const { entry, resumeFrom, info } = partition.quarantine;
    let from: Offset;
    if (entry) {
      // Everything after the record was released when it was quarantined.
      this.completion.complete(entry, 'skipped-operator');
      from = (entry.offsetValue + 1n).toString();
      this.release.releaseFrom(partition, entry.offsetValue + 1n, 'skip');
    } else {
      // A rebalance rewound past the record: read again from the rewind point and skip it when it comes.
      partition.remember(info.offset, 'operator');
      from = resumeFrom;
      this.release.releaseFrom(partition, BigInt(from), 'skip');
    }
    return this.lift(partition, from, 'skipped');
  }

  /** Operator: forget the partition's uncommitted state and continue reading at `offset`. */
  seek(tp: TopicPartition, offset: Offset): OperatorActionResult {
    const target = parseOffset(offset);
    if (target === null) throw new RangeError(`not an int64 offset: ${JSON.stringify(offset)}`);
    const partition = this.requireHeld(tp);
    const released = partition.discardAll(target);
    this.release.detach(released, 'ignore', 'partition state discarded by an operator seek');
    return this.lift(partition, target.toString(), 'seeked');
  }

  /** The partition was revoked: a hold there ends, reported with reason 'revoked'. */
  revoked(partition: OwnedPartition<T>): void {
    if (!partition.quarantine) return;
    this.events.emit({ type: 'quarantine-cleared', ...partition.tp, reason: 'revoked', seekOffset: null });
    this.callback('onQuarantineCleared', () => this.callbacks.onQuarantineCleared?.(partition.tp, 'revoked'));
  }

  /** A kept partition was rewound to `rewindPoint`: lifting its hold reads from there if that is earlier. */
  rewound(partition: OwnedPartition<T>, rewindPoint: Offset): void {
    const quarantine = partition.quarantine;
    if (quarantine && BigInt(rewindPoint) < BigInt(quarantine.resumeFrom)) quarantine.resumeFrom = rewindPoint;
  }

  private requireHeld(tp: TopicPartition): HeldPartition<T> {
    const fatal = this.status.fatal;
    if (fatal !== null) throw new Error(`consumer core is fatal (${fatal}); restart it instead`);
    const partition = this.partitions.get(topicPartitionKey(tp));
    if (!partition) throw new Error(`${formatTopicPartition(tp)} is not owned by this consumer`);
    if (!partition.quarantine) throw new Error(`${formatTopicPartition(tp)} is not quarantined`);
    return partition as HeldPartition<T>;
  }

  private lift(
    partition: OwnedPartition<T>,
    seekOffset: Offset,
    action: OperatorActionResult['action'],
  ): OperatorActionResult {
    partition.quarantine = null;
    const reason: QuarantineClearReason = action;
    if (!this.sourceControl.seek(partition, seekOffset)) {
      const fatal = this.status.fatal ?? 'unknown';
      throw new Error(`seek of ${formatTopicPartition(partition)} to ${seekOffset} failed: ${fatal}`);
    }
    this.flow.update(partition);
    this.events.emit({ type: 'quarantine-cleared', ...partition.tp, reason, seekOffset });
    this.callback('onQuarantineCleared', () => this.callbacks.onQuarantineCleared?.(partition.tp, reason));
    this.commits.schedule();
    this.scheduler.pump();
    const fatal = this.status.fatal;
    if (fatal !== null) throw new Error(`resume of ${formatTopicPartition(partition)} failed: ${fatal}`);
    return { topic: partition.topic, partition: partition.partition, action, seekOffset };
  }

  private callback(name: 'onQuarantine' | 'onQuarantineCleared', run: () => void | Promise<void>): void {
    const report = (error: unknown): void => this.events.emit({ type: 'callback-failed', callback: name, error });
    try {
      const result = run();
      if (result && typeof result.then === 'function') result.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}

// The orchestration of the consumer core: it takes the adapter's deliveries and calls (assignment,
// rebalance, commit metadata, operator actions, drain), wires the parts that carry a record from delivery to
// commit, and owns what spans them: the owned partitions, the commit, rebalances, fatal and the snapshot. A
// delivery enters here once: `deliver` checks it and hands it to admission (record-admission.ts) and the
// scheduler (scheduler.ts); from there the parts call each other through narrow ports (README.md, "A record's
// path"). README.md also maps each rule to its code and test.
//
// Guarantees (each has a test):
// - The committed offset never passes a delivered record that is not complete (`nextCommitOffset`).
// - A record is complete only when its handler, its failure result or its dead-letter write resolved, or it
//   was known complete already (commit metadata, an earlier call) or an operator skipped it.
// - A record that fails admission never takes an execution slot. With the 'pause' policy its partition is
//   paused and rewound to it; other partitions keep flowing.
// - Within a lane (partition, key) records start in offset order, one at a time; a record waiting for a
//   retry keeps its lane, so a later record of the same lane never overtakes it. A retry delay holds no
//   execution slot, so retries cannot starve other lanes.
// - Nothing is dropped silently: when the last automatic path (failure result, dead-letter write) fails
//   permanently, the partition is quarantined at that record.
// - A failed pause, resume or seek, or a commit error classified permanent, makes the core fatal: it stops
//   starting work and reports not ready, so it never consumes past input it could not hold back.

import { Backpressure } from './backpressure.js';
import { CallTracker } from './call-tracker.js';
import { describeError } from './classify-error.js';
import { CommitScheduler } from './commit-scheduler.js';
import { Completion } from './completion.js';
import { resolveCoreSettings, type ConsumerCoreOptions, type CoreSettings } from './consumer-core-options.js';
import { zeroCounters } from './core-counters.js';
import { CoreEvents } from './core-events.js';
import { CoreStatus } from './core-status.js';
import { FailurePaths } from './failure-paths.js';
import { classifyFailure, routeFailure, type RoutingPolicy } from './failure-routing.js';
import { decodeCompletedAbove, parseOffset } from './offsets.js';
import { PartitionFlow } from './partition-flow.js';
import { PartitionState, type CommitCandidate } from './partition-state.js';
import { QuarantineController } from './quarantine-controller.js';
import { RecordAdmission, type DeliverResult } from './record-admission.js';
import type { OwnedPartition, RecordEntry } from './record-entry.js';
import { RecordRelease } from './record-release.js';
import { Scheduler } from './scheduler.js';
import { SourceControl } from './source-control.js';
import { StallWatch } from './stall-watch.js';
import { formatTopicPartition, topicPartitionKey } from './topic-partition.js';
import type {
  Clock,
  CommitRequest,
  CoreCounters,
  CoreSnapshot,
  CoreState,
  DrainResult,
  DropReason,
  Offset,
  OperatorActionResult,
  PartitionSnapshot,
  SourcePort,
  SourceRecord,
  StallInfo,
  TopicPartition,
  WorkProgress,
} from './types.js';

export type { ConsumerCoreOptions } from './consumer-core-options.js';
export type { DeliverResult } from './record-admission.js';

export class ConsumerCore<T> {
  private readonly source: SourcePort;
  private readonly clock: Clock;
  private readonly settings: CoreSettings;
  private readonly routing: RoutingPolicy;
  private readonly status = new CoreStatus();
  private readonly events: CoreEvents;
  private readonly counters: CoreCounters = zeroCounters();
  private readonly calls: CallTracker<T>;
  private readonly sourceControl: SourceControl;
  private readonly commits: CommitScheduler;
  private readonly stallWatch: StallWatch<T>;
  private readonly flow: PartitionFlow;
  private readonly release: RecordRelease<T>;
  private readonly completion: Completion<T>;
  private readonly scheduler: Scheduler<T>;
  private readonly quarantines: QuarantineController<T>;
  private readonly admission: RecordAdmission<T>;

  private readonly partitions = new Map<string, OwnedPartition<T>>();

  constructor(options: ConsumerCoreOptions<T>) {
    const settings = resolveCoreSettings(options);
    this.settings = settings;
    this.source = options.source;
    this.clock = options.clock;
    const { clock, counters, status, partitions } = this;
    const events = new CoreEvents(options);
    this.events = events;
    const routing: RoutingPolicy = {
      quarantinePolicy: settings.quarantinePolicy,
      hasFailureResult: options.onPermanentFailure !== undefined,
      hasDeadLetter: options.deadLetter !== undefined,
      retry: settings.retry,
      random: options.random,
    };
    this.routing = routing;
    const calls = new CallTracker<T>(clock);
    this.calls = calls;
    const sourceControl = new SourceControl(
      this.source,
      routing,
      { isFatal: () => status.fatal !== null, setFatal: (reason) => this.setFatal(reason) },
      (event) => events.emit(event),
    );
    this.sourceControl = sourceControl;
    const commits = new CommitScheduler(
      clock,
      settings.commitIntervalMs,
      () => this.commitOnce(),
      (err) => this.setFatal(`commit bookkeeping failed: ${describeError(err)}`),
    );
    this.commits = commits;
    const backpressure = new Backpressure(settings.maxPendingPerPartition, settings.maxBufferedBytesPerPartition);
    const flow = new PartitionFlow({ backpressure, sourceControl, commits, events });
    this.flow = flow;
    const release = new RecordRelease<T>({ clock, calls, counters, events });
    this.release = release;
    const completion = new Completion<T>({ clock, counters, events, flow, commits });
    this.completion = completion;

    // The record's path: admission, scheduler, then completion or the failure paths (and quarantine). The
    // failure paths start calls through the scheduler, so the scheduler is connected to them once both exist.
    const scheduler = new Scheduler<T>({ clock, calls, status, settings, work: options, completion });
    this.scheduler = scheduler;
    const quarantines = new QuarantineController<T>({
      clock,
      counters,
      events,
      callbacks: options,
      status,
      partitions,
      release,
      completion,
      flow,
      sourceControl,
      commits,
      scheduler,
    });
    this.quarantines = quarantines;
    const classifyError = settings.classifyError;
    const failures = new FailurePaths<T>({
      clock,
      routing,
      classifyError,
      counters,
      events,
      status,
      release,
      scheduler,
      quarantines,
    });
    scheduler.connect(failures);
    this.admission = new RecordAdmission<T>({
      host: options,
      ordering: settings.ordering,
      counters,
      events,
      completion,
      failures,
    });
    this.stallWatch = new StallWatch<T>(
      clock,
      {
        thresholdMs: settings.stallThresholdMs,
        deadLetterAfterMs: settings.stallDeadLetterAfterMs,
        checkIntervalMs: settings.stallCheckIntervalMs,
      },
      () => partitions.values(),
      (entry, ageMs) => failures.deadLetterStalled(entry, ageMs),
    );
  }

  // --- state -----------------------------------------------------------------------------------------

  isFatal(): boolean {
    return this.status.fatal !== null;
  }

  get fatalReason(): string | null {
    return this.status.fatal;
  }

  get state(): CoreState {
    return this.status.state;
  }

  owns(tp: TopicPartition): boolean {
    return this.partitions.has(topicPartitionKey(tp));
  }

  /** Paused for backpressure only (not quarantined): it resumes as soon as a commit frees its budget. */
  isBackpressured(tp: TopicPartition): boolean {
    const partition = this.partitions.get(topicPartitionKey(tp));
    return partition !== undefined && partition.backpressured && partition.quarantine === null;
  }

  private setFatal(reason: string): void {
    if (this.status.fatal !== null) return;
    this.status.fatal = reason;
    // Only explicit commitNow() calls (drain) commit from here on; the completed prefix is still safe.
    this.commits.stopAutomatic();
    this.stallWatch.stop();
    this.events.emit({ type: 'fatal', reason });
  }

  // --- delivery --------------------------------------------------------------------------------------

  /**
   * Takes one partition's batch (ascending offsets). Offsets below the read position are ignored. The first
   * record failing admission stops the batch: with 'pause' the partition is quarantined at it and the rest of
   * the batch is dropped (it will be delivered again after the quarantine is lifted). `logEndOffset` is the
   * partition's log end (high watermark) when the source fetched the batch, if it knows it: once every record
   * up to it completed, the commit goes on the next timer turn instead of at the next interval.
   */
  deliver(records: readonly SourceRecord[], logEndOffset?: Offset): DeliverResult {
    const result: DeliverResult = { accepted: 0, ignored: 0, dropped: 0 };
    const first = records[0];
    if (!first) return result;
    for (const record of records) {
      if (record.topic !== first.topic || record.partition !== first.partition) {
        throw new Error('deliver() takes records of one partition per call');
      }
    }
    const offsetValues: bigint[] = new Array<bigint>(records.length);
    let ascending = true;
    for (let index = 0; index < records.length; index++) {
      const record = records[index]!;
      const offsetValue = parseOffset(record.offset);
      if (offsetValue === null) throw new RangeError(`record offset is not an int64 offset: ${record.offset}`);
      offsetValues[index] = offsetValue;
      if (index > 0 && offsetValue < offsetValues[index - 1]!) ascending = false;
    }
    const logEnd = logEndOffset === undefined ? null : parseOffset(logEndOffset);
    if (logEndOffset !== undefined && logEnd === null) {
      throw new RangeError(`log end offset is not an int64 offset: ${logEndOffset}`);
    }
    // Sources deliver ascending batches; sorting is the fallback, not the path.
    const order = ascending ? null : sortedOrder(offsetValues);

    const partition = this.partitions.get(topicPartitionKey(first));
    const dropReason = this.dropReasonFor(partition);
    if (dropReason !== null || !partition) {
      this.admission.drop(first, records.length, dropReason ?? 'not-owned', result);
      return result;
    }

    if (logEnd !== null) partition.reportLogEnd(logEnd);
    this.admission.take(partition, records, offsetValues, order, this.clock.now(), result);
    this.flow.update(partition);
    this.stallWatch.ensureRunning();
    this.scheduler.pump();
    return result;
  }

  private dropReasonFor(partition: OwnedPartition<T> | undefined): DropReason | null {
    if (this.status.fatal !== null) return 'fatal';
    if (this.status.closed || this.status.draining) return 'draining';
    if (this.status.rebalancing) return 'rebalancing';
    if (!partition) return 'not-owned';
    if (partition.quarantine) return 'quarantined';
    return null;
  }

  // --- operator actions (quarantine-controller.ts) -------------------------------------------------------

  /** Operator: retry the quarantined record (it is delivered and admitted again). */
  resumeQuarantined(tp: TopicPartition): OperatorActionResult {
    return this.quarantines.resume(tp);
  }

  /**
   * Operator: mark the quarantined record complete without processing it (the adapter copies it to the DLQ
   * first if configured) so the commit moves past it; reading continues after it.
   */
  skipQuarantined(tp: TopicPartition): OperatorActionResult {
    return this.quarantines.skip(tp);
  }

  /** Operator: forget the partition's uncommitted state and continue reading at `offset`. */
  seekQuarantined(tp: TopicPartition, offset: Offset): OperatorActionResult {
    return this.quarantines.seek(tp, offset);
  }

  // --- commits -----------------------------------------------------------------------------------------

  /**
   * Records the committed offset and metadata the adapter read after assignment. Offsets listed as complete
   * in the metadata complete without handling when delivered. Returns how many offsets were remembered.
   * `committedOffset` null (or "-1") means the group has no commit for the partition.
   */
  setCommittedMetadata(tp: TopicPartition, committedOffset: Offset | null, metadata: string | null): number {
    const partition = this.partitions.get(topicPartitionKey(tp));
    if (!partition) throw new Error(`${formatTopicPartition(tp)} is not owned by this consumer`);
    if (committedOffset === null || committedOffset === '-1') return 0;
    const committedValue = parseOffset(committedOffset);
    if (committedValue === null) throw new RangeError(`not an int64 offset: ${JSON.stringify(committedOffset)}`);
    if (partition.committed === null) partition.committed = { offset: committedValue.toString(), metadata };
    if (partition.pending === 0) partition.raiseFloor(committedValue);
    const completedAbove = decodeCompletedAbove(committedValue.toString(), metadata);
    for (const offset of completedAbove) partition.remember(offset, 'metadata');
    this.scheduler.pump();
    return completedAbove.size;
  }

  /**
   * Commits every partition whose commit position or completed-above metadata changed since the broker last
   * acknowledged it. Serialised: concurrent calls queue behind each other. Never rejects: failures are
   * reported as events, retried at the next interval, and make the core fatal when classified permanent.
   */
  commitNow(): Promise<void> {
    return this.commits.commitNow();
  }

  private async commitOnce(): Promise<'committed' | 'failed' | 'nothing-to-commit'> {
    const batch: Array<{ partition: OwnedPartition<T>; epoch: number; candidate: CommitCandidate }> = [];
    for (const partition of this.partitions.values()) {
      const candidate = partition.commitCandidate(this.settings.metadataMaxBytes);
      if (candidate) batch.push({ partition, epoch: partition.epoch, candidate });
    }
    if (batch.length === 0) return 'nothing-to-commit';
    for (const { candidate } of batch) {
      if (candidate.metadataOverflow) {
        const { topic, partition, offset } = candidate.request;
        this.events.emit({ type: 'metadata-overflow', topic, partition, offset });
      }
    }
    const requests: CommitRequest[] = batch.map(({ candidate }) => candidate.request);
    const startedAtMs = this.clock.now();
    try {
      await this.source.commit(requests);
    } catch (error) {
      this.counters.commitFailures++;
      const errorClass = classifyFailure(this.settings.classifyCommitError, error);
      this.events.emit({
        type: 'commit-failed',
        requests,
        error,
        errorClass,
        durationMs: this.clock.now() - startedAtMs,
      });
      const route = routeFailure({ phase: 'commit', errorClass }, this.routing);
      switch (route.action) {
        case 'retry-at-interval':
          // The scheduler retries one interval after this attempt started.
          break;
        case 'fatal':
          this.setFatal(`commit failed permanently: ${describeError(error)}`);
          break;
      }
      return 'failed';
    }
    this.counters.commits++;
    for (const { partition, epoch, candidate } of batch) {
      // Revoked partitions and partitions an operator re-seeked meanwhile keep no trace of this commit.
      if (this.partitions.get(partition.key) !== partition || partition.epoch !== epoch) continue;
      partition.acknowledgeCommit(candidate.request);
      this.flow.update(partition);
    }
    this.events.emit({ type: 'committed', requests, durationMs: this.clock.now() - startedAtMs });
    return 'committed';
  }

  // --- rebalance ---------------------------------------------------------------------------------------

  /** Stops starting work and commits what is complete, before the partitions are handed over. */
  onRebalanceStart(): Promise<void> {
    this.scheduler.flushBatch();
    this.status.rebalancing = true;
    return this.commitNow();
  }

  /**
   * Applies the new assignment. Revoked partitions lose all state: nothing more is committed for them and
   * their running calls are aborted and ignored when they settle. Kept partitions are rewound to their commit
   * point, because the source restarts there after a rebalance: uncommitted records are redelivered, those
   * already complete (or completing) are remembered and not run again. A kept quarantine stays.
   */
  onAssignment(assigned: readonly TopicPartition[]): void {
    this.scheduler.flushBatch();
    const wanted = new Map(assigned.map((tp) => [topicPartitionKey(tp), tp] as const));
    for (const partition of [...this.partitions.values()]) {
      if (!wanted.has(partition.key)) this.revoke(partition);
    }
    for (const [key, tp] of wanted) {
      const kept = this.partitions.get(key);
      if (kept) this.rewindKept(kept);
      else this.partitions.set(key, new PartitionState<RecordEntry<T>>(tp.topic, tp.partition));
    }
    this.scheduler.assign([...this.partitions.values()]);
    this.status.rebalancing = false;
    this.scheduler.pump();
  }

  /** The scheduler skips a revoked partition until the assignment's new order replaces it. */
  private revoke(partition: OwnedPartition<T>): void {
    partition.revoked = true;
    this.partitions.delete(partition.key);
    const { released } = partition.releaseFrom(null, false);
    this.release.detach(released, 'ignore', `${formatTopicPartition(partition)} was revoked`);
    // The kafkajs pause state outlives the assignment; a later reassignment must not start paused.
    this.sourceControl.release(partition);
    this.quarantines.revoked(partition);
  }

  private rewindKept(partition: OwnedPartition<T>): void {
    const rewindPoint = partition.rewindPoint();
    if (rewindPoint !== null) {
      this.release.releaseFrom(partition, BigInt(rewindPoint), 'rebalance');
      this.quarantines.rewound(partition, rewindPoint);
    }
    this.flow.update(partition);
  }

  // --- stalls ------------------------------------------------------------------------------------------

  /** Partitions whose oldest unfinished record was delivered more than stallThresholdMs ago. */
  stalls(nowMs: number = this.clock.now()): StallInfo[] {
    return this.stallWatch.stalls(nowMs);
  }

  // --- shutdown ----------------------------------------------------------------------------------------

  /**
   * Stops starting work (retry delays are not waited for), waits for running calls up to `timeoutMs`
   * (measured on the injected clock), aborts what still runs, commits what completed, and closes: no more
   * timers, no more deliveries. Call before the source's stop(): commits fail after it.
   */
  async drain(timeoutMs: number): Promise<DrainResult> {
    this.status.draining = true;
    // Records already started in a forming batch run now; drain waits for them like for any call.
    this.scheduler.flushBatch();
    const timedOut = await this.calls.waitForIdle(timeoutMs);
    const abandonedCalls = this.calls.running;
    this.calls.abortAll(this.deliveredEntries(), new Error('drain deadline passed'));
    await this.commitNow();
    this.close();
    return { timedOut, abandonedCalls };
  }

  private *deliveredEntries(): Generator<RecordEntry<T>> {
    for (const partition of this.partitions.values()) yield* partition.delivered;
  }

  private close(): void {
    this.status.closed = true;
    this.scheduler.stop();
    this.commits.stopAutomatic();
    this.stallWatch.stop();
    for (const entry of this.deliveredEntries()) this.release.cancelRetry(entry);
  }

  // --- observation -------------------------------------------------------------------------------------

  snapshot(): CoreSnapshot {
    const nowMs = this.clock.now();
    const partitions: PartitionSnapshot[] = [];
    for (const partition of this.partitions.values())
      partitions.push(partition.snapshot(nowMs, this.settings.metadataMaxBytes));
    return {
      nowMs,
      state: this.state,
      fatalReason: this.status.fatal,
      inFlight: this.calls.slotsInUse,
      partitions,
      counters: { ...this.counters },
    };
  }

  /** What readiness needs to tell held-but-stuck work from idleness; walks every tracked record. */
  workProgress(): WorkProgress {
    let heldRecords = 0;
    let heldSinceMs: number | null = null;
    for (const partition of this.partitions.values()) {
      if (partition.quarantine !== null) continue;
      const oldest = partition.oldestUnfinished();
      if (!oldest) continue;
      heldRecords += partition.unfinishedCount();
      if (heldSinceMs === null || oldest.deliveredAtMs < heldSinceMs) heldSinceMs = oldest.deliveredAtMs;
    }
    return { heldRecords, heldSinceMs, lastCompletedAtMs: this.completion.lastCompletedAtMs };
  }
}

/** Positions of `values` in ascending order (stable). */
function sortedOrder(values: readonly bigint[]): number[] {
  return values
    .map((_, index) => index)
    .sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
}

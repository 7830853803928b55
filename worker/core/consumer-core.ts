// The engine: admits delivered records, runs them under ordering and concurrency budgets, routes failures
// to the path that can finish them, commits the completed prefix, and isolates a broken partition.
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
//   starting work and reports not ready (seed 000: do not keep consuming past undecided input).
//
// Failure behaviour of calls: each call (handle, onPermanentFailure, deadLetter) is classified; transient
// failures are retried in place after a full-jitter backoff; permanent ones move the record to the next path.

import { backoffDelayMs } from './backoff';
import { describeError } from './classify-error';
import { CommitScheduler } from './commit-scheduler';
import { resolveCoreSettings, type ConsumerCoreOptions, type CoreSettings } from './consumer-core-options';
import { SOLO_LANE, type LaneKey } from './lane-table';
import { decodeCompletedAbove, parseOffset } from './offsets';
import { PartitionState, type CommitCandidate } from './partition-state';
import { abortCall, payloadBytes, RecordCall, RecordEntry, type DetachMode } from './record-entry';
import { formatTopicPartition, recordIdentity, topicPartitionKey } from './topic-partition';
import type {
  Admission,
  Clock,
  CommitRequest,
  CompletionOutcome,
  CoreCounters,
  CoreEvent,
  CoreSnapshot,
  CoreState,
  DeadLetterInfo,
  DrainResult,
  DropReason,
  ErrorClass,
  Offset,
  OperatorActionResult,
  PartitionSnapshot,
  QuarantineClearReason,
  QuarantineInfo,
  Random,
  RecordPhase,
  RedeliveryReason,
  SkipOrigin,
  SourcePort,
  SourceRecord,
  StallInfo,
  TimerHandle,
  TopicPartition,
} from './types';

export type { ConsumerCoreOptions } from './consumer-core-options';

export interface DeliverResult {
  accepted: number;
  /** Already delivered or below the current read position (redelivered copies). */
  ignored: number;
  /** Not taken because of the partition's or the core's state; the source will deliver them again. */
  dropped: number;
}

export class ConsumerCore<T> {
  private readonly source: SourcePort;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly options: ConsumerCoreOptions<T>;
  private readonly settings: CoreSettings;
  private readonly commits: CommitScheduler;

  private readonly partitions = new Map<string, PartitionState<T>>();
  /** The partitions in a stable order for round-robin scheduling; rebuilt only when the assignment changes. */
  private partitionOrder: PartitionState<T>[] = [];
  /** Calls running (attached or detached); drain waits for them. */
  private runningCalls = 0;
  /**
   * Running calls whose record was released (see detach), by record identity: a redelivered copy must not run
   * concurrently with its original. Only a released record can be delivered again, so calls that were never
   * detached need no entry here (and the hot path builds no identity string).
   */
  private readonly detachedIdentities = new Map<string, number>();
  private readonly detachedCalls = new Set<RecordCall<T>>();
  private slotsInUse = 0;

  private rebalancing = false;
  private draining = false;
  private closed = false;
  private fatal: string | null = null;

  private stallTimer: TimerHandle | null = null;
  private idleWaiters: Array<() => void> = [];

  private roundRobin = 0;
  private pumping = false;
  private pumpRequested = false;

  private readonly counters: CoreCounters = zeroCounters();

  constructor(options: ConsumerCoreOptions<T>) {
    this.settings = resolveCoreSettings(options);
    this.options = options;
    this.source = options.source;
    this.clock = options.clock;
    this.random = options.random;
    this.commits = new CommitScheduler(
      this.clock,
      this.settings.commitIntervalMs,
      () => this.commitOnce(),
      (err) => this.setFatal(`commit bookkeeping failed: ${describeError(err)}`),
    );
  }

  // --- state -----------------------------------------------------------------------------------------

  isFatal(): boolean {
    return this.fatal !== null;
  }

  get fatalReason(): string | null {
    return this.fatal;
  }

  get state(): CoreState {
    if (this.fatal !== null) return 'fatal';
    if (this.closed) return 'closed';
    if (this.draining) return 'draining';
    if (this.rebalancing) return 'rebalancing';
    return 'running';
  }

  owns(tp: TopicPartition): boolean {
    return this.partitions.has(topicPartitionKey(tp));
  }

  /** Paused for backpressure only (not quarantined): it resumes as soon as a commit frees its budget. */
  isBackpressured(tp: TopicPartition): boolean {
    const partition = this.partitions.get(topicPartitionKey(tp));
    return partition !== undefined && partition.backpressured && partition.quarantine === null;
  }

  private get admitting(): boolean {
    return this.fatal === null && !this.closed && !this.draining && !this.rebalancing;
  }

  // --- delivery and admission --------------------------------------------------------------------------

  /**
   * Takes one partition's batch (ascending offsets). Offsets below the read position are ignored. The first
   * record failing admission stops the batch: with 'pause' the partition is quarantined at it and the rest of
   * the batch is dropped (it will be delivered again after the quarantine is lifted).
   */
  deliver(records: readonly SourceRecord[]): DeliverResult {
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
    // Sources deliver ascending batches; sorting is the fallback, not the path.
    const order = ascending ? null : sortedOrder(offsetValues);

    const partition = this.partitions.get(topicPartitionKey(first));
    const dropReason = this.dropReasonFor(partition);
    if (dropReason !== null || !partition) {
      this.dropDelivery(first, records.length, dropReason ?? 'not-owned', result);
      return result;
    }

    const deliveredAtMs = this.clock.now();
    for (let index = 0; index < records.length; index++) {
      const position = order === null ? index : order[index]!;
      const record = records[position]!;
      const offsetValue = offsetValues[position]!;
      if (partition.quarantine) {
        this.dropDelivery(first, records.length - index, 'quarantined', result);
        break;
      }
      if (!partition.accepts(offsetValue)) {
        result.ignored++;
        continue;
      }
      const entry = new RecordEntry<T>(
        partition,
        record,
        record.offset,
        offsetValue,
        deliveredAtMs,
        payloadBytes(record),
      );
      partition.append(entry);
      result.accepted++;

      const knownComplete = partition.skip.size > 0 ? partition.skip.get(entry.offset) : undefined;
      if (knownComplete !== undefined) {
        partition.skip.delete(entry.offset);
        this.completeEntry(entry, skipOutcome(knownComplete));
        continue;
      }
      this.admitEntry(partition, entry, record);
    }
    this.updateBackpressure(partition);
    this.ensureStallTimer();
    this.pump();
    return result;
  }

  private dropReasonFor(partition: PartitionState<T> | undefined): DropReason | null {
    if (this.fatal !== null) return 'fatal';
    if (this.closed || this.draining) return 'draining';
    if (this.rebalancing) return 'rebalancing';
    if (!partition) return 'not-owned';
    if (partition.quarantine) return 'quarantined';
    return null;
  }

  private dropDelivery(tp: TopicPartition, count: number, reason: DropReason, result: DeliverResult): void {
    result.dropped += count;
    this.counters.droppedDeliveries += count;
    this.emit({ type: 'batch-dropped', topic: tp.topic, partition: tp.partition, count, reason });
  }

  private admitEntry(partition: PartitionState<T>, entry: RecordEntry<T>, record: SourceRecord): void {
    let admission: Admission<T>;
    try {
      admission = this.options.admit(record);
    } catch (err) {
      admission = { ok: false, reason: `admission threw: ${describeError(err)}`, errorClass: 'admission-error' };
    }
    if (admission.ok) {
      entry.value = admission.value;
      partition.lanes.enqueue(this.laneKeyFor(admission.orderingKey), entry);
      return;
    }
    this.counters.admissionFailures++;
    this.emit({
      type: 'admission-failed',
      ...refOf(entry),
      reason: admission.reason,
      errorClass: admission.errorClass,
    });
    const info = { errorClass: admission.errorClass, reason: admission.reason, attempts: 0 };
    if (this.settings.quarantinePolicy === 'dead-letter') this.startDeadLetter(entry, info);
    else this.quarantineAt(entry, info);
  }

  /**
   * 'key': one lane per ordering key; records without a key share one lane of their own per partition, so
   * they keep their relative order without blocking keyed records. 'partition': one lane. 'unordered': a
   * lane per record.
   */
  private laneKeyFor(orderingKey: string | null): LaneKey | typeof SOLO_LANE {
    switch (this.settings.ordering) {
      case 'partition':
        return '';
      case 'unordered':
        return SOLO_LANE;
      case 'key':
        return orderingKey;
    }
  }

  // --- scheduling ----------------------------------------------------------------------------------------

  /**
   * Starts waiting lane heads while the global and per-partition budgets allow, one per partition per round
   * (round robin), so one busy partition cannot take every slot first.
   */
  private pump(): void {
    if (this.pumping) {
      this.pumpRequested = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpRequested = false;
        this.pumpOnce();
      } while (this.pumpRequested);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    if (!this.admitting) return;
    // Runs after every completion: it allocates nothing per partition, and stops as soon as no slot is free
    // (heads known complete from commit metadata are then taken by the pump that follows the next completion).
    const partitions = this.partitionOrder;
    if (partitions.length === 0) return;
    let progressed = true;
    while (progressed && this.slotsInUse < this.settings.maxInFlight) {
      progressed = false;
      for (let index = 0; index < partitions.length && this.slotsInUse < this.settings.maxInFlight; index++) {
        const partition = partitions[(this.roundRobin + index) % partitions.length]!;
        if (partition.revoked) continue;
        if (this.startNext(partition)) progressed = true;
        if (!this.admitting) return;
      }
      this.roundRobin = (this.roundRobin + 1) % partitions.length;
    }
  }

  private startNext(partition: PartitionState<T>): boolean {
    if (partition.inFlight >= this.settings.maxInFlightPerPartition && partition.skip.size === 0) return false;
    this.scanning = partition;
    const head = partition.lanes.takeReadyHead(this.acceptReadyHead);
    this.scanning = null;
    if (head === undefined) return false;
    const knownComplete = partition.skip.size > 0 ? partition.skip.get(head.offset) : undefined;
    if (knownComplete !== undefined) {
      partition.skip.delete(head.offset);
      this.completeEntry(head, skipOutcome(knownComplete));
    } else {
      this.startHandle(head);
    }
    return true;
  }

  /** The partition startNext scans; acceptReadyHead reads it (one function for all scans: no closure per call). */
  private scanning: PartitionState<T> | null = null;

  private readonly acceptReadyHead = (candidate: RecordEntry<T>): boolean | 'stop' => {
    const partition = this.scanning!;
    if (partition.skip.size > 0 && partition.skip.has(candidate.offset)) return true;
    if (this.slotsInUse >= this.settings.maxInFlight || partition.inFlight >= this.settings.maxInFlightPerPartition)
      return 'stop';
    // An earlier call for this very record (revoked, then redelivered) must settle before it runs again.
    return (
      this.detachedIdentities.size === 0 || !this.detachedIdentities.has(recordIdentity(partition, candidate.offset))
    );
  };

  private startHandle(entry: RecordEntry<T>): void {
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.handleAttempts++;
    entry.firstStartedAtMs ??= this.clock.now();
    const call = this.beginCall(entry, 'handle', true, entry.handleAttempts);
    let running: Promise<void>;
    try {
      running = this.options.handle(entry.value as T, record, call);
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
  }

  /** Failure paths run as soon as they are decided and hold no execution slot; they stay in the record's lane. */
  private startFailurePath(entry: RecordEntry<T>): void {
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    entry.status = 'running';
    entry.phaseAttempts++;
    const call = this.beginCall(entry, entry.phase, false, entry.phaseAttempts);
    let running: Promise<void>;
    try {
      if (entry.phase === 'permanent-failure') {
        running = this.options.onPermanentFailure!(entry.value as T, record, entry.failure?.error);
      } else {
        running = this.options.deadLetter!(record, { ...entry.deadLetterInfo! });
      }
    } catch (err) {
      running = Promise.reject(err);
    }
    this.awaitCall(call, running);
  }

  private beginCall(entry: RecordEntry<T>, phase: RecordPhase, holdsSlot: boolean, attempt: number): RecordCall<T> {
    const call = new RecordCall<T>(entry, phase, holdsSlot, entry.owner.epoch, attempt);
    entry.call = call;
    this.runningCalls++;
    if (holdsSlot) {
      this.slotsInUse++;
      entry.owner.inFlight++;
    }
    return call;
  }

  /**
   * Settles the call when `running` does; a port returning a non-promise settles on the next microtask.
   * (`then` with two closures measured faster than an async wrapper awaiting the call.)
   */
  private awaitCall(call: RecordCall<T>, running: Promise<void>): void {
    Promise.resolve(running).then(
      () => this.settle(call, true, undefined),
      (err: unknown) => this.settle(call, false, err),
    );
  }

  private endCall(call: RecordCall<T>): void {
    if (call.settled) return;
    call.settled = true;
    this.runningCalls--;
    if (call.detached !== null) {
      this.detachedCalls.delete(call);
      const identity = call.identity;
      const remaining = (this.detachedIdentities.get(identity) ?? 1) - 1;
      if (remaining > 0) this.detachedIdentities.set(identity, remaining);
      else this.detachedIdentities.delete(identity);
    }
    if (call.holdsSlot) {
      this.slotsInUse--;
      call.entry.owner.inFlight--;
    }
    if (call.entry.call === call) call.entry.call = null;
  }

  private detach(call: RecordCall<T>, mode: DetachMode, abortReason: string | null): void {
    if (call.detached === null && !call.settled) {
      this.detachedCalls.add(call);
      const identity = call.identity;
      this.detachedIdentities.set(identity, (this.detachedIdentities.get(identity) ?? 0) + 1);
    }
    call.detached = mode;
    if (call.entry.call === call) call.entry.call = null;
    if (abortReason !== null) abortCall(call, new Error(abortReason));
  }

  private settle(call: RecordCall<T>, ok: boolean, error: unknown): void {
    this.endCall(call);
    const { entry } = call;
    if (call.detached !== null) {
      this.settleDetached(call, ok);
    } else if (ok) {
      this.completeEntry(entry, outcomeOf(call.phase));
    } else {
      this.onCallFailed(entry, call.phase, error);
    }
    this.notifyIfIdle();
    this.pump();
  }

  /** A call whose record was released finished. Only a success of a still-current partition is kept. */
  private settleDetached(call: RecordCall<T>, ok: boolean): void {
    const { entry } = call;
    const owner = entry.owner;
    const current = this.partitions.get(owner.key) === owner && owner.epoch === call.epoch;
    if (ok && call.detached === 'remember' && current) {
      owner.remember(entry.offset, 'completed');
      this.scheduleCommit();
      return;
    }
    this.emit({ type: 'late-completion-ignored', ...refOf(entry), phase: call.phase });
  }

  // --- completion and failure paths --------------------------------------------------------------------

  private completeEntry(entry: RecordEntry<T>, outcome: CompletionOutcome): void {
    if (!entry.owner.complete(entry)) return;
    this.counters.completed++;
    switch (outcome) {
      case 'handled':
        this.counters.handled++;
        break;
      case 'dead-lettered':
        this.counters.deadLettered++;
        break;
      case 'skipped-metadata':
        this.counters.skippedFromMetadata++;
        break;
      case 'skipped-completed':
        this.counters.skippedCompleted++;
        break;
      case 'skipped-operator':
        this.counters.skippedByOperator++;
        break;
      case 'failed-result':
        break;
    }
    const owner = entry.owner;
    this.emit({
      type: 'completed',
      topic: owner.topic,
      partition: owner.partition,
      offset: entry.offset,
      outcome,
      attempts: entry.handleAttempts,
    });
    this.updateBackpressure(owner);
    // The pending budget frees only when the broker acknowledges a commit. Waiting for the interval idled
    // paused partitions (the side-by-side benchmark's throughput cap), and a partition that fills its budget
    // within one interval paused on every interval (seed 001's paced run: 170 ms median latency instead of
    // 32). So from half the budget on, commit on the next timer turn, if the commit would release anything.
    if ((owner.backpressured || owner.pending >= this.settings.maxPendingPerPartition / 2) && owner.prefixCompleted) {
      this.commits.expedite();
    } else {
      this.scheduleCommit();
    }
    // No pump here: every caller pumps once it is done (one pump per completion, not two).
  }

  private onCallFailed(entry: RecordEntry<T>, phase: RecordPhase, error: unknown): void {
    let errorClass: ErrorClass;
    try {
      errorClass = this.settings.classifyError(error);
    } catch {
      errorClass = 'permanent';
    }
    if (errorClass === 'transient') {
      this.scheduleRetry(entry, error);
      return;
    }
    this.emit({ type: 'permanent-failure', ...refOf(entry), phase, error });
    const reason = describeError(error);
    switch (phase) {
      case 'handle':
        this.counters.permanentFailures++;
        entry.failure = { error, reason };
        if (this.options.onPermanentFailure) {
          entry.phase = 'permanent-failure';
          entry.phaseAttempts = 0;
          this.startFailurePath(entry);
        } else {
          this.finishUndeliverable(entry, `handler failed permanently: ${reason}`);
        }
        return;
      case 'permanent-failure':
        this.finishUndeliverable(
          entry,
          `failure result could not be delivered: ${reason} (handler: ${entry.failure?.reason ?? 'unknown'})`,
        );
        return;
      case 'dead-letter':
        this.quarantineAt(entry, {
          errorClass: entry.deadLetterInfo?.errorClass ?? 'permanent',
          reason: `dead-letter write failed permanently: ${reason} (${entry.deadLetterInfo?.reason ?? 'no reason'})`,
          attempts: entry.handleAttempts,
        });
        return;
    }
  }

  /** An admitted record whose outcome cannot be published: the quarantine policy decides. */
  private finishUndeliverable(entry: RecordEntry<T>, reason: string): void {
    const info = { errorClass: 'permanent', reason, attempts: entry.handleAttempts };
    if (this.settings.quarantinePolicy === 'dead-letter') this.startDeadLetter(entry, info);
    else this.quarantineAt(entry, info);
  }

  private startDeadLetter(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    entry.phase = 'dead-letter';
    entry.phaseAttempts = 0;
    entry.deadLetterInfo = info;
    this.startFailurePath(entry);
  }

  private scheduleRetry(entry: RecordEntry<T>, error: unknown): void {
    const attempt = entry.phase === 'handle' ? entry.handleAttempts : entry.phaseAttempts;
    const delayMs = backoffDelayMs(attempt, this.settings.retry, this.random);
    entry.status = 'retry-wait';
    this.counters.retries++;
    this.emit({ type: 'retry-scheduled', ...refOf(entry), phase: entry.phase, attempt, delayMs, error });
    if (this.closed) return;
    // A first retry that drew no delay runs now: a timer would still hold the lane for a timer turn, and every
    // record behind it in its lane with it (seed 001's latency). Later retries always go through the clock, so
    // a handler failing on every attempt (with baseMs 0, say) cannot keep the event loop from turning.
    if (delayMs === 0 && attempt === 1) {
      this.onRetryDue(entry);
      return;
    }
    entry.retryTimer = this.clock.setTimeout(() => this.onRetryDue(entry), delayMs);
  }

  private onRetryDue(entry: RecordEntry<T>): void {
    entry.retryTimer = null;
    if (entry.status !== 'retry-wait' || this.partitions.get(entry.owner.key) !== entry.owner) return;
    if (entry.phase === 'handle') {
      entry.status = 'buffered';
      entry.owner.lanes.headChanged(entry);
      this.pump();
    } else {
      this.startFailurePath(entry);
    }
  }

  // --- quarantine --------------------------------------------------------------------------------------

  /**
   * Stops the partition at `entry`: pause, rewind the source to it, release everything after it (redelivered
   * after the quarantine is lifted), keep it out of every commit. Records before it keep running, so the
   * commit can reach it.
   */
  private quarantineAt(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    const partition = entry.owner;
    const record = entry.record;
    if (!record) throw new Error(`record ${entry.offset} has no payload`);
    this.releaseFrom(partition, entry.offsetValue + 1n, 'quarantine');
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
    this.updateBackpressure(partition);
    this.seekSource(partition, entry.offset);
    this.emit({ type: 'quarantined', quarantine });
    this.callback('onQuarantine', () => this.options.onQuarantine?.(quarantine));
  }

  private requireQuarantined(
    tp: TopicPartition,
  ): PartitionState<T> & { quarantine: NonNullable<PartitionState<T>['quarantine']> } {
    if (this.fatal !== null) throw new Error(`consumer core is fatal (${this.fatal}); restart it instead`);
    const partition = this.partitions.get(topicPartitionKey(tp));
    if (!partition) throw new Error(`${formatTopicPartition(tp)} is not owned by this consumer`);
    if (!partition.quarantine) throw new Error(`${formatTopicPartition(tp)} is not quarantined`);
    return partition as PartitionState<T> & { quarantine: NonNullable<PartitionState<T>['quarantine']> };
  }

  /** Operator: retry the quarantined record (it is delivered and admitted again). */
  resumeQuarantined(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireQuarantined(tp);
    const from = partition.quarantine.resumeFrom;
    this.releaseFrom(partition, BigInt(from), 'resume');
    return this.liftQuarantine(partition, from, 'resumed');
  }

  /**
   * Operator: mark the quarantined record complete without processing it (the adapter copies it to the DLQ
   * first if configured) so the commit moves past it; reading continues after it.
   */
  skipQuarantined(tp: TopicPartition): OperatorActionResult {
    const partition = this.requireQuarantined(tp);
    const { entry, resumeFrom, info } = partition.quarantine;
    let from: Offset;
    if (entry) {
      // Everything after the record was released when it was quarantined.
      this.completeEntry(entry, 'skipped-operator');
      from = (entry.offsetValue + 1n).toString();
      this.releaseFrom(partition, entry.offsetValue + 1n, 'skip');
    } else {
      // A rebalance rewound past the record: read again from the rewind point and skip it when it comes.
      partition.remember(info.offset, 'operator');
      from = resumeFrom;
      this.releaseFrom(partition, BigInt(from), 'skip');
    }
    return this.liftQuarantine(partition, from, 'skipped');
  }

  /** Operator: forget the partition's uncommitted state and continue reading at `offset`. */
  seekQuarantined(tp: TopicPartition, offset: Offset): OperatorActionResult {
    const target = parseOffset(offset);
    if (target === null) throw new RangeError(`not an int64 offset: ${JSON.stringify(offset)}`);
    const partition = this.requireQuarantined(tp);
    const released = partition.discardAll(target);
    this.detachReleased(released, 'ignore', 'partition state discarded by an operator seek');
    return this.liftQuarantine(partition, target.toString(), 'seeked');
  }

  private liftQuarantine(
    partition: PartitionState<T>,
    seekOffset: Offset,
    action: OperatorActionResult['action'],
  ): OperatorActionResult {
    partition.quarantine = null;
    const reason: QuarantineClearReason = action;
    if (!this.seekSource(partition, seekOffset)) {
      throw new Error(`seek of ${formatTopicPartition(partition)} to ${seekOffset} failed: ${this.fatal ?? 'unknown'}`);
    }
    this.updateBackpressure(partition);
    this.emit({ type: 'quarantine-cleared', ...partition.tp, reason, seekOffset });
    this.callback('onQuarantineCleared', () => this.options.onQuarantineCleared?.(partition.tp, reason));
    this.scheduleCommit();
    this.pump();
    if (this.fatal !== null) throw new Error(`resume of ${formatTopicPartition(partition)} failed: ${this.fatal}`);
    return { topic: partition.topic, partition: partition.partition, action, seekOffset };
  }

  // --- rewinds -----------------------------------------------------------------------------------------

  /** Releases tracked records from `from` on; their calls keep running and a success is remembered. */
  private releaseFrom(partition: PartitionState<T>, from: bigint, reason: RedeliveryReason): void {
    const { released, count } = partition.releaseFrom(from, true);
    this.detachReleased(released, 'remember', null);
    if (count > 0) {
      this.counters.redelivered += count;
      this.emit({ type: 'redelivered', ...partition.tp, count, reason });
    }
  }

  private detachReleased(released: readonly RecordEntry<T>[], mode: DetachMode, abortReason: string | null): void {
    for (const entry of released) {
      if (entry.retryTimer !== null) {
        this.clock.clearTimeout(entry.retryTimer);
        entry.retryTimer = null;
      }
      if (entry.call) this.detach(entry.call, mode, abortReason);
    }
  }

  // --- backpressure and source control -----------------------------------------------------------------

  /**
   * Pauses the partition when pending (delivered, uncommitted) records reach maxPendingPerPartition or
   * unfinished payload bytes reach maxBufferedBytesPerPartition; resumes below half of both, unless
   * quarantined. A batch already fetched is still accepted whole, hence "limit + one fetch batch".
   */
  private updateBackpressure(partition: PartitionState<T>): void {
    const pending = partition.pending;
    const bytes = partition.unfinishedBytes;
    const overLimit =
      pending >= this.settings.maxPendingPerPartition || bytes >= this.settings.maxBufferedBytesPerPartition;
    const belowHalf =
      pending < this.settings.maxPendingPerPartition / 2 && bytes < this.settings.maxBufferedBytesPerPartition / 2;
    if (!partition.backpressured && overLimit) {
      partition.backpressured = true;
      this.emit({ type: 'backpressure', ...partition.tp, paused: true, pending, bufferedBytes: bytes });
    } else if (partition.backpressured && belowHalf) {
      partition.backpressured = false;
      this.emit({ type: 'backpressure', ...partition.tp, paused: false, pending, bufferedBytes: bytes });
    }
    this.syncPause(partition);
  }

  private syncPause(partition: PartitionState<T>): void {
    const shouldPause = partition.quarantine !== null || partition.backpressured;
    if (shouldPause && !partition.sourcePaused) {
      try {
        this.source.pause(partition.tp);
        partition.sourcePaused = true;
      } catch (err) {
        this.setFatal(`pause of ${formatTopicPartition(partition)} failed: ${describeError(err)}`);
      }
    } else if (!shouldPause && partition.sourcePaused && this.fatal === null) {
      try {
        this.source.resume(partition.tp);
        partition.sourcePaused = false;
      } catch (err) {
        // A partition silently left paused is the stall nobody sees (seed 000's open problem): fail loudly.
        this.setFatal(`resume of ${formatTopicPartition(partition)} failed: ${describeError(err)}`);
      }
    }
  }

  private seekSource(partition: PartitionState<T>, offset: Offset): boolean {
    try {
      this.source.seek(partition.tp, offset);
      return true;
    } catch (err) {
      this.setFatal(`seek of ${formatTopicPartition(partition)} to ${offset} failed: ${describeError(err)}`);
      return false;
    }
  }

  private setFatal(reason: string): void {
    if (this.fatal !== null) return;
    this.fatal = reason;
    // Only explicit commitNow() calls (drain) commit from here on; the completed prefix is still safe.
    this.commits.stopAutomatic();
    if (this.stallTimer !== null) {
      this.clock.clearTimeout(this.stallTimer);
      this.stallTimer = null;
    }
    this.emit({ type: 'fatal', reason });
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
    this.pump();
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
    const batch: Array<{ partition: PartitionState<T>; epoch: number; candidate: CommitCandidate }> = [];
    for (const partition of this.partitions.values()) {
      const candidate = partition.commitCandidate(this.settings.metadataMaxBytes);
      if (candidate) batch.push({ partition, epoch: partition.epoch, candidate });
    }
    if (batch.length === 0) return 'nothing-to-commit';
    for (const { candidate } of batch) {
      if (candidate.metadataOverflow) {
        const { topic, partition, offset } = candidate.request;
        this.emit({ type: 'metadata-overflow', topic, partition, offset });
      }
    }
    const requests: CommitRequest[] = batch.map(({ candidate }) => candidate.request);
    const startedAtMs = this.clock.now();
    try {
      await this.source.commit(requests);
    } catch (error) {
      this.counters.commitFailures++;
      let errorClass: ErrorClass;
      try {
        errorClass = this.settings.classifyCommitError(error);
      } catch {
        errorClass = 'permanent';
      }
      this.emit({ type: 'commit-failed', requests, error, errorClass, durationMs: this.clock.now() - startedAtMs });
      // A transient failure is retried by the scheduler one interval after this attempt started.
      if (errorClass === 'permanent') this.setFatal(`commit failed permanently: ${describeError(error)}`);
      return 'failed';
    }
    this.counters.commits++;
    for (const { partition, epoch, candidate } of batch) {
      // Revoked partitions and partitions an operator re-seeked meanwhile keep no trace of this commit.
      if (this.partitions.get(partition.key) !== partition || partition.epoch !== epoch) continue;
      partition.acknowledgeCommit(candidate.request);
      this.updateBackpressure(partition);
    }
    this.emit({ type: 'committed', requests, durationMs: this.clock.now() - startedAtMs });
    return 'committed';
  }

  /** Automatic commit after a change, at most every commitIntervalMs. Off once closed or fatal. */
  private scheduleCommit(): void {
    this.commits.schedule();
  }

  // --- rebalance ---------------------------------------------------------------------------------------

  /** Stops starting work and commits what is complete, before the partitions are handed over (seed 003). */
  onRebalanceStart(): Promise<void> {
    this.rebalancing = true;
    return this.commitNow();
  }

  /**
   * Applies the new assignment. Revoked partitions lose all state: nothing more is committed for them and
   * their running calls are aborted and ignored when they settle. Kept partitions are rewound to their commit
   * point, because the source restarts there after a rebalance: uncommitted records are redelivered, those
   * already complete (or completing) are remembered and not run again. A kept quarantine stays.
   */
  onAssignment(assigned: readonly TopicPartition[]): void {
    const wanted = new Map(assigned.map((tp) => [topicPartitionKey(tp), tp] as const));
    for (const partition of [...this.partitions.values()]) {
      if (!wanted.has(partition.key)) this.revoke(partition);
    }
    for (const [key, tp] of wanted) {
      const kept = this.partitions.get(key);
      if (kept) this.rewindKept(kept);
      else this.partitions.set(key, new PartitionState<T>(tp.topic, tp.partition));
    }
    this.partitionOrder = [...this.partitions.values()];
    this.rebalancing = false;
    this.pump();
  }

  private revoke(partition: PartitionState<T>): void {
    partition.revoked = true;
    this.partitions.delete(partition.key);
    this.partitionOrder = this.partitionOrder.filter((p) => p !== partition);
    const { released } = partition.releaseFrom(null, false);
    this.detachReleased(released, 'ignore', `${formatTopicPartition(partition)} was revoked`);
    if (partition.sourcePaused) {
      // The kafkajs pause state outlives the assignment; a later reassignment must not start paused.
      try {
        this.source.resume(partition.tp);
      } catch (error) {
        this.emit({ type: 'source-call-failed', ...partition.tp, call: 'resume', error });
      }
    }
    if (partition.quarantine) {
      this.emit({ type: 'quarantine-cleared', ...partition.tp, reason: 'revoked', seekOffset: null });
      this.callback('onQuarantineCleared', () => this.options.onQuarantineCleared?.(partition.tp, 'revoked'));
    }
  }

  private rewindKept(partition: PartitionState<T>): void {
    const rewindPoint = partition.rewindPoint();
    if (rewindPoint !== null) {
      this.releaseFrom(partition, BigInt(rewindPoint), 'rebalance');
      const quarantine = partition.quarantine;
      if (quarantine && BigInt(rewindPoint) < BigInt(quarantine.resumeFrom)) quarantine.resumeFrom = rewindPoint;
    }
    this.updateBackpressure(partition);
  }

  // --- stalls ------------------------------------------------------------------------------------------

  /** Partitions whose oldest unfinished record was delivered more than stallThresholdMs ago. */
  stalls(nowMs: number = this.clock.now()): StallInfo[] {
    const stalls: StallInfo[] = [];
    for (const partition of this.partitions.values()) {
      const oldest = partition.oldestUnfinished();
      if (!oldest) continue;
      const ageMs = nowMs - oldest.deliveredAtMs;
      if (ageMs <= this.settings.stallThresholdMs) continue;
      stalls.push({
        topic: partition.topic,
        partition: partition.partition,
        offset: oldest.offset,
        ageMs,
        state: oldest.status as StallInfo['state'],
        phase: oldest.phase,
        attempts: oldest.handleAttempts,
      });
    }
    return stalls;
  }

  private ensureStallTimer(): void {
    if (this.settings.stallDeadLetterAfterMs === null || this.stallTimer !== null || this.closed || this.fatal !== null)
      return;
    this.stallTimer = this.clock.setTimeout(() => {
      this.stallTimer = null;
      this.deadLetterStalled();
      const anyUnfinished = [...this.partitions.values()].some((partition) => partition.oldestUnfinished());
      if (anyUnfinished) this.ensureStallTimer();
    }, this.settings.stallCheckIntervalMs);
  }

  /**
   * Opt-in trade-off (seed 001): a record that has been running or retrying for longer than
   * stallDeadLetterAfterMs since it first started is written to the dead-letter port as 'stalled' and
   * completes when that write is acknowledged. Its running call is aborted and its outcome ignored, so a late
   * success duplicates the effect. Only the oldest unfinished record of a partition is considered.
   */
  private deadLetterStalled(): void {
    const limit = this.settings.stallDeadLetterAfterMs;
    if (limit === null || this.fatal !== null) return;
    const now = this.clock.now();
    for (const partition of [...this.partitions.values()]) {
      const oldest = partition.oldestUnfinished();
      if (!oldest || oldest.phase === 'dead-letter' || oldest.firstStartedAtMs === null) continue;
      if (oldest.status !== 'running' && oldest.status !== 'retry-wait') continue;
      const ageMs = now - oldest.firstStartedAtMs;
      if (ageMs <= limit) continue;
      if (oldest.retryTimer !== null) {
        this.clock.clearTimeout(oldest.retryTimer);
        oldest.retryTimer = null;
      }
      if (oldest.call) this.detach(oldest.call, 'ignore', 'record dead-lettered as stalled');
      this.counters.stallDeadLetters++;
      this.emit({ type: 'stall-dead-letter', ...refOf(oldest), ageMs });
      this.startDeadLetter(oldest, {
        errorClass: 'stalled',
        reason: `no progress for ${ageMs} ms in phase ${oldest.phase} after ${oldest.handleAttempts} attempts`,
        attempts: oldest.handleAttempts,
      });
    }
  }

  // --- shutdown ----------------------------------------------------------------------------------------

  /**
   * Stops starting work (retry delays are not waited for), waits for running calls up to `timeoutMs`
   * (measured on the injected clock), aborts what still runs, commits what completed, and closes: no more
   * timers, no more deliveries. Call before the source's stop(): commits fail after it.
   */
  async drain(timeoutMs: number): Promise<DrainResult> {
    this.draining = true;
    let timedOut = false;
    if (this.runningCalls > 0) {
      await new Promise<void>((resolve) => {
        let timer: TimerHandle | null = null;
        const finish = (): void => {
          if (timer !== null) this.clock.clearTimeout(timer);
          this.idleWaiters = this.idleWaiters.filter((waiter) => waiter !== finish);
          resolve();
        };
        timer = this.clock.setTimeout(() => {
          timer = null;
          timedOut = true;
          finish();
        }, timeoutMs);
        this.idleWaiters.push(finish);
      });
    }
    const abandonedCalls = this.runningCalls;
    const deadlinePassed = new Error('drain deadline passed');
    for (const call of this.detachedCalls) abortCall(call, deadlinePassed);
    for (const partition of this.partitions.values()) {
      for (const entry of partition.delivered) if (entry.call) abortCall(entry.call, deadlinePassed);
    }
    await this.commitNow();
    this.close();
    return { timedOut, abandonedCalls };
  }

  private notifyIfIdle(): void {
    if (this.runningCalls > 0 || this.idleWaiters.length === 0) return;
    for (const waiter of [...this.idleWaiters]) waiter();
  }

  private close(): void {
    this.closed = true;
    this.commits.stopAutomatic();
    if (this.stallTimer !== null) this.clock.clearTimeout(this.stallTimer);
    this.stallTimer = null;
    for (const partition of this.partitions.values()) {
      for (const entry of partition.delivered) {
        if (entry.retryTimer !== null) {
          this.clock.clearTimeout(entry.retryTimer);
          entry.retryTimer = null;
        }
      }
    }
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
      fatalReason: this.fatal,
      inFlight: this.slotsInUse,
      partitions,
      counters: { ...this.counters },
    };
  }

  private emit(event: CoreEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // An observer must not break the engine.
    }
  }

  private callback(name: 'onQuarantine' | 'onQuarantineCleared', run: () => void | Promise<void>): void {
    const report = (error: unknown): void => this.emit({ type: 'callback-failed', callback: name, error });
    try {
      const result = run();
      if (result && typeof result.then === 'function') result.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }
}

/** Positions of `values` in ascending order (stable). */
function sortedOrder(values: readonly bigint[]): number[] {
  return values
    .map((_, index) => index)
    .sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b));
}

function refOf<T>(entry: RecordEntry<T>): { topic: string; partition: number; offset: Offset } {
  return { topic: entry.owner.topic, partition: entry.owner.partition, offset: entry.offset };
}

function outcomeOf(phase: RecordPhase): CompletionOutcome {
  switch (phase) {
    case 'handle':
      return 'handled';
    case 'permanent-failure':
      return 'failed-result';
    case 'dead-letter':
      return 'dead-lettered';
  }
}

function skipOutcome(origin: SkipOrigin): CompletionOutcome {
  switch (origin) {
    case 'metadata':
      return 'skipped-metadata';
    case 'completed':
      return 'skipped-completed';
    case 'operator':
      return 'skipped-operator';
  }
}

/** Counters of a core that has done nothing yet. */
export function zeroCounters(): CoreCounters {
  return {
    completed: 0,
    handled: 0,
    retries: 0,
    permanentFailures: 0,
    admissionFailures: 0,
    deadLettered: 0,
    stallDeadLetters: 0,
    quarantines: 0,
    redelivered: 0,
    skippedFromMetadata: 0,
    skippedCompleted: 0,
    skippedByOperator: 0,
    droppedDeliveries: 0,
    commits: 0,
    commitFailures: 0,
  };
}

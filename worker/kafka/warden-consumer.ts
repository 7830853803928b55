import type { Admin, Consumer, ConsumerConfig, EachBatchPayload, Kafka } from 'kafkajs';
import { ConsumerCore, type ConsumerCoreOptions } from '../core';
import type { Clock, CommitRequest, Offset, SourcePort, StallInfo, TopicPartition } from '../core/types';
import { classifyCommitError } from './classify-commit-error';
import { fetchHoldMs } from './fetch-hold';
import { toSourceRecords } from './source-records';
import type { Readiness } from '../shared/worker-types';
import type { ConsumerLogger, RebalanceTiming } from '../shared/worker-types';

// The kafkajs adapter around the pure ConsumerCore, and the library entry point (`createConsumer`).
// kafkajs facts this relies on (anchors.md): each broker's fetcher waits for eachBatch, so eachBatch hands
// records to the core and returns at once (unless nothing could be fetched until a resume: fetch-hold.ts); the
// fetch position follows resolved offsets; pause state and pending seeks live in kafkajs's ConsumerGroup,
// which is recreated after a crash, so the adapter keeps the desired pauses itself and re-applies them after
// every join; commits must happen before stop().

export type WardenConsumerOptions<T> = Omit<ConsumerCoreOptions<T>, 'source' | 'clock' | 'random'> & {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  /** Where a group with no commit starts. Default true (earliest: loses nothing). */
  fromBeginning?: boolean;
  /** Shared admin client for reading commit metadata; one is created when omitted. */
  admin?: Admin;
  logger?: ConsumerLogger;
  /** Ready only while fetches or heartbeats happened within this window. Default 20 s. */
  readinessWindowMs?: number;
  /** With no progress for this long, the kafkajs consumer is torn down and rebuilt. Default 45 s. */
  restartAfterMs?: number;
  kafkaConsumerConfig?: Omit<ConsumerConfig, 'groupId'>;
  clock?: Clock;
  /**
   * Called once when the core turns fatal (a pause, seek, resume or commit it cannot recover from). The
   * consumer has already stopped fetching and reports not ready; the host decides whether to exit.
   */
  onFatal?: (reason: string) => void;
  /**
   * Partitions whose oldest unfinished record is older than `stallThresholdMs`, reported on every
   * supervision tick (every few seconds) while they stay stuck.
   */
  onStalls?: (stalls: StallInfo[]) => void;
  /**
   * Called after every join with how long this member stopped for it (the rebalance history's measured rows).
   * Runs on kafkajs's event path: it must return at once; a throw is swallowed.
   */
  onRebalance?: (timing: RebalanceTiming) => void;
};

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** kafkajs's maxWaitTimeInMs unless kafkaConsumerConfig sets it; see startKafkaConsumer. */
const DEFAULT_FETCH_WAIT_MS = 100;

const tpKey = (tp: TopicPartition) => `${tp.topic}\u0000${tp.partition}`;

export class WardenConsumer<T> {
  readonly core: ConsumerCore<T>;
  private consumer: Consumer | null = null;
  private admin: Admin;
  private readonly ownsAdmin: boolean;
  private readonly clock: Clock;
  private readonly logger: ConsumerLogger | undefined;
  private readonly readinessWindowMs: number;
  private readonly restartAfterMs: number;
  /** Pauses the core asked for; re-applied after every join, since kafkajs forgets them on a restart. */
  private readonly desiredPauses = new Map<string, TopicPartition>();
  /** Seeks asked for while no kafkajs consumer group existed; applied after the next join. */
  private readonly pendingSeeks = new Map<string, { tp: TopicPartition; offset: Offset }>();
  private assigned: TopicPartition[] = [];
  private assignmentReady: Promise<void> = Promise.resolve();
  private lastProgressMs = 0;
  private joined = false;
  private crashReason: string | null = null;
  private stopping = false;
  private supervisor: NodeJS.Timeout | null = null;
  private restarting: Promise<void> | null = null;
  private restarts = 0;
  /** Start of the current stop (rebalance, crash or rebuild) until the next GROUP_JOIN; null while running. */
  private stopStartedAtMs: number | null = null;
  private stopCause: RebalanceTiming['cause'] = 'join';
  /** Ends the eachBatch call held until the first resume (see holdUntilResume). */
  private releaseHeldBatch: (() => void) | null = null;
  /** Partitions whose last delivered batch reached the high watermark (nothing more to fetch then). */
  private readonly caughtUp = new Set<string>();
  private readonly fetchWaitMs: number;

  constructor(private readonly options: WardenConsumerOptions<T>) {
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
    this.readinessWindowMs = options.readinessWindowMs ?? 20_000;
    this.restartAfterMs = options.restartAfterMs ?? 45_000;
    this.fetchWaitMs = options.kafkaConsumerConfig?.maxWaitTimeInMs ?? DEFAULT_FETCH_WAIT_MS;
    this.ownsAdmin = options.admin === undefined;
    this.admin = options.admin ?? options.kafka.admin();
    const source: SourcePort = {
      pause: (tp) => this.pause(tp),
      resume: (tp) => this.resume(tp),
      seek: (tp, offset) => this.seek(tp, offset),
      commit: (requests) => this.commit(requests),
    };
    this.core = new ConsumerCore<T>({
      classifyCommitError,
      ...options,
      source,
      clock: this.clock,
      random: Math.random,
      onEvent: (event) => {
        options.onEvent?.(event);
        if (event.type === 'fatal') this.onCoreFatal(event.reason);
      },
    });
  }

  /** Connects and starts consuming; resolves once kafkajs runs (not when the first assignment arrives). */
  async start(): Promise<void> {
    if (this.ownsAdmin) await this.admin.connect();
    await this.startKafkaConsumer();
    this.supervisor = setInterval(() => this.supervise(), Math.min(5_000, this.readinessWindowMs / 2));
    this.supervisor.unref();
  }

  /**
   * Stops fetching, drains running work up to `deadlineMs`, commits the watermark, then disconnects.
   * Commits happen before kafkajs's stop(), after which they would throw.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    this.releaseHeldBatch?.();
    if (this.supervisor) clearInterval(this.supervisor);
    await this.restarting;
    const consumer = this.consumer;
    if (consumer) {
      for (const tp of this.assigned) this.tryPause(consumer, tp);
    }
    const drained = await this.core.drain(deadlineMs);
    if (drained.timedOut) {
      this.logger?.warn(
        { abandonedCalls: drained.abandonedCalls },
        'drain deadline passed; unfinished records will be redelivered',
      );
    }
    await consumer?.disconnect().catch((error: Error) => this.logger?.warn({ err: error }, 'disconnect failed'));
    this.consumer = null;
    if (this.ownsAdmin) await this.admin.disconnect().catch(() => undefined);
  }

  /**
   * Ready only while the consume loop demonstrably makes progress: a join, fetch or heartbeat within the
   * window. A fatal core, a crash kafkajs will not restart, or silence all report not ready, so a
   * consumer that stopped polling is never reported healthy (seed 000's unresolved bug).
   */
  readiness(): Readiness {
    if (this.core.isFatal()) return { ready: false, detail: `consumer core is fatal: ${this.core.fatalReason}` };
    if (this.crashReason) return { ready: false, detail: `consumer crashed: ${this.crashReason}; restarting` };
    if (!this.joined) return { ready: false, detail: 'not joined to the group yet' };
    const silentMs = this.clock.now() - this.lastProgressMs;
    if (silentMs > this.readinessWindowMs) {
      return { ready: false, detail: `no fetch or heartbeat for ${Math.round(silentMs / 1000)} s` };
    }
    return {
      ready: true,
      detail: `${this.assigned.length} partition(s) assigned; last progress ${Math.round(silentMs / 1000)} s ago`,
    };
  }

  /** Stops fetching everything at once; undecided input stays uncommitted for the next owner. */
  private onCoreFatal(reason: string): void {
    this.releaseHeldBatch?.();
    if (this.stopping) return;
    const consumer = this.consumer;
    if (consumer) for (const tp of this.assigned) this.tryPause(consumer, tp);
    this.options.onFatal?.(reason);
  }

  get assignment(): readonly TopicPartition[] {
    return this.assigned;
  }

  get restartCount(): number {
    return this.restarts;
  }

  private async startKafkaConsumer(): Promise<void> {
    const { kafka, groupId, topics } = this.options;
    const consumer = kafka.consumer({
      sessionTimeout: 30_000,
      heartbeatInterval: 3_000,
      // When every partition a broker leads is paused (backpressure does that), kafkajs sleeps maxWaitTimeInMs
      // before it looks again (consumerGroup.js fetch), so a resumed partition waited up to the 5 s default.
      // Only idle fetches return sooner as a cost: the broker answers as soon as data is there anyway.
      maxWaitTimeInMs: DEFAULT_FETCH_WAIT_MS,
      ...this.options.kafkaConsumerConfig,
      groupId,
      retry: {
        ...this.options.kafkaConsumerConfig?.retry,
        // kafkajs restarts itself after retriable crashes; the supervisor covers the rest. A consumer the
        // supervisor replaced must never come back.
        restartOnFailure: async () => !this.stopping && this.consumer === consumer,
      },
    });
    this.consumer = consumer;
    // A replaced consumer whose own restart was already under way can still join after the broker returns:
    // it would be a second member feeding the same core. Its events are ignored and it is disconnected.
    const current = () => {
      if (this.consumer === consumer) return true;
      void consumer.disconnect().catch(() => undefined);
      return false;
    };
    const progress = () => {
      if (current()) this.lastProgressMs = this.clock.now();
    };
    consumer.on(consumer.events.FETCH_START, progress);
    consumer.on(consumer.events.FETCH, progress);
    consumer.on(consumer.events.HEARTBEAT, progress);
    consumer.on(consumer.events.REBALANCING, () => {
      this.releaseHeldBatch?.();
      if (!current()) return;
      this.markStopped('rebalance');
      void this.core.onRebalanceStart();
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (!current()) return;
      progress();
      this.crashReason = null;
      this.joined = true;
      const assignmentBefore = this.assigned;
      this.onJoin(consumer, event.payload.memberAssignment);
      this.reportRebalance(event.payload, assignmentBefore);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      if (!current()) return;
      this.markStopped('join');
      const error = event.payload.error;
      this.crashReason = `${error.name}: ${error.message}`;
      this.logger?.error({ err: error, restart: event.payload.restart }, 'kafkajs consumer crashed');
    });
    await consumer.connect();
    for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: this.options.fromBeginning ?? true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        if (current()) await this.onBatch(payload);
      },
    });
  }

  private onJoin(consumer: Consumer, memberAssignment: Record<string, number[]>): void {
    const assigned = Object.entries(memberAssignment).flatMap(([topic, partitions]) =>
      partitions.map((partition) => ({ topic, partition })),
    );
    this.assigned = assigned;
    this.caughtUp.clear();
    this.core.onAssignment(assigned);
    const owned = new Set(assigned.map(tpKey));
    for (const [key, tp] of this.desiredPauses) {
      if (owned.has(key)) this.tryPause(consumer, tp);
      else this.desiredPauses.delete(key);
    }
    for (const [key, { tp, offset }] of this.pendingSeeks) {
      if (owned.has(key)) consumer.seek({ ...tp, offset });
      this.pendingSeeks.delete(key);
    }
    this.assignmentReady = this.loadCommitMetadata(assigned);
    this.logger?.info({ partitions: assigned.length }, 'assignment received');
  }

  private markStopped(cause: RebalanceTiming['cause']): void {
    if (this.stopStartedAtMs !== null) return;
    this.stopStartedAtMs = this.clock.now();
    this.stopCause = cause;
  }

  private reportRebalance(
    payload: {
      duration: number;
      groupId: string;
      isLeader: boolean;
      leaderId: string;
      groupProtocol: string;
      memberId: string;
    },
    assignmentBefore: TopicPartition[],
  ): void {
    const endedAtMs = this.clock.now();
    const startedAtMs = this.stopStartedAtMs ?? endedAtMs - Math.max(0, payload.duration);
    const cause = this.stopStartedAtMs === null ? 'join' : this.stopCause;
    this.stopStartedAtMs = null;
    if (!this.options.onRebalance) return;
    try {
      this.options.onRebalance({
        groupId: payload.groupId,
        memberId: payload.memberId,
        leaderId: payload.leaderId,
        isLeader: payload.isLeader,
        groupProtocol: payload.groupProtocol,
        cause,
        startedAtMs,
        endedAtMs,
        assignmentBefore,
        assignmentAfter: this.assigned,
      });
    } catch (error) {
      this.logger?.warn({ err: error }, 'onRebalance callback failed');
    }
  }

  /** Completed offsets above each commit point, so a restart skips records already done. */
  private async loadCommitMetadata(assigned: TopicPartition[]): Promise<void> {
    const topics = [...new Set(assigned.map((tp) => tp.topic))];
    if (topics.length === 0) return;
    try {
      const committed = await this.admin.fetchOffsets({ groupId: this.options.groupId, topics });
      for (const { topic, partitions } of committed) {
        for (const p of partitions) {
          const tp = { topic, partition: p.partition };
          if (this.core.owns(tp)) this.core.setCommittedMetadata(tp, p.offset, p.metadata ?? null);
        }
      }
    } catch (error) {
      // Safe fallback: without the metadata, completed records above the commit point are replayed.
      this.logger?.warn({ err: error }, 'could not read commit metadata; completed records may be replayed');
    }
  }

  private async onBatch({ batch, resolveOffset, isStale, isRunning }: EachBatchPayload): Promise<void> {
    if (!isRunning() || isStale() || batch.messages.length === 0) return;
    await this.assignmentReady;
    const { messages } = batch;
    const records = toSourceRecords(batch.topic, batch.partition, messages);
    this.core.deliver(records);
    // Advances the fetch position past what the core now holds. A seek the core made during deliver()
    // (quarantine) is applied at the next fetch and wins over this.
    const lastOffset = messages[messages.length - 1]!.offset;
    resolveOffset(lastOffset);
    const key = tpKey(batch);
    if (BigInt(lastOffset) + 1n >= BigInt(batch.highWatermark)) this.caughtUp.add(key);
    else this.caughtUp.delete(key);
    await this.holdUntilResume();
  }

  /** Holds kafkajs's fetcher while nothing could be fetched until a resume (fetch-hold.ts says when, how long). */
  private async holdUntilResume(): Promise<void> {
    if (this.stopping || this.releaseHeldBatch) return;
    const holdMs = fetchHoldMs(
      this.assigned.map((tp) => {
        const key = tpKey(tp);
        const paused = this.desiredPauses.has(key);
        return { paused, backpressured: paused && this.core.isBackpressured(tp), caughtUp: this.caughtUp.has(key) };
      }),
      this.fetchWaitMs,
    );
    if (holdMs === null) return;
    await new Promise<void>((resolve) => {
      const timer = this.clock.setTimeout(() => release(), holdMs);
      const release = () => {
        this.clock.clearTimeout(timer);
        this.releaseHeldBatch = null;
        resolve();
      };
      this.releaseHeldBatch = release;
    });
  }

  private pause(tp: TopicPartition): void {
    this.desiredPauses.set(tpKey(tp), tp);
    if (this.consumer) this.tryPause(this.consumer, tp);
  }

  private resume(tp: TopicPartition): void {
    this.desiredPauses.delete(tpKey(tp));
    this.releaseHeldBatch?.();
    try {
      this.consumer?.resume([{ topic: tp.topic, partitions: [tp.partition] }]);
    } catch {
      // No running consumer group: nothing is paused there, and desiredPauses no longer holds it.
    }
  }

  private seek(tp: TopicPartition, offset: Offset): void {
    this.caughtUp.delete(tpKey(tp));
    try {
      if (!this.consumer) throw new Error('no consumer');
      this.consumer.seek({ ...tp, offset });
    } catch {
      // kafkajs has no consumer group between a crash and the restart's join: apply after the join.
      this.pendingSeeks.set(tpKey(tp), { tp, offset });
    }
  }

  private tryPause(consumer: Consumer, tp: TopicPartition): void {
    try {
      consumer.pause([{ topic: tp.topic, partitions: [tp.partition] }]);
    } catch {
      // Re-applied after the next join from desiredPauses.
    }
  }

  private async commit(requests: CommitRequest[]): Promise<void> {
    if (!this.consumer) throw Object.assign(new Error('no running consumer to commit with'), { retriable: true });
    await this.consumer.commitOffsets(
      requests.map((r) => ({
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
        metadata: r.metadata ?? undefined,
      })),
    );
  }

  /** Rebuilds the kafkajs consumer when it went silent for restartAfterMs (a crash it did not recover from). */
  private supervise(): void {
    if (this.stopping || this.restarting) return;
    const stalls = this.core.stalls();
    if (stalls.length > 0) this.options.onStalls?.(stalls);
    const silentMs = this.clock.now() - this.lastProgressMs;
    if (this.lastProgressMs === 0 || silentMs < this.restartAfterMs) return;
    this.restarts += 1;
    this.logger?.warn(
      { silentMs, restarts: this.restarts },
      'consumer made no progress; rebuilding the kafkajs consumer',
    );
    this.restarting = (async () => {
      this.markStopped('join');
      void this.core.onRebalanceStart();
      const old = this.consumer;
      this.consumer = null;
      await old?.disconnect().catch(() => undefined);
      this.lastProgressMs = this.clock.now();
      try {
        await this.startKafkaConsumer();
      } catch (error) {
        this.crashReason = `restart failed: ${(error as Error).message}`;
        this.logger?.error({ err: error }, 'consumer restart failed; the supervisor retries');
      }
    })().finally(() => {
      this.restarting = null;
    });
  }
}

/** Library entry point: a partition-isolating consumer running `handle` for every admitted record. */
export function createConsumer<T>(options: WardenConsumerOptions<T>): WardenConsumer<T> {
  return new WardenConsumer(options);
}

import type {
  Admin,
  Batch,
  ConsumerConfig,
  ConsumerCrashEvent,
  ConsumerEvents,
  ConsumerGroupJoinEvent,
  ConsumerSubscribeTopic,
  TopicPartitionOffsetAndMetadata,
} from 'kafkajs';
import type { ConsumerCore } from '../core/index.js';
import type { Clock, CommitRequest, Offset, SourcePort, TopicPartition } from '../core/index.js';
import type { ConsumerLogger } from './consumer-types.js';
import { fetchHoldMs } from './fetch-hold.js';
import type { GroupJoinPayload } from './rebalance-timing.js';
import { toSourceRecords } from './source-records.js';

// The kafkajs side of the consumer: one kafkajs consumer at a time, its events, eachBatch, and the core's
// SourcePort (pause, resume, seek, commit). Supervision, readiness and rebalance timing are its owner's
// (warden-consumer.ts); this module tells the owner what happened through `AdapterEvents`.
//
// kafkajs facts this relies on: each broker's fetcher waits for eachBatch, so eachBatch hands records to the
// core and returns at once (unless nothing could be fetched until a resume: fetch-hold.ts); the fetch position
// follows resolved offsets; pause state and pending seeks live in kafkajs's ConsumerGroup, which exists only
// between run() and a crash or stop, so the adapter keeps the desired pauses itself and re-applies them after
// every join, and keeps seeks it could not apply until the next join; commits must happen before stop().
// Invariant: only the current kafkajs consumer feeds the core; events of a replaced one are ignored and that
// consumer is disconnected.

/** The kafkajs consumer surface the adapter uses (a real `Consumer` satisfies it; so does the unit-test fake). */
export interface KafkajsConsumer {
  readonly events: Pick<ConsumerEvents, 'FETCH_START' | 'FETCH' | 'HEARTBEAT' | 'REBALANCING' | 'GROUP_JOIN' | 'CRASH'>;
  on(eventName: ConsumerEvents['FETCH_START'], listener: () => void): unknown;
  on(eventName: ConsumerEvents['FETCH'], listener: () => void): unknown;
  on(eventName: ConsumerEvents['HEARTBEAT'], listener: () => void): unknown;
  on(eventName: ConsumerEvents['REBALANCING'], listener: () => void): unknown;
  on(eventName: ConsumerEvents['GROUP_JOIN'], listener: (event: ConsumerGroupJoinEvent) => void): unknown;
  on(eventName: ConsumerEvents['CRASH'], listener: (event: ConsumerCrashEvent) => void): unknown;
  connect(): Promise<void>;
  subscribe(subscription: ConsumerSubscribeTopic): Promise<void>;
  run(config: KafkajsRunConfig): Promise<void>;
  pause(topics: Array<{ topic: string; partitions: number[] }>): void;
  resume(topics: Array<{ topic: string; partitions: number[] }>): void;
  seek(topicPartitionOffset: { topic: string; partition: number; offset: string }): void;
  commitOffsets(topicPartitions: TopicPartitionOffsetAndMetadata[]): Promise<void>;
  disconnect(): Promise<void>;
}

/** The eachBatch payload fields the adapter reads. */
export interface KafkajsBatchPayload {
  batch: Pick<Batch, 'topic' | 'partition' | 'highWatermark' | 'messages'>;
  resolveOffset(offset: string): void;
  isStale(): boolean;
  isRunning(): boolean;
}

export interface KafkajsRunConfig {
  autoCommit: false;
  eachBatchAutoResolve: false;
  eachBatch: (payload: KafkajsBatchPayload) => Promise<void>;
}

/** The admin calls the consumer makes (commit metadata; connect and disconnect when it owns the client). */
export type KafkajsAdmin = Pick<Admin, 'connect' | 'disconnect' | 'fetchOffsets'>;

/** The kafkajs client surface: a `Kafka` satisfies it. */
export interface KafkajsClient {
  consumer(config: ConsumerConfig): KafkajsConsumer;
  admin(): KafkajsAdmin;
}

/** What the adapter drives in the core. */
export type AdapterCore = Pick<
  ConsumerCore<unknown>,
  'deliver' | 'onAssignment' | 'onRebalanceStart' | 'isBackpressured' | 'owns' | 'setCommittedMetadata'
>;

/** What happened on the current kafkajs consumer, for supervision, readiness and rebalance timing. */
export interface AdapterEvents {
  /** A fetch, fetch start or heartbeat. */
  onProgress(): void;
  /** The group started rebalancing under this running member (before the core hears of it). */
  onRebalancing(): void;
  /** An assignment arrived and was applied (core, pauses, seeks). */
  onJoin(payload: GroupJoinPayload, assignmentBefore: TopicPartition[], assignmentAfter: TopicPartition[]): void;
  /** The kafkajs consumer crashed (whether or not kafkajs restarts it itself). */
  onCrash(reason: string): void;
}

export interface KafkajsAdapterOptions {
  kafka: KafkajsClient;
  admin: KafkajsAdmin;
  groupId: string;
  topics: string[];
  fromBeginning: boolean;
  kafkaConsumerConfig?: Omit<ConsumerConfig, 'groupId'>;
  core: AdapterCore;
  clock: Clock;
  events: AdapterEvents;
  logger?: ConsumerLogger;
}

/** kafkajs's maxWaitTimeInMs unless kafkaConsumerConfig sets it; see connect(). */
export const DEFAULT_FETCH_WAIT_MS = 100;

const tpKey = (tp: TopicPartition) => `${tp.topic}\u0000${tp.partition}`;

export class KafkajsAdapter implements SourcePort {
  private consumer: KafkajsConsumer | null = null;
  /**
   * The current consumer crashed and has not joined since: kafkajs dropped its consumer group, and its
   * commitOffsets rejects with a non-retriable error that would make the core fatal.
   */
  private crashedSinceJoin = false;
  private stopping = false;
  /** Pauses the core asked for; re-applied after every join, since kafkajs forgets them on a restart. */
  private readonly desiredPauses = new Map<string, TopicPartition>();
  /** Seeks asked for while no kafkajs consumer group existed; applied after the next join. */
  private readonly pendingSeeks = new Map<string, { tp: TopicPartition; offset: Offset }>();
  private assigned: TopicPartition[] = [];
  private assignmentReady: Promise<void> = Promise.resolve();
  /** Ends the eachBatch call held until the first resume (see holdUntilResume). */
  private releaseHeldBatch: (() => void) | null = null;
  /** Partitions whose last delivered batch reached the high watermark (nothing more to fetch then). */
  private readonly caughtUp = new Set<string>();
  private readonly fetchWaitMs: number;

  constructor(private readonly options: KafkajsAdapterOptions) {
    this.fetchWaitMs = options.kafkaConsumerConfig?.maxWaitTimeInMs ?? DEFAULT_FETCH_WAIT_MS;
  }

  get assignment(): readonly TopicPartition[] {
    return this.assigned;
  }

  /** Creates, connects, subscribes and runs a new kafkajs consumer; it becomes the current one at once. */
  async connect(): Promise<void> {
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
    this.crashedSinceJoin = false;
    // A replaced consumer whose own restart was already under way can still join after the broker returns:
    // it would be a second member feeding the same core. Its events are ignored and it is disconnected.
    const current = () => {
      if (this.consumer === consumer) return true;
      void consumer.disconnect().catch(() => undefined);
      return false;
    };
    const progress = () => {
      if (current()) this.options.events.onProgress();
    };
    consumer.on(consumer.events.FETCH_START, progress);
    consumer.on(consumer.events.FETCH, progress);
    consumer.on(consumer.events.HEARTBEAT, progress);
    consumer.on(consumer.events.REBALANCING, () => {
      this.releaseHold();
      if (!current()) return;
      this.options.events.onRebalancing();
      void this.options.core.onRebalanceStart();
    });
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      if (!current()) return;
      this.crashedSinceJoin = false;
      const assignmentBefore = this.assigned;
      this.onJoin(consumer, event.payload.memberAssignment);
      this.options.events.onJoin(event.payload, assignmentBefore, this.assigned);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      if (!current()) return;
      this.crashedSinceJoin = true;
      const error = event.payload.error;
      this.options.logger?.error({ err: error, restart: event.payload.restart }, 'kafkajs consumer crashed');
      this.options.events.onCrash(`${error.name}: ${error.message}`);
    });
    await consumer.connect();
    for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: this.options.fromBeginning });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: async (payload) => {
        if (current()) await this.onBatch(payload);
      },
    });
  }

  /** Drops the current kafkajs consumer (its later events are ignored) and disconnects it; never rejects. */
  async detach(): Promise<void> {
    const old = this.consumer;
    this.consumer = null;
    await old?.disconnect().catch(() => undefined);
  }

  /** From here on kafkajs never restarts the consumer and no eachBatch call is held. */
  beginStop(): void {
    this.stopping = true;
    this.releaseHold();
  }

  /** Pauses every assigned partition on the current consumer (shutdown, fatal core); failures are ignored. */
  pauseAssigned(): void {
    const consumer = this.consumer;
    if (consumer) for (const tp of this.assigned) this.tryPause(consumer, tp);
  }

  /** Disconnects the current consumer for good; a failure is logged. */
  async disconnect(): Promise<void> {
    const consumer = this.consumer;
    await consumer
      ?.disconnect()
      .catch((error: unknown) => this.options.logger?.warn({ err: error }, 'disconnect failed'));
    this.consumer = null;
  }

  /** Ends an eachBatch call held for a resume (rebalance, fatal core, stop). */
  releaseHold(): void {
    this.releaseHeldBatch?.();
  }

  // --- SourcePort ------------------------------------------------------------------------------------

  pause(tp: TopicPartition): void {
    this.desiredPauses.set(tpKey(tp), tp);
    if (this.consumer) this.tryPause(this.consumer, tp);
  }

  resume(tp: TopicPartition): void {
    this.desiredPauses.delete(tpKey(tp));
    this.releaseHold();
    try {
      this.consumer?.resume([{ topic: tp.topic, partitions: [tp.partition] }]);
    } catch {
      // No running consumer group: nothing is paused there, and desiredPauses no longer holds it.
    }
  }

  seek(tp: TopicPartition, offset: Offset): void {
    this.caughtUp.delete(tpKey(tp));
    try {
      if (!this.consumer) throw new Error('no consumer');
      this.consumer.seek({ ...tp, offset });
    } catch {
      // kafkajs has no consumer group between a crash and the restart's join: apply after the join.
      this.pendingSeeks.set(tpKey(tp), { tp, offset });
    }
  }

  /** Between a crash and the next join, and between a rebuild's teardown and start, a commit is retriable. */
  async commit(requests: CommitRequest[]): Promise<void> {
    if (!this.consumer || this.crashedSinceJoin)
      throw Object.assign(new Error('no running consumer to commit with'), { retriable: true });
    await this.consumer.commitOffsets(
      requests.map((r) => ({
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
        metadata: r.metadata ?? undefined,
      })),
    );
  }

  // --- kafkajs events ----------------------------------------------------------------------------------

  private onJoin(consumer: KafkajsConsumer, memberAssignment: Record<string, number[]>): void {
    const assigned = Object.entries(memberAssignment).flatMap(([topic, partitions]) =>
      partitions.map((partition) => ({ topic, partition })),
    );
    this.assigned = assigned;
    this.caughtUp.clear();
    this.options.core.onAssignment(assigned);
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
    this.options.logger?.info({ partitions: assigned.length }, 'assignment received');
  }

  /** Completed offsets above each commit point, so a restart skips records already done. */
  private async loadCommitMetadata(assigned: TopicPartition[]): Promise<void> {
    const topics = [...new Set(assigned.map((tp) => tp.topic))];
    if (topics.length === 0) return;
    const { core } = this.options;
    try {
      const committed = await this.options.admin.fetchOffsets({ groupId: this.options.groupId, topics });
      for (const { topic, partitions } of committed) {
        for (const p of partitions) {
          const tp = { topic, partition: p.partition };
          if (core.owns(tp)) core.setCommittedMetadata(tp, p.offset, p.metadata ?? null);
        }
      }
    } catch (error) {
      // Safe fallback: without the metadata, completed records above the commit point are replayed.
      this.options.logger?.warn({ err: error }, 'could not read commit metadata; completed records may be replayed');
    }
  }

  private async onBatch({ batch, resolveOffset, isStale, isRunning }: KafkajsBatchPayload): Promise<void> {
    if (!isRunning() || isStale() || batch.messages.length === 0) return;
    await this.assignmentReady;
    const { messages } = batch;
    this.options.core.deliver(toSourceRecords(batch.topic, batch.partition, messages), batch.highWatermark);
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
    const { core, clock } = this.options;
    const holdMs = fetchHoldMs(
      this.assigned.map((tp) => {
        const key = tpKey(tp);
        const paused = this.desiredPauses.has(key);
        return { paused, backpressured: paused && core.isBackpressured(tp), caughtUp: this.caughtUp.has(key) };
      }),
      this.fetchWaitMs,
    );
    if (holdMs === null) return;
    await new Promise<void>((resolve) => {
      const timer = clock.setTimeout(() => release(), holdMs);
      const release = () => {
        clock.clearTimeout(timer);
        this.releaseHeldBatch = null;
        resolve();
      };
      this.releaseHeldBatch = release;
    });
  }

  private tryPause(consumer: KafkajsConsumer, tp: TopicPartition): void {
    try {
      consumer.pause([{ topic: tp.topic, partitions: [tp.partition] }]);
    } catch {
      // Re-applied after the next join from desiredPauses.
    }
  }
}

import type {
  ConsumerConfig,
  ConsumerCrashEvent,
  ConsumerEvents,
  ConsumerGroupJoinEvent,
  ConsumerSubscribeTopic,
  FetchOffsetsPartition,
  KafkaMessage,
  TopicPartitionOffsetAndMetadata,
} from 'kafkajs';
import type {
  KafkajsAdmin,
  KafkajsBatchPayload,
  KafkajsClient,
  KafkajsConsumer,
  KafkajsRunConfig,
} from '../kafkajs-adapter.js';

// A small in-memory stand-in for the kafkajs surface the adapter uses (kafkajs-adapter.ts's KafkajsConsumer),
// for unit tests. It models the kafkajs behaviour the adapter depends on, and nothing else:
// - pause, resume, seek and commitOffsets throw unless a consumer group runs (between run() and a crash or
//   disconnect), as kafkajs does ("Consumer group was not initialized");
// - a crash drops the consumer group, asks `retry.restartOnFailure` only for retriable errors and reports
//   `restart` in the CRASH event; the group kafkajs then recreates (`restartAfterCrash`) has forgotten every
//   pause and pending seek;
// - events reach listeners synchronously; eachBatch runs when the test delivers a batch.
// Fetching, heartbeating, the group protocol and the broker are the test's to script; only the real broker
// (`*.it.ts`) shows what kafkajs really does with them.

type Listener = (event: never) => void;

const EVENTS = {
  FETCH_START: 'consumer.fetch_start',
  FETCH: 'consumer.fetch',
  HEARTBEAT: 'consumer.heartbeat',
  REBALANCING: 'consumer.rebalancing',
  GROUP_JOIN: 'consumer.group_join',
  CRASH: 'consumer.crash',
} as const satisfies Partial<ConsumerEvents>;

const tpKey = (topic: string, partition: number) => `${topic}/${partition}`;

export interface FakeBatch {
  topic: string;
  partition: number;
  /** Offsets of the batch's records, in order. */
  offsets: Array<string | number>;
  /** Defaults to one past the last offset (the batch reaches the end of the partition). */
  highWatermark?: string;
  /** kafkajs's isStale(): the batch belongs to a partition that was sought or revoked meanwhile. */
  stale?: boolean;
}

export interface DeliveredBatch {
  /** Offsets the adapter resolved (the fetch position follows them). */
  resolved: string[];
  /** Whether eachBatch has returned (it may be held, see fetch-hold.ts). */
  hasReturned(): boolean;
}

export class FakeAdmin implements KafkajsAdmin {
  connected = false;
  /** Committed offsets and metadata per topic, as fetchOffsets returns them. */
  committed = new Map<string, FetchOffsetsPartition[]>();
  fetchOffsetsError: Error | null = null;
  readonly fetchOffsetsCalls: Array<{ groupId: string; topics?: string[] }> = [];

  connect(): Promise<void> {
    this.connected = true;
    return Promise.resolve();
  }

  disconnect(): Promise<void> {
    this.connected = false;
    return Promise.resolve();
  }

  fetchOffsets(options: {
    groupId: string;
    topics?: string[];
  }): Promise<Array<{ topic: string; partitions: FetchOffsetsPartition[] }>> {
    this.fetchOffsetsCalls.push(options);
    if (this.fetchOffsetsError) return Promise.reject(this.fetchOffsetsError);
    return Promise.resolve(
      (options.topics ?? []).map((topic) => ({ topic, partitions: this.committed.get(topic) ?? [] })),
    );
  }
}

export class FakeKafkajsConsumer implements KafkajsConsumer {
  readonly events = EVENTS;
  connected = false;
  disconnected = false;
  readonly subscriptions: ConsumerSubscribeTopic[] = [];
  /** Pauses of the running consumer group; a recreated group starts with none. */
  readonly paused = new Set<string>();
  /** Seeks handed to the running consumer group, in call order. */
  readonly seeks: Array<{ topic: string; partition: number; offset: string }> = [];
  readonly commits: TopicPartitionOffsetAndMetadata[][] = [];
  /** Makes the next commitOffsets calls reject with this error. */
  commitError: Error | null = null;
  private groupRunning = false;
  private restartPending = false;
  private runConfig: KafkajsRunConfig | null = null;
  private readonly listeners = new Map<string, Listener[]>();

  constructor(
    readonly config: ConsumerConfig,
    private readonly connectError: Error | null,
  ) {}

  on(eventName: ConsumerEvents['FETCH_START'], listener: () => void): () => void;
  on(eventName: ConsumerEvents['FETCH'], listener: () => void): () => void;
  on(eventName: ConsumerEvents['HEARTBEAT'], listener: () => void): () => void;
  on(eventName: ConsumerEvents['REBALANCING'], listener: () => void): () => void;
  on(eventName: ConsumerEvents['GROUP_JOIN'], listener: (event: ConsumerGroupJoinEvent) => void): () => void;
  on(eventName: ConsumerEvents['CRASH'], listener: (event: ConsumerCrashEvent) => void): () => void;
  on(eventName: string, listener: Listener): () => void {
    const list = this.listeners.get(eventName) ?? [];
    list.push(listener);
    this.listeners.set(eventName, list);
    return () => list.splice(list.indexOf(listener), 1);
  }

  connect(): Promise<void> {
    if (this.connectError) return Promise.reject(this.connectError);
    this.connected = true;
    return Promise.resolve();
  }

  subscribe(subscription: ConsumerSubscribeTopic): Promise<void> {
    this.subscriptions.push(subscription);
    return Promise.resolve();
  }

  run(config: KafkajsRunConfig): Promise<void> {
    this.runConfig = config;
    this.startGroup();
    return Promise.resolve();
  }

  pause(topics: Array<{ topic: string; partitions: number[] }>): void {
    this.requireGroup();
    for (const { topic, partitions } of topics) for (const p of partitions) this.paused.add(tpKey(topic, p));
  }

  resume(topics: Array<{ topic: string; partitions: number[] }>): void {
    this.requireGroup();
    for (const { topic, partitions } of topics) for (const p of partitions) this.paused.delete(tpKey(topic, p));
  }

  seek(target: { topic: string; partition: number; offset: string }): void {
    this.requireGroup();
    this.seeks.push(target);
  }

  commitOffsets(offsets: TopicPartitionOffsetAndMetadata[]): Promise<void> {
    this.requireGroup();
    if (this.commitError) return Promise.reject(this.commitError);
    this.commits.push(offsets);
    return Promise.resolve();
  }

  disconnect(): Promise<void> {
    this.groupRunning = false;
    this.restartPending = false;
    this.connected = false;
    this.disconnected = true;
    return Promise.resolve();
  }

  // --- what the test scripts -----------------------------------------------------------------------------

  get running(): boolean {
    return this.groupRunning;
  }

  isPaused(topic: string, partition: number): boolean {
    return this.paused.has(tpKey(topic, partition));
  }

  /** GROUP_JOIN with this assignment; `durationMs` is how long kafkajs reports the join took. */
  join(memberAssignment: Record<string, number[]>, durationMs = 0): void {
    this.emit(EVENTS.GROUP_JOIN, {
      duration: durationMs,
      groupId: this.config.groupId,
      isLeader: true,
      leaderId: 'member-1',
      groupProtocol: 'RoundRobinAssigner',
      memberId: 'member-1',
      memberAssignment,
    });
  }

  rebalancing(): void {
    this.emit(EVENTS.REBALANCING, { groupId: this.config.groupId, memberId: 'member-1' });
  }

  heartbeat(): void {
    this.emit(EVENTS.HEARTBEAT, { groupId: this.config.groupId, memberId: 'member-1', groupGenerationId: 1 });
  }

  fetch(): void {
    this.emit(EVENTS.FETCH_START, { nodeId: 1 });
    this.emit(EVENTS.FETCH, { numberOfBatches: 1, duration: 1, nodeId: 1 });
  }

  /**
   * A crash as kafkajs handles it: the consumer group goes away, `retry.restartOnFailure` decides for a
   * retriable error, CRASH reports the decision. Resolves with it.
   */
  async crash(error: Error, { retriable }: { retriable: boolean }): Promise<boolean> {
    this.groupRunning = false;
    const restart = retriable && ((await this.config.retry?.restartOnFailure?.(error)) ?? true);
    this.restartPending = restart;
    this.emit(EVENTS.CRASH, { error, groupId: this.config.groupId, restart });
    return restart;
  }

  /** kafkajs's own restart after a crash it chose to restart from: a new consumer group, with no pauses. */
  restartAfterCrash(): void {
    if (!this.restartPending) throw new Error('kafkajs restarts only after a crash it decided to restart from');
    this.restartPending = false;
    this.startGroup();
  }

  /** Calls eachBatch as kafkajs's fetcher would, with messages at the given offsets. */
  deliver(batch: FakeBatch): DeliveredBatch {
    const config = this.runConfig;
    if (!config || !this.groupRunning) throw new Error('eachBatch runs only while the consumer group runs');
    const messages: KafkaMessage[] = batch.offsets.map((offset) => ({
      key: null,
      value: Buffer.from(`value-${offset}`),
      timestamp: '0',
      attributes: 0,
      offset: String(offset),
      headers: {},
    }));
    const last = messages.length > 0 ? BigInt(messages[messages.length - 1]!.offset) : -1n;
    const resolved: string[] = [];
    const payload: KafkajsBatchPayload = {
      batch: {
        topic: batch.topic,
        partition: batch.partition,
        highWatermark: batch.highWatermark ?? String(last + 1n),
        messages,
      },
      resolveOffset: (offset) => resolved.push(offset),
      isStale: () => batch.stale === true,
      isRunning: () => this.groupRunning,
    };
    let returned = false;
    void config.eachBatch(payload).then(() => {
      returned = true;
    });
    return { resolved, hasReturned: () => returned };
  }

  private startGroup(): void {
    this.groupRunning = true;
    this.paused.clear();
  }

  private requireGroup(): void {
    if (!this.groupRunning) throw new Error('Consumer group was not initialized, consumer#run must be called first');
  }

  private emit(eventName: string, payload: object): void {
    const event = { id: '0', type: eventName, timestamp: 0, payload };
    for (const listener of [...(this.listeners.get(eventName) ?? [])]) (listener as (e: object) => void)(event);
  }
}

/** The kafkajs client: every consumer() call makes a new fake consumer; one admin for all. */
export class FakeKafka implements KafkajsClient {
  readonly consumers: FakeKafkajsConsumer[] = [];
  readonly adminClient = new FakeAdmin();
  /** The connect() of consumers created from now on rejects with this error (null: connects). */
  connectError: Error | null = null;

  consumer(config: ConsumerConfig): FakeKafkajsConsumer {
    const consumer = new FakeKafkajsConsumer(config, this.connectError);
    this.consumers.push(consumer);
    return consumer;
  }

  admin(): FakeAdmin {
    return this.adminClient;
  }

  /** The consumer created last. */
  get latest(): FakeKafkajsConsumer {
    const consumer = this.consumers[this.consumers.length - 1];
    if (!consumer) throw new Error('no consumer created yet');
    return consumer;
  }
}

import { randomUUID } from 'node:crypto';
import type { Admin, ConsumerConfig, KafkaMessage, ProducerConfig, ProducerRecord, RecordMetadata } from 'kafkajs';
import type { Clock, CoreEvent, TimerHandle, TopicPartition } from '../core/index.js';
import type { ConsumerLogger, Readiness, RebalanceTiming } from '../kafkajs/consumer-types.js';
import type { KafkajsAdmin, KafkajsBatchPayload, KafkajsClient, KafkajsConsumer } from '../kafkajs/kafkajs-adapter.js';
import {
  adminOffsetPorts,
  applyCommand,
  type ApplyCore,
  type ApplyOutcome,
  type ApplyPorts,
  type DeadLetterPort,
  type OffsetAdmin,
} from './apply-command.js';
import { CommandBook } from './command-book.js';
import type { ControlSettings } from './control-options.js';
import { ensureControlTopics, type ControlTopicsAdmin } from './control-topics.js';
import { buildInstanceState, capText, rebalanceStopOf, RecentList } from './instance-state.js';
import { LogLimiter } from './log-limiter.js';
import { PACKAGE_VERSION } from './package-version.js';
import {
  commandKey,
  CONTROL_PROTOCOL_VERSION,
  decodeControlMessage,
  encodeControlMessage,
  MAX_COMMAND_MESSAGE_BYTES,
  MAX_RECENT_ACKS,
  MAX_RECENT_REBALANCES,
  MAX_STATE_MESSAGE_BYTES,
  SIGNATURE_HEADER,
  stateKey,
  ZCommandTopicMessage,
  type ControlTopicNames,
  type TCommandAck,
  type TCommandOutcome,
  type TOperatorCommand,
  type TRebalanceStop,
  type TRefusedCommand,
} from './protocol.js';
import { signControlMessage, verifyControlSignature } from './signing.js';

/** kafkajs's CompressionTypes.GZIP (its codec is built in); a value, so the package imports no kafkajs code. */
const GZIP_COMPRESSION = 1;

// The service side of the control plane (protocol.ts): publishes this instance's state to `<prefix>.state`
// and applies the operator commands it reads from `<prefix>.commands`, on the injected clock.
//
// - State: the whole state every `stateIntervalMs` and soon (coalesced) after a change: a hold appears or
//   goes, an assignment, a measured rebalance stop, a command outcome, a refusal, readiness turning. One
//   producer with one request in flight keeps an instance's records in order; a clean stop ends with a
//   'stopped' state.
// - Commands: a kafkajs consumer of its own group (`<prefix>.commands.<groupId>.<uuid>`) reads the command
//   topic from the beginning and never commits. Commands wait in a CommandBook; waiting commands are examined
//   on a new command, an acknowledgement, an assignment, a hold and every state tick, and applied by
//   applyCommand when this instance owns the partition. Each decision is acknowledged on the command topic, so
//   peers (and a later owner) never apply that command again.
// - With a command key, an unsigned or wrongly signed command is refused and reported, and a peer's
//   acknowledgement that is not validly signed is ignored (it could hide a command); own acks are signed.
// - Failure behaviour: nothing here throws into the consumer. A broker that is away, a refused topic
//   creation, a failed send or a crashed reader is logged (rate-limited) and retried on the next tick; the
//   consumer keeps consuming either way.

/** The producer calls the control plane makes (a kafkajs `Producer` has them). */
export interface ControlProducer {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  send(record: ProducerRecord): Promise<RecordMetadata[]>;
}

/** The admin calls the control plane makes (a kafkajs `Admin` has them). */
export type ControlAdmin = KafkajsAdmin & ControlTopicsAdmin & OffsetAdmin & Pick<Admin, 'deleteGroups'>;

/** The kafkajs client surface the control plane needs: a `Kafka` satisfies it. */
export interface ControlKafkaClient {
  consumer(config: ConsumerConfig): KafkajsConsumer;
  producer(config?: ProducerConfig): ControlProducer;
}

export interface ControlStats {
  /** Records published (states and acknowledgements) and their value bytes. */
  published: number;
  publishedBytes: number;
  statesPublished: number;
  acksPublished: number;
  publishFailures: number;
  /** Commands applied ('done'), and every decision including 'failed' and 'rejected'. */
  commandsApplied: number;
  commandOutcomes: number;
  /** Messages read from the command topic (commands and acknowledgements of every group). */
  commandMessagesRead: number;
  /** Messages on the command topic refused (malformed, unknown version, oversized, badly signed). */
  refused: number;
  waitingCommands: number;
}

/** What a host sees of the control plane: `consumer.control`. */
export interface ConsumerControl {
  readonly instanceId: string;
  readonly topics: ControlTopicNames;
  /** The group of this instance's command reader (`<prefix>.commands.<groupId>.<uuid>`). */
  readonly readerGroupId: string;
  stats(): ControlStats;
}

export interface ControlPlaneOptions {
  kafka: ControlKafkaClient;
  /** Connected by the owner before start() and disconnected after stop(). */
  admin: ControlAdmin;
  settings: ControlSettings;
  groupId: string;
  topics: readonly string[];
  clock: Clock;
  logger?: ConsumerLogger;
  core: ApplyCore;
  readiness(): Readiness;
  assignment(): readonly TopicPartition[];
  deadLetter: DeadLetterPort | null;
  /** The random part of the reader's group id. Default: a random UUID. */
  newId?: () => string;
}

/** A change is published this long after it happened, together with the changes that follow it meanwhile. */
export const STATE_COALESCE_MS = 50;
/** How often readiness is looked at, so a turn is published promptly. */
export const READINESS_CHECK_MS = 1_000;
/** The longest a stop waits for the last acknowledgements and the 'stopped' state to be sent. */
export const STOP_PUBLISH_BUDGET_MS = 5_000;

type Phase = 'new' | 'running' | 'stopping' | 'stopped';

/** The kafkajs client and admin as the control plane needs them; a TypeError names what is missing. */
export function controlSurfaceOf(
  kafka: KafkajsClient,
  admin: KafkajsAdmin,
): { kafka: KafkajsClient & ControlKafkaClient; admin: ControlAdmin } {
  const missing: string[] = [];
  if (typeof (kafka as Partial<ControlKafkaClient>).producer !== 'function') missing.push('kafka.producer()');
  for (const method of [
    'createTopics',
    'listTopics',
    'deleteGroups',
    'fetchTopicOffsets',
    'fetchTopicOffsetsByTimestamp',
  ] as const) {
    if (typeof (admin as Partial<ControlAdmin>)[method] !== 'function') missing.push(`admin.${method}()`);
  }
  if (missing.length > 0)
    throw new TypeError(`the control option needs a kafkajs Kafka client and admin; missing ${missing.join(', ')}`);
  return { kafka: kafka as KafkajsClient & ControlKafkaClient, admin: admin as ControlAdmin };
}

export class ControlPlane implements ConsumerControl {
  readonly instanceId: string;
  readonly topics: ControlTopicNames;
  readonly readerGroupId: string;
  private readonly settings: ControlSettings;
  private readonly clock: Clock;
  private readonly log: LogLimiter;
  private readonly book: CommandBook;
  private readonly ports: ApplyPorts;
  private readonly producer: ControlProducer;
  private readonly startedAtMs: number;
  private readonly outcomes = new RecentList<TCommandOutcome>(MAX_RECENT_ACKS);
  private readonly rebalances = new RecentList<TRebalanceStop>(MAX_RECENT_REBALANCES);
  private readonly refusals = new RecentList<TRefusedCommand>(MAX_RECENT_ACKS);
  private refusedCount = 0;
  private phase: Phase = 'new';
  /** False from beginStop() on: no command is applied any more (it waits for the next owner). */
  private applying = true;
  private topicsReady: boolean;
  private producerReady = false;
  private reader: KafkajsConsumer | null = null;
  private readerCreated = false;
  private connecting: Promise<void> | null = null;
  private tickTimer: TimerHandle | null = null;
  private soonTimer: TimerHandle | null = null;
  private readinessTimer: TimerHandle | null = null;
  private lastReady: boolean | null = null;
  /** Every send, in order (one at a time, so an instance's records stay in order). */
  private sendChain: Promise<void> = Promise.resolve();
  /** A state send queued and not started yet: it builds the newest state when its turn comes. */
  private stateQueued: Promise<void> | null = null;
  private pendingAcks: Array<{ ack: TCommandAck; expiresAtMs: number }> = [];
  private examining: Promise<void> | null = null;
  private examineAgain = false;
  private stopped: Promise<void> | null = null;
  private readonly counters = {
    published: 0,
    publishedBytes: 0,
    statesPublished: 0,
    acksPublished: 0,
    publishFailures: 0,
    commandsApplied: 0,
    commandOutcomes: 0,
    commandMessagesRead: 0,
    refused: 0,
  };

  constructor(private readonly options: ControlPlaneOptions) {
    const { settings, clock } = options;
    this.settings = settings;
    this.clock = clock;
    this.instanceId = settings.instanceId;
    this.topics = settings.topics;
    this.readerGroupId = `${settings.topicPrefix}.commands.${options.groupId}.${(options.newId ?? randomUUID)()}`;
    this.startedAtMs = clock.now();
    this.log = new LogLimiter(options.logger, clock);
    this.book = new CommandBook(clock);
    this.topicsReady = !settings.createTopics;
    this.ports = { core: options.core, deadLetter: options.deadLetter, ...adminOffsetPorts(options.admin) };
    this.producer = options.kafka.producer({
      // One request in flight: an instance's records stay in order. Not idempotent: a service's principal
      // may not have the IdempotentWrite permission, and a repeated state or ack is harmless.
      maxInFlightRequests: 1,
      idempotent: false,
      allowAutoTopicCreation: false,
    });
  }

  // --- lifecycle -----------------------------------------------------------------------------------------

  /** Starts connecting (topics, producer, command reader) and publishing; returns at once, never throws. */
  start(): void {
    if (this.phase !== 'new') return;
    this.phase = 'running';
    this.scheduleTick();
    this.scheduleReadinessCheck();
    this.connect();
  }

  /** No command is applied from now on; commands keep waiting for the next owner. */
  beginStop(): void {
    this.applying = false;
  }

  /**
   * Sends the pending acknowledgements and a last state with status 'stopped' (within
   * STOP_PUBLISH_BUDGET_MS), then the command reader leaves and its group is deleted, and the producer
   * disconnects. Never rejects; failures are logged.
   */
  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  stats(): ControlStats {
    return { ...this.counters, waitingCommands: this.book.waitingCount };
  }

  // --- hooks from the consumer (each returns at once and never throws) ------------------------------------

  /** What the core reported: holds appearing or going change the state and may let a command apply. */
  onCoreEvent(event: CoreEvent): void {
    this.guard(() => {
      if (event.type === 'quarantined' || event.type === 'quarantine-cleared') {
        this.publishSoon();
        this.requestExamine();
      } else if (event.type === 'committed' && this.book.waitingCount > 0) {
        // A commit past a waiting command's record decides it ('rejected').
        this.requestExamine();
      }
    });
  }

  /** A new assignment arrived: ownership changed. */
  onAssignment(): void {
    this.guard(() => {
      this.publishSoon();
      this.requestExamine();
    });
  }

  /** A measured rebalance stop of this member. */
  onRebalance(timing: RebalanceTiming): void {
    this.guard(() => {
      this.rebalances.push(rebalanceStopOf(timing));
      this.publishSoon();
    });
  }

  private connect(): void {
    if (this.connecting || this.phase !== 'running') return;
    this.connecting = this.connectOnce()
      .catch((error: unknown) => this.log.error('connect', { err: error }, 'control plane: connecting failed'))
      .finally(() => {
        this.connecting = null;
      });
  }

  private async connectOnce(): Promise<void> {
    if (!this.topicsReady) {
      const result = await ensureControlTopics(
        this.options.admin,
        this.settings.topicPrefix,
        this.limitedLogger('topics'),
      );
      this.topicsReady = result !== 'failed';
    }
    if (!this.producerReady && this.phase === 'running') {
      try {
        await this.producer.connect();
        this.producerReady = true;
      } catch (error) {
        this.log.warn('producer', { err: error }, 'control plane: the producer could not connect; retrying');
      }
    }
    if (!this.reader && this.phase === 'running') await this.startReader();
    if (this.producerReady && this.phase === 'running') {
      void this.publishState();
      if (this.pendingAcks.length > 0) void this.flushAcks();
    }
  }

  private async startReader(): Promise<void> {
    const reader = this.options.kafka.consumer({
      groupId: this.readerGroupId,
      allowAutoTopicCreation: false,
      retry: { restartOnFailure: async () => this.phase === 'running' && this.reader === reader },
    });
    this.reader = reader;
    this.readerCreated = true;
    reader.on(reader.events.CRASH, (event) => {
      if (this.reader !== reader) return;
      this.log.warn(
        'reader',
        { err: event.payload.error, restart: event.payload.restart },
        'control plane: the command reader crashed',
      );
      if (!event.payload.restart) {
        // kafkajs gave up on it: the next tick starts another one (same group; it reads from the beginning).
        this.reader = null;
        void reader.disconnect().catch(() => undefined);
      }
    });
    try {
      await reader.connect();
      await reader.subscribe({ topic: this.topics.commands, fromBeginning: true });
      await reader.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: (payload) => this.onCommandBatch(payload),
      });
    } catch (error) {
      this.log.warn('reader', { err: error }, 'control plane: the command reader could not start; retrying');
      if (this.reader === reader) this.reader = null;
      await reader.disconnect().catch(() => undefined);
    }
  }

  private async shutdown(): Promise<void> {
    const wasRunning = this.phase === 'running';
    this.applying = false;
    this.phase = 'stopping';
    for (const timer of [this.tickTimer, this.soonTimer, this.readinessTimer])
      if (timer !== null) this.clock.clearTimeout(timer);
    this.tickTimer = this.soonTimer = this.readinessTimer = null;
    if (wasRunning) {
      const published = await this.within(STOP_PUBLISH_BUDGET_MS, async () => {
        await this.connecting;
        // A command being applied finishes, and its outcome is acknowledged and reported.
        await this.examining;
        await this.flushAcks();
        await this.enqueueSend(() => this.sendState('stopped'));
      });
      if (!published)
        this.log.warn('stop', {}, `control plane: the last state was not sent within ${STOP_PUBLISH_BUDGET_MS} ms`);
    }
    const reader = this.reader;
    this.reader = null;
    if (reader)
      await reader
        .disconnect()
        .catch((error: unknown) =>
          this.log.warn('stop', { err: error }, 'control plane: the command reader did not leave cleanly'),
        );
    if (this.readerCreated) {
      try {
        await this.options.admin.deleteGroups([this.readerGroupId]);
      } catch (error) {
        this.log.warn(
          'delete-group',
          { err: error, groupId: this.readerGroupId },
          'control plane: could not delete the command reader group',
        );
      }
    }
    await this.producer
      .disconnect()
      .catch((error: unknown) =>
        this.log.warn('stop', { err: error }, 'control plane: the producer did not disconnect cleanly'),
      );
    this.phase = 'stopped';
  }

  // --- timers --------------------------------------------------------------------------------------------

  private scheduleTick(): void {
    this.tickTimer = this.clock.setTimeout(() => this.onTick(), this.settings.stateIntervalMs);
  }

  private onTick(): void {
    this.tickTimer = null;
    if (this.phase !== 'running') return;
    this.guard(() => {
      if (!this.topicsReady || !this.producerReady || !this.reader) this.connect();
      void this.publishState();
      if (this.pendingAcks.length > 0) void this.flushAcks();
      this.requestExamine();
    });
    this.scheduleTick();
  }

  private scheduleReadinessCheck(): void {
    this.readinessTimer = this.clock.setTimeout(() => {
      this.readinessTimer = null;
      if (this.phase !== 'running') return;
      this.guard(() => {
        const ready = this.options.readiness().ready;
        if (this.lastReady !== null && ready !== this.lastReady) this.publishSoon();
        this.lastReady = ready;
      });
      this.scheduleReadinessCheck();
    }, READINESS_CHECK_MS);
  }

  private publishSoon(): void {
    if (this.phase !== 'running' || this.soonTimer !== null) return;
    this.soonTimer = this.clock.setTimeout(() => {
      this.soonTimer = null;
      void this.publishState();
    }, STATE_COALESCE_MS);
  }

  // --- publishing ----------------------------------------------------------------------------------------

  /** Queues a state send unless one is queued already (it will carry this change too). */
  private publishState(): Promise<void> {
    this.stateQueued ??= this.enqueueSend(() => {
      this.stateQueued = null;
      return this.sendState('running');
    });
    return this.stateQueued;
  }

  private async sendState(status: 'running' | 'stopped'): Promise<void> {
    if (!this.producerReady) return;
    const { core, groupId } = this.options;
    const { bytes } = buildInstanceState({
      identity: {
        groupId,
        instanceId: this.instanceId,
        clientId: this.settings.clientId,
        host: this.settings.host,
        pid: this.settings.pid,
        packageVersion: PACKAGE_VERSION,
        startedAtMs: this.startedAtMs,
        stateIntervalMs: this.settings.stateIntervalMs,
        topics: this.options.topics,
      },
      publishedAtMs: this.clock.now(),
      status,
      readiness: this.options.readiness(),
      assignment: this.options.assignment(),
      partitions: core.snapshot().partitions,
      rebalances: this.rebalances.items,
      outcomes: this.outcomes.items,
      refused: { count: this.refusedCount, recent: this.refusals.items },
    });
    if (bytes.length > MAX_STATE_MESSAGE_BYTES) {
      this.log.error(
        'state-size',
        { bytes: bytes.length },
        'control plane: the state does not fit the limit; not sent',
      );
      return;
    }
    try {
      await this.producer.send({
        topic: this.topics.state,
        // A state repeats topic names and field names across partitions: gzip takes it to about an eighth on
        // the wire and on disk. Every Kafka client decompresses a batch by itself; readers see plain JSON.
        compression: GZIP_COMPRESSION,
        messages: [{ key: stateKey(groupId, this.instanceId), value: bytes }],
      });
      this.counters.published++;
      this.counters.statesPublished++;
      this.counters.publishedBytes += bytes.length;
    } catch (error) {
      this.counters.publishFailures++;
      this.log.warn('state', { err: error }, 'control plane: publishing the state failed; retrying on the next tick');
    }
  }

  /** Sends every pending acknowledgement whose command has not expired; failed ones stay pending. */
  private flushAcks(): Promise<void> {
    return this.enqueueSend(async () => {
      const nowMs = this.clock.now();
      this.pendingAcks = this.pendingAcks.filter((pending) => pending.expiresAtMs > nowMs);
      if (!this.producerReady || this.pendingAcks.length === 0) return;
      const sending = [...this.pendingAcks];
      const key = this.settings.commandKey;
      const messages = sending.map(({ ack }) => {
        const value = encodeControlMessage(ack);
        return {
          key: commandKey(ack),
          value,
          headers: key === null ? undefined : { [SIGNATURE_HEADER]: signControlMessage(value, key) },
        };
      });
      try {
        await this.producer.send({ topic: this.topics.commands, messages });
        this.pendingAcks = this.pendingAcks.filter((pending) => !sending.includes(pending));
        this.counters.published += messages.length;
        this.counters.acksPublished += messages.length;
        this.counters.publishedBytes += messages.reduce((sum, m) => sum + m.value.length, 0);
      } catch (error) {
        this.counters.publishFailures++;
        this.log.warn(
          'ack',
          { err: error },
          'control plane: publishing acknowledgements failed; retrying on the next tick',
        );
      }
    });
  }

  private enqueueSend(send: () => Promise<void>): Promise<void> {
    const next = this.sendChain
      .then(send)
      .catch((error: unknown) => this.log.error('send', { err: error }, 'control plane: a send failed'));
    this.sendChain = next;
    return next;
  }

  // --- the command topic -----------------------------------------------------------------------------------

  /** Reads a batch of the command topic; never throws into kafkajs (a throw would crash the reader). */
  private onCommandBatch({ batch, resolveOffset, isRunning, isStale }: KafkajsBatchPayload): Promise<void> {
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) break;
      this.guard(() => this.onCommandMessage(message));
      this.counters.commandMessagesRead++;
      resolveOffset(message.offset);
    }
    this.requestExamine();
    return Promise.resolve();
  }

  private onCommandMessage(message: KafkaMessage): void {
    const { groupId } = this.options;
    const decoded = decodeControlMessage(message.value, ZCommandTopicMessage, MAX_COMMAND_MESSAGE_BYTES);
    if (!decoded.ok) {
      // Another group's message is that group's to report.
      if (message.key && !message.key.toString('utf8').startsWith(`${groupId}/`)) return;
      this.refuse(readableCommandId(message.value), decoded.reason);
      return;
    }
    const read = decoded.message;
    if (read.groupId !== groupId) return;
    const key = this.settings.commandKey;
    if (key !== null) {
      const header = message.headers?.[SIGNATURE_HEADER];
      const problem = Array.isArray(header)
        ? `several ${SIGNATURE_HEADER} headers`
        : verifyControlSignature(message.value ?? Buffer.alloc(0), header, key);
      if (problem !== null) {
        if (read.type === 'command') this.refuse(read.id, problem);
        else
          this.log.warn(
            'forged-ack',
            { commandId: read.commandId, instanceId: read.instanceId, problem },
            'control plane: ignored an acknowledgement that is not validly signed',
          );
        return;
      }
    }
    if (read.type === 'ack') {
      this.book.decide(read.commandId);
      return;
    }
    this.book.add(read);
  }

  private refuse(commandId: string | null, reason: string): void {
    this.refusedCount++;
    this.counters.refused++;
    this.refusals.push({
      atMs: Math.max(0, Math.round(this.clock.now())),
      commandId: commandId === null ? null : capText(commandId, 512),
      reason: capText(reason, 1_024),
    });
    this.log.warn('refused', { commandId, reason }, 'control plane: refused a message on the command topic');
    this.publishSoon();
  }

  // --- applying ------------------------------------------------------------------------------------------

  /**
   * Examines the waiting commands soon (in a microtask, never inside the core call that reported a change),
   * one examination at a time; a request during one runs another after it.
   */
  private requestExamine(): void {
    if (!this.applying || this.phase !== 'running') return;
    if (this.examining) {
      this.examineAgain = true;
      return;
    }
    this.examineAgain = false;
    this.examining = (async () => {
      await Promise.resolve();
      await this.examineWaiting();
    })()
      .catch((error: unknown) => this.log.error('examine', { err: error }, 'control plane: examining commands failed'))
      .finally(() => {
        this.examining = null;
        if (this.examineAgain) this.requestExamine();
      });
  }

  private async examineWaiting(): Promise<void> {
    do {
      this.examineAgain = false;
      for (const command of this.book.waiting()) {
        if (!this.applying) return;
        if (this.book.isDecided(command.id)) continue;
        const outcome = await applyCommand(command, this.ports);
        if (outcome !== null) this.decided(command, outcome);
      }
    } while (this.examineAgain && this.applying);
  }

  private decided(command: TOperatorCommand, outcome: ApplyOutcome): void {
    this.book.decide(command.id);
    const atMs = Math.max(0, Math.round(this.clock.now()));
    const { id: commandId, action, topic, partition } = command;
    this.outcomes.push({
      commandId,
      action,
      topic,
      partition,
      status: outcome.status,
      outcome: capText(outcome.outcome, 4_096),
      ...(outcome.liftedOffset === undefined ? {} : { liftedOffset: outcome.liftedOffset }),
      ...(outcome.seekOffset === undefined ? {} : { seekOffset: outcome.seekOffset }),
      appliedAtMs: atMs,
    });
    this.counters.commandOutcomes++;
    if (outcome.status === 'done') this.counters.commandsApplied++;
    this.options.logger?.info(
      { commandId, action, topic, partition, status: outcome.status, outcome: outcome.outcome },
      'control plane: decided an operator command',
    );
    this.pendingAcks.push({
      ack: {
        v: CONTROL_PROTOCOL_VERSION,
        type: 'ack',
        commandId,
        groupId: this.options.groupId,
        topic,
        partition,
        instanceId: this.instanceId,
        status: outcome.status,
        atMs,
      },
      expiresAtMs: command.expiresAtMs,
    });
    void this.flushAcks();
    this.publishSoon();
  }

  // --- helpers ---------------------------------------------------------------------------------------------

  /** Runs `fn`; a throw is logged, never passed to the caller (the consumer's event paths). */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.log.error('hook', { err: error }, 'control plane: an internal step failed');
    }
  }

  /** Runs `work` and says whether it ended within `ms` (it keeps running in the background otherwise). */
  private within(ms: number, work: () => Promise<void>): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.clock.setTimeout(() => resolve(false), ms);
      const done = () => {
        this.clock.clearTimeout(timer);
        resolve(true);
      };
      work().then(done, done);
    });
  }

  /** A ConsumerLogger whose warnings and errors go through the rate limit under `kind`. */
  private limitedLogger(kind: string): ConsumerLogger {
    return {
      info: (obj, msg) => this.options.logger?.info(obj, msg),
      warn: (obj, msg) => this.log.warn(kind, obj, msg ?? ''),
      error: (obj, msg) => this.log.error(kind, obj, msg ?? ''),
    };
  }
}

/** The `id` of a refused command when its value is JSON naming one; null otherwise. */
function readableCommandId(value: Buffer | null): string | null {
  if (!value || value.length > 1024 * 1024) return null;
  try {
    const parsed: unknown = JSON.parse(value.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { id } = parsed as { id?: unknown };
    return typeof id === 'string' && id.length > 0 ? id : null;
  } catch {
    return null;
  }
}

import { hostname } from 'node:os';
import type { ConsumerConfig } from 'kafkajs';
import { resolveControlSettings, type ControlOptions } from '../control/control-options.js';
import { ControlPlane, controlSurfaceOf, type ConsumerControl } from '../control/control-plane.js';
import { ConsumerCore, type ConsumerCoreOptions } from '../core/index.js';
import type { Clock, SourcePort, StallInfo, TopicPartition } from '../core/index.js';
import type { ConsumerLogger, Readiness, RebalanceTiming } from './consumer-types.js';
import { classifyCommitError } from './classify-commit-error.js';
import { ConsumerSupervisor } from './consumer-supervisor.js';
import { KafkajsAdapter, type KafkajsAdmin, type KafkajsClient } from './kafkajs-adapter.js';
import { ReadinessTracker } from './readiness-tracker.js';
import { RebalanceTimer } from './rebalance-timing.js';

// The library entry point (`createConsumer`): the pure ConsumerCore wired to kafkajs. Each concern is its own
// module on the injected clock: kafkajs-adapter.ts (the kafkajs consumer, its events, eachBatch and the
// core's SourcePort), consumer-supervisor.ts (rebuild after silence), readiness-tracker.ts (/readyz) and
// rebalance-timing.ts (how long each join stopped this member), and with the `control` option the control
// plane (control/control-plane.ts: state to Warden, operator commands from it). This class owns their
// lifecycle: start and stop order, and what a fatal core stops.

export type WardenConsumerOptions<T> = Omit<ConsumerCoreOptions<T>, 'source' | 'clock' | 'random'> & {
  /**
   * A kafkajs `Kafka` client (anything with its `consumer()` and `admin()`; with `control`, also its
   * `producer()`, and an admin with createTopics, listTopics, deleteGroups, fetchTopicOffsets and
   * fetchTopicOffsetsByTimestamp).
   */
  kafka: KafkajsClient;
  groupId: string;
  topics: string[];
  /** Where a group with no commit starts. Default true (earliest: loses nothing). */
  fromBeginning?: boolean;
  /** Shared admin client for reading commit metadata; one is created when omitted. */
  admin?: KafkajsAdmin;
  logger?: ConsumerLogger;
  /**
   * Ready only while fetches or heartbeats happened within this window and, while the core holds unfinished
   * records outside quarantine, some record completed within it. Keep it above the longest handler call
   * when calls are that long. Default 20 s.
   */
  readinessWindowMs?: number;
  /** With no progress for this long, the kafkajs consumer is torn down and rebuilt. Default 45 s. */
  restartAfterMs?: number;
  kafkaConsumerConfig?: Omit<ConsumerConfig, 'groupId'>;
  /** Time for the core, the supervisor, readiness, rebalance timing and the fetch hold. Default: the system's. */
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
  /**
   * The control plane over Kafka (docs/control-protocol.md): this instance publishes its state to
   * `<topicPrefix>.state` and applies Warden's operator commands from `<topicPrefix>.commands`. Absent: off,
   * and the consumer produces nothing and creates no topic.
   */
  control?: ControlOptions;
};

const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

const DEFAULT_READINESS_WINDOW_MS = 20_000;
const DEFAULT_RESTART_AFTER_MS = 45_000;
/** Supervision ticks at most this far apart, and at least twice per readiness window. */
const MAX_SUPERVISION_INTERVAL_MS = 5_000;

export class WardenConsumer<T> {
  readonly core: ConsumerCore<T>;
  private readonly adapter: KafkajsAdapter;
  private readonly supervisor: ConsumerSupervisor;
  private readonly readinessTracker: ReadinessTracker;
  private readonly rebalanceTimer: RebalanceTimer;
  private readonly admin: KafkajsAdmin;
  private readonly ownsAdmin: boolean;
  private readonly controlPlane: ControlPlane | null = null;
  private stopping = false;

  constructor(private readonly options: WardenConsumerOptions<T>) {
    const clock = options.clock ?? systemClock;
    const logger = options.logger;
    const readinessWindowMs = options.readinessWindowMs ?? DEFAULT_READINESS_WINDOW_MS;
    this.ownsAdmin = options.admin === undefined;
    this.admin = options.admin ?? options.kafka.admin();
    this.readinessTracker = new ReadinessTracker(clock, readinessWindowMs);
    this.rebalanceTimer = new RebalanceTimer(
      clock,
      (timing) => {
        this.controlPlane?.onRebalance(timing);
        options.onRebalance?.(timing);
      },
      logger,
    );
    // The core needs its source at construction and the adapter needs the core: the port forwards.
    const source: SourcePort = {
      pause: (tp) => this.adapter.pause(tp),
      resume: (tp) => this.adapter.resume(tp),
      seek: (tp, offset) => this.adapter.seek(tp, offset),
      commit: (requests) => this.adapter.commit(requests),
    };
    this.core = new ConsumerCore<T>({
      classifyCommitError,
      ...options,
      source,
      clock,
      random: Math.random,
      onEvent: (event) => {
        this.controlPlane?.onCoreEvent(event);
        options.onEvent?.(event);
        if (event.type === 'fatal') this.onCoreFatal(event.reason);
      },
    });
    this.adapter = new KafkajsAdapter({
      kafka: options.kafka,
      admin: this.admin,
      groupId: options.groupId,
      topics: options.topics,
      fromBeginning: options.fromBeginning ?? true,
      kafkaConsumerConfig: options.kafkaConsumerConfig,
      core: this.core,
      clock,
      logger,
      events: {
        onProgress: () => this.readinessTracker.progress(),
        onRebalancing: () => this.rebalanceTimer.stopped('rebalance'),
        onJoin: (payload, before, after) => {
          this.readinessTracker.joinedGroup();
          this.rebalanceTimer.joined(payload, before, after);
          this.controlPlane?.onAssignment();
        },
        onCrash: (reason) => {
          this.rebalanceTimer.stopped('join');
          this.readinessTracker.crashed(reason);
        },
      },
    });
    this.supervisor = new ConsumerSupervisor({
      clock,
      intervalMs: Math.min(MAX_SUPERVISION_INTERVAL_MS, readinessWindowMs / 2),
      restartAfterMs: options.restartAfterMs ?? DEFAULT_RESTART_AFTER_MS,
      silentMs: () => this.readinessTracker.silentMs(),
      onTick: () => {
        const stalls = this.core.stalls();
        if (stalls.length > 0) this.options.onStalls?.(stalls);
      },
      rebuild: () => this.rebuild(),
      onRebuildFailed: (error) =>
        this.readinessTracker.crashed(`restart failed: ${error instanceof Error ? error.message : String(error)}`),
      logger,
    });
    if (options.control) {
      const settings = resolveControlSettings(options.control, {
        groupId: options.groupId,
        host: hostname(),
        pid: process.pid,
      });
      const surface = controlSurfaceOf(options.kafka, this.admin);
      const deadLetter = options.deadLetter;
      this.controlPlane = new ControlPlane({
        kafka: surface.kafka,
        admin: surface.admin,
        settings,
        groupId: options.groupId,
        topics: options.topics,
        clock,
        logger,
        core: this.core,
        readiness: () => this.readiness(),
        assignment: () => this.adapter.assignment,
        deadLetter: deadLetter ? { name: settings.deadLetterName, write: deadLetter } : null,
      });
    }
  }

  /** The control plane (its identity and counters); null when the `control` option is absent. */
  get control(): ConsumerControl | null {
    return this.controlPlane;
  }

  /**
   * Connects and starts consuming; resolves once kafkajs runs (not when the first assignment arrives). The
   * control plane starts connecting first and never delays or fails the start; a failed start stops it again.
   */
  async start(): Promise<void> {
    if (this.ownsAdmin) await this.admin.connect();
    this.controlPlane?.start();
    try {
      await this.adapter.connect();
    } catch (error) {
      await this.controlPlane?.stop();
      throw error;
    }
    this.supervisor.start();
  }

  /**
   * Stops fetching, drains running work up to `deadlineMs`, commits the watermark, then the control plane
   * publishes its last ('stopped') state and leaves, then the consumer disconnects. Commits happen before
   * kafkajs's stop(), after which they would throw. No operator command is applied once the stop began.
   */
  async stop(deadlineMs: number): Promise<void> {
    this.stopping = true;
    this.controlPlane?.beginStop();
    this.adapter.beginStop();
    await this.supervisor.stop();
    this.adapter.pauseAssigned();
    const drained = await this.core.drain(deadlineMs);
    if (drained.timedOut) {
      this.options.logger?.warn(
        { abandonedCalls: drained.abandonedCalls },
        'drain deadline passed; unfinished records will be redelivered',
      );
    }
    await this.controlPlane?.stop();
    await this.adapter.disconnect();
    if (this.ownsAdmin) await this.admin.disconnect().catch(() => undefined);
  }

  /**
   * Ready only while the consume loop demonstrably makes progress: a join, fetch or heartbeat within the
   * window, and a completion within it while records are held. A fatal core, a crash not yet followed by a
   * join, silence, or held work that completes nothing all report not ready, so a consumer that stopped
   * polling or cannot finish anything is never reported healthy.
   */
  readiness(): Readiness {
    return this.readinessTracker.readiness({
      fatalReason: this.core.fatalReason,
      assignedPartitions: this.adapter.assignment.length,
      work: this.core.workProgress(),
    });
  }

  get assignment(): readonly TopicPartition[] {
    return this.adapter.assignment;
  }

  get restartCount(): number {
    return this.supervisor.restartCount;
  }

  /** Tears the kafkajs consumer down and starts a new one; the core rewinds as for a rebalance. */
  private async rebuild(): Promise<void> {
    this.rebalanceTimer.stopped('join');
    void this.core.onRebalanceStart();
    await this.adapter.detach();
    this.readinessTracker.rebuilt();
    await this.adapter.connect();
  }

  /** Stops fetching everything at once; undecided input stays uncommitted for the next owner. */
  private onCoreFatal(reason: string): void {
    this.adapter.releaseHold();
    if (this.stopping) return;
    this.adapter.pauseAssigned();
    this.options.onFatal?.(reason);
  }
}

/** Library entry point: a partition-isolating consumer running `handle` for every admitted record. */
export function createConsumer<T>(options: WardenConsumerOptions<T>): WardenConsumer<T> {
  return new WardenConsumer(options);
}

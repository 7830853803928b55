import type pg from 'pg';
import { nodePostgresPool, type Database } from '../../lib/db';
import { PeriodicTask } from '../periodic-task';
import type { ClusterReaderPort, RecordRead } from '../../lib/kafka/cluster-reader';
import { retentionRisk, type RetentionRule } from '../../lib/lag/retention-risk';
import type { LockAttempt } from './leader-lock';
import { IdleGroupFilter } from './idle-group-filter';
import { insertLagSamples } from './lag-sample-store';
import { LogEndPointStore } from './log-end-point-store';
import { inferredRebalanceRow, rebalanceEventData, type RebalanceRow } from './rebalance-rows';
import { runMaintenance } from './retention';
import { nextRoundDelayMs } from './round-schedule';
import type { LossIncrement } from './record-loss';
import { RecordLossStore } from './record-loss-store';
import { SamplerGapStore } from './sampler-gap-store';
import { SamplerState, type LagSampleRow, type SamplerStateOptions } from './sampler-state';
import type { ConsumerLogger } from '../shared/worker-types';
import { TopicRetentionStore } from './topic-retention-store';
import { positionFromSample, TOPIC_SETTINGS_INTERVAL_MS, TopicSettingsTracker } from './topic-settings';

/** The leader lock as the sampler uses it (LeaderLock implements it; ShardLeases in sharded mode). */
export interface LeaderLockPort {
  tryAcquire(): Promise<LockAttempt>;
  release(): Promise<void>;
  readonly isHeld: boolean;
  /**
   * Sharded sampling (shard-leases.ts): the groups the next round samples, asked once per round after
   * tryAcquire; absent: every group. A sharded holder loads the persisted log-end points of the topics its
   * groups read (not the whole cluster's, which other holders keep) and reloads them whenever `generation`
   * changes (it gained a shard).
   */
  groupFilter?(): (groupId: string) => boolean;
  readonly generation?: number;
  /** Whether this holder runs the cluster-wide maintenance; absent: every holder does. */
  readonly runsMaintenance?: boolean;
}

export interface LagSamplerOptions {
  /** The cluster `reader` reads: every row this sampler writes carries it, and its outages are its own gaps. */
  cluster: string;
  reader: ClusterReaderPort;
  /**
   * A client of createDatabase for the sampler alone (its own small pool, so the pipeline's writes never wait
   * on it): the bulk writes (lag_sample, log_end_point) use COPY on its node-postgres pool, the rest Prisma.
   */
  db: Database;
  /** null: this instance always samples (a single worker, tests, benchmarks). */
  lock: LeaderLockPort | null;
  instanceId: string;
  intervalMs: number;
  /**
   * An unchanged group is stored again only after this long (idle-group-filter.ts). Default 0: every round is
   * stored (tests, backtests); the worker passes SAMPLE_IDLE_STORE_MS.
   */
  idleStoreMs?: number;
  maxBackoffMs: number;
  state: SamplerStateOptions;
  retention: { rawDays: number; rollupDays: number };
  /** Rollup and retention cadence. Default 60 s. */
  maintenanceIntervalMs?: number;
  /**
   * How often the retention settings of every topic the sampled groups read are read again (a new topic is
   * read in the round it appears). Default TOPIC_SETTINGS_INTERVAL_MS (60 s).
   */
  topicSettingsIntervalMs?: number;
  /** Whether this sampler runs the rollups and retention, which cover every cluster's rows. Default true. */
  runsMaintenance?: boolean;
  logger?: ConsumerLogger;
  /** Told after every round sampleOnce runs (metrics); must not throw. */
  onRound?: (outcome: RoundOutcome) => void;
  now?: () => number;
  random?: () => number;
}

export interface SamplerStats {
  leader: boolean;
  rounds: number;
  failedRounds: number;
  consecutiveFailures: number;
  /** Rounds not run: the lock could not be asked or the state could not be loaded (Postgres down). */
  skippedRounds: number;
  rowsWritten: number;
  /** lag_sample rows read from the cluster but not written (Postgres down). */
  rowsDropped: number;
  rebalancesWritten: number;
  rebalancesDropped: number;
  lastRoundMs: number | null;
  lastError: string | null;
}

export interface RoundResult {
  /** Every group's rows of the round (metrics read them all). */
  rows: LagSampleRow[];
  /** Rows stored: the groups that changed or were due (idle-group-filter.ts); 0 when not written. */
  storedRows: number;
  rebalances: RebalanceRow[];
  /** Whether the rows reached Postgres. */
  written: boolean;
  /** Groups, offsets and watermarks from the cluster. */
  clusterReadMs: number;
  /** Records read for exact time lag, and topic settings read beside them when due (0 when neither was). */
  exactReadMs: number;
  /** Turning the observation into rows and rebalances (CPU). */
  computeMs: number;
  /** lag_sample, rebalance_event, log_end_point, topic_retention and record_loss writes. */
  writeMs: number;
  durationMs: number;
  /**
   * Partitions whose unread records Kafka's retention is set to delete (retention-risk.ts 'at-risk', over the
   * round's rows and the cached topic settings); partitions without settings yet are left out.
   */
  retentionRisks: PartitionRetentionRisk[];
  /** Records found deleted unread this round, as written to record_loss; empty when not written. */
  losses: LossIncrement[];
}

/** One partition's window of deletion of records its group has not read, from the round's time. */
export interface PartitionRetentionRisk {
  groupId: string;
  topic: string;
  partition: number;
  /** The earliest the oldest unread record can be deleted (0: at any moment); null: unknown. */
  earliestMs: number | null;
  /** By when it will have been deleted if nothing changes; null: no bound. */
  latestMs: number | null;
  rules: RetentionRule[];
}

/** A finished round: its result, or null when the cluster could not be read. */
export interface RoundOutcome {
  result: RoundResult | null;
  durationMs: number;
}

const MAX_PENDING_REBALANCES = 1_000;

/**
 * The cluster-wide lag sampler. Every interval, the instance holding the leader lock reads every sampled
 * group (cluster-reader.ts), turns the round into lag_sample rows with time lag and rates plus inferred
 * rebalances (sampler-state.ts), and writes them with a few batched statements; about once a minute it rolls
 * up and applies retention (retention.ts). Instances without the lock try to take it every interval.
 * Retention of the watched topics: about once a minute it reads their retention settings (topic-settings.ts,
 * written to topic_retention when changed), judges each lagging partition's deletion window by them
 * (lib/lag/retention-risk.ts; RoundResult.retentionRisks), and records unread records Kafka deleted
 * (record-loss.ts, record_loss).
 *
 * Failure behaviour (it never throws out of its loop, and never touches the consumer core):
 * - cluster unreadable (broker down): the round fails, the sampler retries with exponential backoff
 *   (round-schedule.ts) and records the outage in sampler_gap until a round succeeds;
 * - Postgres down: the round's rows are dropped and counted (stats), inferred rebalances are kept for the
 *   next round (bounded), log-end points stay queued in memory; a follower that cannot ask for the lock
 *   skips the round and counts it;
 * - leadership lost (its lock session died): it stops sampling at once and competes again next interval;
 * - topic settings unreadable: a refused topic is stored with its reason, a failed request keeps the settings
 *   read before, and neither fails the round; a failed topic_retention or record_loss write is logged and
 *   written again next round.
 * Rounds never overlap.
 */
export class LagSampler {
  private readonly loop: PeriodicTask;
  private state: SamplerState;
  private stateLoaded = false;
  private leading = false;
  private lastMaintenanceMs = Number.NEGATIVE_INFINITY;
  private pendingRebalances: RebalanceRow[] = [];
  /** Sharded: the groups this round samples, and whether the log-end points of its topics are still to load. */
  private groupFilter: ((groupId: string) => boolean) | undefined;
  private scopedPointsGeneration: number | null = null;
  private scopedPointsLoaded = false;
  private idleGroups: IdleGroupFilter;
  private topicSettings: TopicSettingsTracker;
  /** The last warning about settings that could not be read, so a lasting refusal is logged once. */
  private lastSettingsWarning: string | null = null;
  private readonly topicRetention: TopicRetentionStore;
  private readonly losses: RecordLossStore;
  private readonly points: LogEndPointStore;
  private readonly pool: pg.Pool;
  private readonly gaps: SamplerGapStore;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly counters: Omit<SamplerStats, 'leader'> = {
    rounds: 0,
    failedRounds: 0,
    consecutiveFailures: 0,
    skippedRounds: 0,
    rowsWritten: 0,
    rowsDropped: 0,
    rebalancesWritten: 0,
    rebalancesDropped: 0,
    lastRoundMs: null,
    lastError: null,
  };

  constructor(private readonly options: LagSamplerOptions) {
    this.state = new SamplerState(options.state);
    this.idleGroups = new IdleGroupFilter(options.idleStoreMs ?? 0);
    this.topicSettings = this.newTopicSettings();
    this.pool = nodePostgresPool(options.db);
    this.points = new LogEndPointStore(this.pool, options.cluster);
    this.topicRetention = new TopicRetentionStore(this.pool, options.cluster);
    this.losses = new RecordLossStore(this.pool, options.cluster);
    this.gaps = new SamplerGapStore(options.db, options.instanceId, options.cluster);
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.loop = new PeriodicTask(() => this.tick(), {
      intervalMs: options.intervalMs,
      onError: (error) => options.logger?.error({ err: error }, 'sampler step failed unexpectedly'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops the loop, waits for a running round, gives the lock up and disconnects from the cluster. */
  async stop(): Promise<void> {
    await this.loop.stop();
    if (this.leading) await this.gaps.abandon(new Date(this.now()));
    this.leading = false;
    await this.options.lock?.release();
    await this.options.reader.disconnect();
  }

  stats(): SamplerStats {
    return { leader: this.isLeader, ...this.counters };
  }

  /** Leading: it won the lock and its lock session is still alive. */
  get isLeader(): boolean {
    return this.leading && (this.options.lock?.isHeld ?? true);
  }

  /**
   * One loop step: compete for (or confirm) leadership, then sample as leader. Returns the delay before the
   * next step. Never throws.
   */
  async tick(): Promise<number> {
    const { intervalMs, maxBackoffMs, lock } = this.options;
    if (lock) {
      const attempt = await lock.tryAcquire();
      if (attempt !== 'leader') {
        if (this.leading) await this.loseLeadership(attempt);
        if (attempt === 'unavailable') this.counters.skippedRounds += 1;
        return intervalMs;
      }
    }
    if (!this.leading) this.gainLeadership();
    this.groupFilter = lock?.groupFilter?.();
    if (this.groupFilter && this.scopedPointsGeneration !== (lock?.generation ?? 0)) {
      this.scopedPointsGeneration = lock?.generation ?? 0;
      this.scopedPointsLoaded = false;
    }
    if (!this.stateLoaded && this.groupFilter) this.stateLoaded = true; // loaded per topic inside the round
    if (!this.stateLoaded) {
      try {
        const loaded = await this.points.load(this.state.points, this.options.state.timeLagPoints);
        this.stateLoaded = true;
        this.options.logger?.info({ points: loaded }, 'sampler leads: log-end points loaded');
      } catch (error) {
        this.counters.skippedRounds += 1;
        this.counters.lastError = describe(error);
        this.options.logger?.warn({ err: error }, 'sampler could not load its log-end points; round skipped');
        return intervalMs;
      }
    }
    const started = this.now();
    try {
      await this.sampleOnce();
    } catch {
      // Counted and recorded by sampleOnce; the schedule below backs off.
    }
    await this.maintainIfDue();
    return nextRoundDelayMs({
      consecutiveFailures: this.counters.consecutiveFailures,
      intervalMs,
      maxBackoffMs,
      roundDurationMs: this.now() - started,
      random: this.random,
    });
  }

  /**
   * One round regardless of the lock (the loop calls it as leader; tests and benchmarks call it directly;
   * only the loop loads the persisted log-end points first). Throws when the cluster cannot be read (after
   * counting it and recording the gap); a Postgres failure does not throw: the result says written: false.
   */
  async sampleOnce(): Promise<RoundResult> {
    const started = this.now();
    let prepared;
    let reads;
    let clusterReadMs: number;
    let exactReadMs: number;
    let computeMs: number;
    try {
      const observation = await this.options.reader.readCluster(this.groupFilter);
      clusterReadMs = this.now() - started;
      if (this.groupFilter && !this.scopedPointsLoaded)
        await this.loadScopedPoints(observation.topics ?? observation.watermarks.map((w) => w.topic));
      const computeStarted = this.now();
      prepared = this.state.prepareRound(observation, this.now());
      computeMs = this.now() - computeStarted;
      const exactStarted = this.now();
      // The settings read never fails the round (refreshTopicSettings keeps what it had).
      [reads] = await Promise.all([
        prepared.reads.length > 0 ? this.options.reader.readRecordTimestamps(prepared.reads) : ([] as RecordRead[]),
        this.refreshTopicSettings(observation.topics ?? observation.watermarks.map((w) => w.topic), prepared.nowMs),
      ]);
      exactReadMs = this.now() - exactStarted;
    } catch (error) {
      this.counters.failedRounds += 1;
      this.counters.consecutiveFailures += 1;
      this.counters.lastError = describe(error);
      if (this.counters.consecutiveFailures === 1) {
        this.options.logger?.warn({ err: error }, 'sampler cannot read the cluster; backing off and recording the gap');
      }
      await this.gaps.roundFailed(new Date(started), error as Error);
      this.options.onRound?.({ result: null, durationMs: this.now() - started });
      throw error;
    }
    const completeStarted = this.now();
    const rows = this.state.completeRound(prepared, reads);
    this.topicSettings.observeRecordSizes(reads);
    const retentionRisks = this.retentionRisks(rows);
    const readDone = this.now();
    computeMs += readDone - completeStarted;
    const rebalances = prepared.rebalances.map(inferredRebalanceRow);
    this.queueRebalances(rebalances);
    // A leader whose lock session died during the round writes nothing: another instance may lead by now.
    const selection = this.idleGroups.select(rows, prepared.nowMs);
    const mayWrite = !(this.options.lock && this.leading && !this.options.lock.isHeld);
    const written = mayWrite ? await this.write(selection.rows) : false;
    if (written) this.idleGroups.remember(selection, prepared.nowMs);
    const losses = mayWrite ? await this.writeRetention(rows, prepared.nowMs) : [];
    if (!written && this.options.lock && !this.options.lock.isHeld) this.counters.skippedRounds += 1;
    await this.gaps.roundSucceeded(new Date(prepared.nowMs)).catch(() => undefined);
    if (this.counters.consecutiveFailures > 0) {
      this.options.logger?.info({ failedRounds: this.counters.consecutiveFailures }, 'sampler reads the cluster again');
    }
    this.counters.consecutiveFailures = 0;
    this.counters.rounds += 1;
    const done = this.now();
    this.counters.lastRoundMs = done - started;
    const result = {
      rows,
      storedRows: written ? selection.rows.length : 0,
      rebalances,
      written,
      clusterReadMs,
      exactReadMs,
      computeMs,
      writeMs: done - readDone,
      durationMs: done - started,
      retentionRisks,
      losses,
    };
    this.options.onRound?.({ result, durationMs: result.durationMs });
    return result;
  }

  /** Rollups and retention now (the loop runs it about once a minute). */
  async maintain(): Promise<void> {
    const { rawDays, rollupDays } = this.options.retention;
    await runMaintenance(this.options.db, {
      now: new Date(this.now()),
      rawRetentionDays: rawDays,
      rollupRetentionDays: rollupDays,
    });
  }

  private async write(rows: LagSampleRow[]): Promise<boolean> {
    const { db } = this.options;
    let written = true;
    try {
      await insertLagSamples(this.pool, this.options.cluster, rows);
      this.counters.rowsWritten += rows.length;
    } catch (error) {
      written = false;
      this.counters.rowsDropped += rows.length;
      this.counters.lastError = describe(error);
      this.options.logger?.warn(
        { err: error, rowsDropped: this.counters.rowsDropped },
        'lag samples not written (Postgres unavailable?); dropped',
      );
    }
    if (this.pendingRebalances.length > 0) {
      const batch = this.pendingRebalances;
      try {
        await db.rebalanceEvent.createMany({ data: batch.map((row) => rebalanceEventData(row, this.options.cluster)) });
        this.pendingRebalances = this.pendingRebalances.slice(batch.length);
        this.counters.rebalancesWritten += batch.length;
      } catch {
        // Kept (bounded) for the next round.
      }
    }
    try {
      await this.points.save(this.state.points);
    } catch {
      // The tables keep their changes queued; the next round retries them.
    }
    return written;
  }

  /**
   * Reads the retention settings of the round's topics when due (topic-settings.ts). Never throws: a failed
   * request keeps the settings read before and is tried again later; refusals are logged when they change.
   */
  private async refreshTopicSettings(topics: string[], nowMs: number): Promise<void> {
    const { reader, logger } = this.options;
    if (!reader.readTopicSettings) return;
    this.topicSettings.retainOnly(topics);
    const plan = this.topicSettings.plan(topics, nowMs);
    if (plan.topics.length === 0) return;
    let warning: string | null = null;
    try {
      const result = await reader.readTopicSettings(plan.topics);
      this.topicSettings.accept(plan, result, nowMs);
      const refused = result.topics.flatMap((t) => (t.error === null ? [] : [t.error]));
      if (result.brokerError !== null) refused.push(result.brokerError);
      if (refused.length > 0) warning = refused.slice(0, 5).join('; ') + (refused.length > 5 ? '; ...' : '');
    } catch (error) {
      this.topicSettings.failed(nowMs);
      warning = `topic settings not read: ${describe(error)}`;
    }
    if (warning !== null && warning !== this.lastSettingsWarning)
      logger?.warn({ warning }, 'sampler cannot read some retention settings; their retention risk stays unknown');
    this.lastSettingsWarning = warning;
  }

  /** The round's partitions at risk, by the retention rule over their rows and their topics' cached settings. */
  private retentionRisks(rows: readonly LagSampleRow[]): PartitionRetentionRisk[] {
    const risks: PartitionRetentionRisk[] = [];
    for (const row of rows) {
      // Nothing unread, never committed, or already lost: never a window (the rule says so without settings).
      if (row.lag === null || row.lag === 0n || row.committedOffset === null) continue;
      if (row.committedOffset < row.logStartOffset) continue;
      const settings = this.topicSettings.settingsOf(row.topic);
      if (settings === null) continue;
      const risk = retentionRisk(settings, positionFromSample(row));
      if (risk.kind !== 'at-risk') continue;
      risks.push({
        groupId: row.groupId,
        topic: row.topic,
        partition: row.partition,
        earliestMs: risk.earliestMs,
        latestMs: risk.latestMs,
        rules: risk.rules,
      });
    }
    return risks;
  }

  /**
   * topic_retention rows that changed and the round's record losses (every row of the round, stored or not).
   * Each is best effort: a failure is logged and the next round writes again (the tracker keeps unwritten
   * rows; the loss store plans from Postgres again). Returns the losses written.
   */
  private async writeRetention(rows: readonly LagSampleRow[], nowMs: number): Promise<LossIncrement[]> {
    const { logger } = this.options;
    try {
      if (this.topicSettings.needsStored) this.topicSettings.loadStored(await this.topicRetention.load());
      const changed = this.topicSettings.changes();
      await this.topicRetention.upsert(changed);
      this.topicSettings.confirmStored(changed);
    } catch (error) {
      logger?.warn({ err: error }, 'topic retention settings not written; retried next round');
    }
    try {
      const losses = await this.losses.apply(rows, nowMs);
      if (losses.length > 0) {
        logger?.warn(
          { losses: losses.map((l) => ({ ...l, records: l.records.toString() })) },
          'records deleted by retention before their group read them',
        );
      }
      return losses;
    } catch (error) {
      logger?.warn({ err: error }, 'record losses not written; planned again next round');
      return [];
    }
  }

  private newTopicSettings(): TopicSettingsTracker {
    return new TopicSettingsTracker({
      intervalMs: this.options.topicSettingsIntervalMs ?? TOPIC_SETTINGS_INTERVAL_MS,
    });
  }

  private queueRebalances(rows: RebalanceRow[]): void {
    this.pendingRebalances.push(...rows);
    const excess = this.pendingRebalances.length - MAX_PENDING_REBALANCES;
    if (excess > 0) {
      this.pendingRebalances.splice(0, excess);
      this.counters.rebalancesDropped += excess;
    }
  }

  /**
   * Sharded: the persisted log-end points of the topics this holder's groups read. A failed load leaves the
   * round on the points in memory and is retried next round.
   */
  private async loadScopedPoints(topics: string[]): Promise<void> {
    try {
      await this.points.load(this.state.points, this.options.state.timeLagPoints, topics);
      this.scopedPointsLoaded = true;
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'sampler could not load the log-end points of its shards; retried');
    }
  }

  private async maintainIfDue(): Promise<void> {
    if (this.options.runsMaintenance === false) return;
    if (this.options.lock?.runsMaintenance === false) return;
    const interval = this.options.maintenanceIntervalMs ?? 60_000;
    if (this.now() - this.lastMaintenanceMs < interval) return;
    this.lastMaintenanceMs = this.now();
    try {
      await this.maintain();
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'rollup or retention failed; retried at the next maintenance');
    }
  }

  /**
   * A new leader starts from the persisted points and empty histories (rates, rebalance trackers, what was
   * last stored: its first round stores every group).
   */
  private gainLeadership(): void {
    this.leading = true;
    this.state = new SamplerState(this.options.state);
    this.idleGroups = new IdleGroupFilter(this.options.idleStoreMs ?? 0);
    this.topicSettings = this.newTopicSettings();
    this.lastSettingsWarning = null;
    this.losses.reset();
    this.stateLoaded = false;
    this.scopedPointsGeneration = null;
    this.pendingRebalances = [];
    this.counters.consecutiveFailures = 0;
  }

  private async loseLeadership(attempt: LockAttempt): Promise<void> {
    this.leading = false;
    this.stateLoaded = false;
    this.options.logger?.warn({ attempt }, 'sampler lost its leader lock; it stops sampling and competes again');
    await this.gaps.abandon(new Date(this.now()));
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

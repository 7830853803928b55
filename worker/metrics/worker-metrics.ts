import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CoreEvent, CoreSnapshot } from '@warden/consumer';
import { BoundedLabel, BoundedSeries, errorLabel } from './bounded-label';
import type { RebalanceTiming } from '../shared/worker-types';

/** What the metrics read of a sampler round (the sampler's RoundOutcome has this shape); null: unreadable. */
export interface SamplerRoundReport {
  durationMs: number;
  result: {
    written: boolean;
    rows: ReadonlyArray<{
      groupId: string;
      topic: string;
      partition: number;
      lag: bigint | null;
      timeLagMs: bigint | null;
      exactTimeLagMs: bigint | null;
    }>;
    /** Partitions whose unread records retention is set to delete, with the earliest it can (ms from the round). */
    retentionRisks?: ReadonlyArray<{ groupId: string; topic: string; partition: number; earliestMs: number | null }>;
    /** Records found deleted unread this round. */
    losses?: ReadonlyArray<{ groupId: string; topic: string; partition: number; records: bigint }>;
  } | null;
}

export interface WorkerMetricsOptions {
  /** The consumer core's state at scrape time; null before the consumer exists. */
  snapshot: () => CoreSnapshot | null;
  /**
   * Each configured cluster and whether this instance leads its sampler (holds its leader lock or a shard):
   * only a cluster's leader exports that cluster's lag.
   */
  samplerLeaders: () => ReadonlyArray<{ cluster: string; leader: boolean }>;
  /** What /readyz answers (warden_worker_ready); absent: the gauge is not exported. */
  ready?: () => boolean;
  /** TIME_LAG_OBJECTIVE_MS in seconds (warden_time_lag_objective_seconds); null: no objective, not exported. */
  timeLagObjectiveSec?: number | null;
  /** Default process and Node.js metrics (process_*, nodejs_*). Off in unit tests that count series. */
  defaultMetrics?: boolean;
}

const PARTITION = ['topic', 'partition'] as const;
interface SampledLagRow {
  group: string;
  topic: string;
  partition: number;
  lag: number | null;
  timeLagMs: number | null;
}

const GROUP_PARTITION = ['cluster', 'group', 'topic', 'partition'] as const;
/** Distinct group partitions warden_records_lost_total names before folding new ones into "other". */
const MAX_LOSS_SERIES = 1_000;
const STATES = ['running', 'rebalancing', 'draining', 'closed', 'fatal'] as const;

/**
 * The worker's Prometheus metrics, served on its HTTP port at /metrics.
 *
 * Cardinality is bounded by construction: partition labels exist only for partitions this instance owns
 * (core gauges) or that the sampler sampled in its last round (group lag gauges; both are reset at every
 * scrape or round, so revoked partitions and deleted groups disappear); error labels go through
 * BoundedLabel (at most 20 distinct values each, then "other"); keys, offsets and payloads are never labels.
 */
export class WorkerMetrics {
  readonly registry = new Registry();
  private readonly errorClasses = new BoundedLabel(20);
  private readonly retryErrors = new BoundedLabel(20);
  private scrapeSnapshot: CoreSnapshot | null = null;
  /** Per cluster, the rows of its sampler's last round on this instance. */
  private readonly sampledLag = new Map<string, SampledLagRow[]>();
  /** Per cluster, the earliest deletion of unread records (s) per partition at risk, from its last round. */
  private readonly deletionRisk = new Map<
    string,
    Array<{ group: string; topic: string; partition: number; seconds: number }>
  >();
  private readonly lossSeries = new BoundedSeries<(typeof GROUP_PARTITION)[number]>(MAX_LOSS_SERIES, [
    'group',
    'topic',
    'partition',
  ]);

  private readonly completed: Counter<'outcome'>;
  private readonly retries: Counter<'phase' | 'error'>;
  private readonly permanentFailures: Counter<'phase'>;
  private readonly admissionFailures: Counter<'error_class'>;
  private readonly deadLettered: Counter<'error_class'>;
  private readonly quarantines: Counter<string>;
  private readonly redelivered: Counter<'reason'>;
  private readonly droppedDeliveries: Counter<'reason'>;
  private readonly commits: Counter<string>;
  private readonly commitFailures: Counter<'error_class'>;
  private readonly commitDuration: Histogram<string>;
  private readonly rebalances: Counter<'cause'>;
  private readonly rebalanceStop: Histogram<string>;
  private readonly samplerRounds: Counter<'cluster' | 'outcome'>;
  private readonly samplerRoundDuration: Histogram<'cluster'>;
  private readonly operatorActions: Counter<'action' | 'status'>;
  private readonly recordsLost: Counter<(typeof GROUP_PARTITION)[number]>;

  constructor(private readonly options: WorkerMetricsOptions) {
    const registers = [this.registry];
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    const counter = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers });

    this.completed = counter('warden_records_completed_total', 'Records that reached a final outcome, by outcome.', [
      'outcome',
    ]);
    this.retries = counter('warden_retries_total', 'Transient failures retried in place, by phase and error type.', [
      'phase',
      'error',
    ]);
    this.permanentFailures = counter(
      'warden_permanent_failures_total',
      'Records whose call failed permanently, by phase.',
      ['phase'],
    );
    this.admissionFailures = counter(
      'warden_admission_failures_total',
      'Records refused before taking a worker slot (poison), by error class.',
      ['error_class'],
    );
    this.deadLettered = counter(
      'warden_dead_lettered_total',
      'Records written to the dead-letter topic, by error class.',
      ['error_class'],
    );
    this.quarantines = counter('warden_quarantines_total', 'Partitions quarantined at a record that cannot complete.');
    this.redelivered = counter(
      'warden_redelivered_records_total',
      'Records delivered again (rebalance, quarantine, operator action), by reason.',
      ['reason'],
    );
    this.droppedDeliveries = counter(
      'warden_dropped_deliveries_total',
      'Fetched records dropped before processing (not owned, quarantined, draining), by reason.',
      ['reason'],
    );
    this.commits = counter('warden_commits_total', 'Offset commits the broker acknowledged.');
    this.commitFailures = counter(
      'warden_commit_failures_total',
      'Offset commits that failed, by error class (transient ones are retried).',
      ['error_class'],
    );
    this.commitDuration = new Histogram({
      name: 'warden_commit_duration_seconds',
      help: 'Time from handing offsets to the broker until it acknowledged or failed them.',
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.rebalances = counter(
      'warden_rebalances_total',
      "Assignments this instance's consumer received, by cause (rebalance under a running member, or a fresh join).",
      ['cause'],
    );
    this.rebalanceStop = new Histogram({
      name: 'warden_rebalance_stop_seconds',
      help: 'How long processing stopped for a rebalance or join, until the new assignment arrived.',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.samplerRounds = counter(
      'warden_sampler_rounds_total',
      'Sampler rounds, by cluster and outcome: ok, unwritten (Postgres down), failed (cluster unreadable).',
      ['cluster', 'outcome'],
    );
    this.samplerRoundDuration = new Histogram({
      name: 'warden_sampler_round_duration_seconds',
      help: 'Duration of a sampler round, by cluster: cluster read, time lag, rows written.',
      labelNames: ['cluster'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.operatorActions = counter(
      'warden_operator_actions_total',
      'Operator-action outcomes this worker recorded, by action and status: done, failed, rejected, failed_again (ingested from the consumers that applied them) and expired.',
      ['action', 'status'],
    );

    this.recordsLost = counter(
      'warden_records_lost_total',
      "Records Kafka's retention deleted before the group read them, as this instance's sampler found them (below the log start), per cluster and group partition.",
      GROUP_PARTITION,
    );

    this.definePartitionGauges(registers);
    this.defineSampledLagGauges(registers);
    this.defineAlertingGauges(registers);
  }

  /** What the Prometheus rules (deploy/prometheus/warden-rules.yml) compare against. */
  private defineAlertingGauges(registers: Registry[]): void {
    const { ready, timeLagObjectiveSec } = this.options;
    if (ready) {
      new Gauge({
        name: 'warden_worker_ready',
        help: '1 while /readyz answers ready (joined, fetching or heartbeating, core not fatal), else 0.',
        registers,
        collect() {
          this.set(ready() ? 1 : 0);
        },
      });
    }
    if (timeLagObjectiveSec !== undefined && timeLagObjectiveSec !== null) {
      new Gauge({
        name: 'warden_time_lag_objective_seconds',
        help: 'The time-lag objective groups are held to (TIME_LAG_OBJECTIVE_MS).',
        registers,
        collect() {
          this.set(timeLagObjectiveSec);
        },
      });
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** One core snapshot per scrape, shared by every partition gauge. */
  async render(): Promise<string> {
    this.scrapeSnapshot = this.options.snapshot();
    try {
      return await this.registry.metrics();
    } finally {
      this.scrapeSnapshot = null;
    }
  }

  onCoreEvent(event: CoreEvent): void {
    switch (event.type) {
      case 'completed':
        this.completed.inc({ outcome: event.outcome });
        return;
      case 'retry-scheduled':
        this.retries.inc({ phase: event.phase, error: this.retryErrors.of(errorLabel(event.error)) });
        return;
      case 'permanent-failure':
        this.permanentFailures.inc({ phase: event.phase });
        return;
      case 'admission-failed':
        this.admissionFailures.inc({ error_class: this.errorClasses.of(event.errorClass) });
        return;
      case 'dead-lettered':
        this.deadLettered.inc({ error_class: this.errorClasses.of(event.errorClass) });
        return;
      case 'stall-dead-letter':
        this.deadLettered.inc({ error_class: 'stalled' });
        return;
      case 'quarantined':
        this.quarantines.inc();
        return;
      case 'redelivered':
        this.redelivered.inc({ reason: event.reason }, event.count);
        return;
      case 'batch-dropped':
        this.droppedDeliveries.inc({ reason: event.reason }, event.count);
        return;
      case 'committed':
        this.commits.inc();
        this.commitDuration.observe(event.durationMs / 1_000);
        return;
      case 'commit-failed':
        this.commitFailures.inc({ error_class: event.errorClass });
        this.commitDuration.observe(event.durationMs / 1_000);
        return;
      default:
        return;
    }
  }

  onRebalance(timing: RebalanceTiming): void {
    this.rebalances.inc({ cause: timing.cause });
    this.rebalanceStop.observe(Math.max(0, timing.endedAtMs - timing.startedAtMs) / 1_000);
  }

  /** A round of `cluster`'s sampler on this instance; an unreadable round keeps the cluster's last rows. */
  onSamplerRound(cluster: string, outcome: SamplerRoundReport): void {
    this.samplerRoundDuration.observe({ cluster }, outcome.durationMs / 1_000);
    if (outcome.result === null) {
      this.samplerRounds.inc({ cluster, outcome: 'failed' });
      return;
    }
    this.samplerRounds.inc({ cluster, outcome: outcome.result.written ? 'ok' : 'unwritten' });
    for (const loss of outcome.result.losses ?? []) {
      const labels = { cluster, group: loss.groupId, topic: loss.topic, partition: String(loss.partition) };
      this.recordsLost.inc(this.lossSeries.of(labels), Number(loss.records));
    }
    this.deletionRisk.set(
      cluster,
      (outcome.result.retentionRisks ?? []).flatMap((risk) =>
        risk.earliestMs === null
          ? []
          : [{ group: risk.groupId, topic: risk.topic, partition: risk.partition, seconds: risk.earliestMs / 1_000 }],
      ),
    );
    this.sampledLag.set(
      cluster,
      outcome.result.rows.map((row) => ({
        group: row.groupId,
        topic: row.topic,
        partition: row.partition,
        lag: row.lag === null ? null : Number(row.lag),
        timeLagMs:
          row.exactTimeLagMs !== null
            ? Number(row.exactTimeLagMs)
            : row.timeLagMs !== null
              ? Number(row.timeLagMs)
              : null,
      })),
    );
  }

  onOperatorAction(action: string, status: string): void {
    this.operatorActions.inc({ action, status });
  }

  /** Per-partition state of this instance's consumer, read from the core at scrape time. */
  private definePartitionGauges(registers: Registry[]): void {
    const snapshotAtScrape = () => this.scrapeSnapshot;
    const partitionGauge = (
      name: string,
      help: string,
      value: (p: CoreSnapshot['partitions'][number]) => number | null,
    ) =>
      new Gauge({
        name,
        help,
        labelNames: PARTITION,
        registers,
        collect() {
          this.reset();
          for (const p of snapshotAtScrape()?.partitions ?? []) {
            const v = value(p);
            if (v !== null) this.set({ topic: p.topic, partition: String(p.partition) }, v);
          }
        },
      });
    partitionGauge(
      'warden_partition_in_flight_records',
      'Records of the partition running in a worker slot now.',
      (p) => p.inFlight,
    );
    partitionGauge(
      'warden_partition_completed_uncommitted_records',
      'Records completed but not yet committed (behind an unfinished one, or waiting for the next commit).',
      (p) => p.completedUncommitted,
    );
    partitionGauge(
      'warden_partition_buffered_records',
      'Admitted records waiting for their key lane or a worker slot.',
      (p) => p.buffered,
    );
    partitionGauge(
      'warden_partition_oldest_unfinished_age_seconds',
      'Age of the oldest record delivered and not finished; absent when nothing is unfinished.',
      (p) => (p.oldestUnfinishedAgeMs === null ? null : p.oldestUnfinishedAgeMs / 1_000),
    );
    partitionGauge('warden_partition_paused', '1 while backpressure pauses the partition.', (p) => (p.paused ? 1 : 0));
    partitionGauge('warden_partition_quarantined', '1 while the partition is quarantined at a record.', (p) =>
      p.quarantine ? 1 : 0,
    );
    new Gauge({
      name: 'warden_in_flight_records',
      help: 'Worker slots in use across all partitions.',
      registers,
      collect() {
        this.set(snapshotAtScrape()?.inFlight ?? 0);
      },
    });
    new Gauge({
      name: 'warden_consumer_state',
      help: 'The consumer core state: 1 for the current state, 0 for the others.',
      labelNames: ['state'],
      registers,
      collect() {
        const state = snapshotAtScrape()?.state ?? null;
        for (const s of STATES) this.set({ state: s }, s === state ? 1 : 0);
      },
    });
  }

  /** Lag of every sampled group, per cluster from its sampler's last round; only a cluster's leader has them. */
  private defineSampledLagGauges(registers: Registry[]): void {
    const leaders = () => this.options.samplerLeaders();
    const sampledLag = this.sampledLag;
    const lagGauge = (name: string, help: string, value: (row: SampledLagRow) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: GROUP_PARTITION,
        registers,
        collect() {
          this.reset();
          for (const { cluster, leader } of leaders()) {
            if (!leader) continue;
            for (const row of sampledLag.get(cluster) ?? []) {
              const v = value(row);
              if (v !== null)
                this.set({ cluster, group: row.group, topic: row.topic, partition: String(row.partition) }, v);
            }
          }
        },
      });
    lagGauge(
      'warden_group_lag_records',
      'Log end offset minus committed offset, per cluster and sampled group partition (sampler leader only).',
      (row) => row.lag,
    );
    lagGauge(
      'warden_group_time_lag_seconds',
      'How late the group is at the partition: exact record age where measured, else interpolated or a lower bound (sampler leader only).',
      (row) => (row.timeLagMs === null ? null : row.timeLagMs / 1_000),
    );
    const deletionRisk = this.deletionRisk;
    new Gauge({
      name: 'warden_group_retention_deletion_earliest_seconds',
      help: "Seconds until Kafka's retention may first delete records the group has not read (0: at any moment), per partition at risk; absent when not at risk or unknown (sampler leader only).",
      labelNames: GROUP_PARTITION,
      registers,
      collect() {
        this.reset();
        for (const { cluster, leader } of leaders()) {
          if (!leader) continue;
          for (const risk of deletionRisk.get(cluster) ?? [])
            this.set(
              { cluster, group: risk.group, topic: risk.topic, partition: String(risk.partition) },
              risk.seconds,
            );
        }
      },
    });
    new Gauge({
      name: 'warden_sampler_leader',
      help: "1 while this instance leads the cluster's sampler (its leader lock, or a shard with SAMPLER_SHARDS > 1).",
      labelNames: ['cluster'],
      registers,
      collect() {
        for (const { cluster, leader } of leaders()) this.set({ cluster }, leader ? 1 : 0);
      },
    });
  }
}

import {
  API_READ_TARGET_MS,
  IO_CONCURRENCY,
  IO_MS,
  IO_TARGET_OF_IDEAL,
  isRatedAgainstRaw,
  isTimingWorkload,
  REDRIVE_RATE_TOLERANCE,
  REDRIVE_UNTHROTTLED_TARGET_RECORDS_PER_SEC,
  PIPELINE_TARGET_OF_CEILING,
  PIPELINE_TARGET_RECORDS_PER_SEC,
  ACTION_ROUND_TRIP_TARGET_MS,
  CONTROL_THROUGHPUT_TARGET_RATIO,
  CONTROL_TRAFFIC_TARGET_BYTES_PER_SEC,
  OVERVIEW_PAGE_TARGET_MS,
  SERVICE_ACTION_ROUND_TRIP_TARGET_MS,
  SAMPLER_ROUND_TARGET_MS,
  SCALE_ROUND_LIMIT_MS,
  SCALE_ROUND_TARGET_MS,
  PUBLISHED_FIGURES,
  PC_RATIO_TARGETS,
  KEYED_RETRY_PRODUCE_CHUNK,
  KEYED_RETRY_BACKOFF,
  type WorkloadPlan,
} from './plan';
import type { Measurement } from './protocol';
import { formatCount, formatMiB, formatMs, formatRatio, median, ratio, recordsPerSecond } from './stats';

// Turns the measurements of every run into the table's rows and the target checks. Pure.

export interface WorkloadRuns {
  plan: WorkloadPlan;
  runs: Measurement[];
  /** Set when a run failed; the row then shows what the other runs measured, if any. */
  error?: string;
  /** Set when the workload could not run here (a missing toolchain), with the reason: not a failure. */
  skipped?: string;
}

/** Thrown by a workload that cannot run on this machine (its toolchain is missing); the bench skips its row. */
export class WorkloadSkipped extends Error {
  override name = 'WorkloadSkipped';
}

export interface Row {
  id: string;
  title: string;
  records: number | null;
  recordsPerSec: number | null;
  /** records/s of every run, in run order. */
  runsRecordsPerSec: number[];
  ratioToRaw: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Highest peak RSS over the runs. */
  peakRssBytes: number | null;
  notes: string;
}

export interface TargetCheck {
  target: string;
  measured: string;
  pass: boolean | null;
}

export function runRate(run: Measurement): number | null {
  return recordsPerSecond(run.records, run.endEpochMs - run.startEpochMs);
}

/** keyed-retries: records/s of its producer alone (null when the run did not record its produce time). */
function producerRate(run: Measurement): number | null {
  return run.details.produceMs === undefined ? null : recordsPerSecond(run.records, Number(run.details.produceMs));
}

/** The run whose records/s is the median (the lower middle one for an even count), so a row is one real run. */
export function representativeRun(runs: readonly Measurement[]): Measurement | null {
  const rated = runs.filter((run) => runRate(run) !== null);
  if (rated.length === 0) return null;
  const sorted = [...rated].sort((a, b) => runRate(a)! - runRate(b)!);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Records/s of the given partitions alone: their records over the time until the last of them was done. */
export function partitionsRate(
  run: Measurement,
  endOffsets: readonly number[],
  partitions: readonly number[],
): number | null {
  const done = partitions.map((p) => run.partitionDoneMs[p]);
  if (done.some((ms) => ms === null || ms === undefined)) return null;
  const records = partitions.reduce((sum, p) => sum + (endOffsets[p] ?? 0), 0);
  return recordsPerSecond(records, Math.max(...(done as number[])));
}

/** Workload 8's verdict: the blocked partition never held more than the documented bound, and RSS stayed flat. */
export function memoryVerdict(details: Measurement['details']): { bounded: boolean; rssGrowthBytes: number } {
  const held = Number(details.heldMax);
  const bound = Number(details.heldBound);
  const start = Number(details.rssObserveStartBytes);
  const max = Number(details.rssObserveMaxBytes);
  const rssGrowthBytes = max - start;
  // Flat: RSS grew by less than 10% (GC noise) while the backlog waited.
  const bounded = Number.isFinite(held) && Number.isFinite(bound) && held <= bound && rssGrowthBytes <= start * 0.1;
  return { bounded, rssGrowthBytes };
}

interface Context {
  byId: Map<string, WorkloadRuns>;
  endOffsets: Map<string, number[]>;
}

function notesFor(entry: WorkloadRuns, run: Measurement | null, context: Context): string {
  const notes: string[] = [];
  const rates = entry.runs.map(runRate).filter((r): r is number => r !== null);
  // (15) states both of its sides below.
  if (rates.length > 1 && entry.plan.kind !== 'control-throughput')
    notes.push(`median of ${rates.length}: ${formatCount(Math.min(...rates))}–${formatCount(Math.max(...rates))}/s`);
  if (entry.error) notes.push(`FAILED: ${entry.error.split('\n')[0]}`);
  if (entry.skipped) notes.push(`skipped: ${entry.skipped}`);
  if (!run) return notes.join('; ');
  const d = run.details;
  switch (entry.plan.kind) {
    case 'keyed-retries':
      notes.push(
        `violations ${d.violations}, duplicates ${d.duplicates}, retries ${formatCount(Number(d.retries))} (backoff full jitter, base ${KEYED_RETRY_BACKOFF.baseMs} ms)`,
      );
      if (d.produceMs !== undefined) notes.push(`producer ${formatCount(producerRate(run))}/s`);
      break;
    case 'memory': {
      const { rssGrowthBytes } = memoryVerdict(d);
      notes.push(
        `blocked partition held ≤ ${formatCount(Number(d.heldMax))} records (bound ${formatCount(Number(d.maxPendingPerPartition))} + batch ${formatCount(Number(d.maxBatchSize))}); ` +
          `${formatCount(Number(d.waitingInTopic))} waiting in the topic; RSS ${rssGrowthBytes >= 0 ? '+' : ''}${formatMiB(rssGrowthBytes)} MiB over ${Number(d.observeMs) / 1000} s`,
      );
      break;
    }
    case 'pipeline':
    case 'raw-pipeline':
      notes.push(
        `${formatCount(Number(d.storedDocuments))} documents, ${formatCount(Number(d.resultsPublished))} results`,
      );
      if (d.batches !== undefined) notes.push(pipelineCosts(d));
      break;
    case 'sampler-round':
      notes.push(
        `round p95 ${formatMs(Number(d.roundP95Ms))} ms over ${d.measuredRounds} rounds every ${Number(d.intervalMs) / 1000} s ` +
          `(first, connecting: ${formatMs(Number(d.firstRoundMs))} ms); real-broker cluster read p50 ${formatMs(Number(d.clusterReadP50Ms))} / p95 ${formatMs(Number(d.clusterReadP95Ms))} ms, median ` +
          `compute ${formatMs(Number(d.computeP50Ms))} / write ${formatMs(Number(d.writeP50Ms))} ms; exact time-lag reads in ` +
          `${d.roundsWithExactReads} round${d.roundsWithExactReads === 1 ? '' : 's'} (median ${formatMs(d.exactReadP50Ms === null ? null : Number(d.exactReadP50Ms))} ms); ` +
          `${formatCount(Number(d.lagSampleRowsPerRound))} lag_sample rows per round (groups on ${d.topics} topics, ${formatCount(Number(d.topicPartitions))} topic-partitions), ` +
          `${formatCount(Number(d.lagSampleRowsWritten))} written, ` +
          `${formatCount(Number(d.logEndPointRows))} log_end_point rows kept; rollup + retention once: ${formatCount(Number(d.maintenanceMs))} ms`,
      );
      break;
    case 'sampler-scale':
      notes.push(
        `${formatCount(Number(d.groups))} groups x ${d.partitions} partitions, ${Number(d.busyShare) * 100}% of groups busy per round, ` +
          `unchanged groups stored every ${Number(d.idleStoreMs) / 1000} s; ` +
          `round (compute + write) p95 ${formatMs(Number(d.roundP95Ms))} / max ${formatMs(Number(d.roundMaxMs))} ms over ${d.measuredRounds} rounds, one per ${Number(d.intervalMs) / 1000} s of sampler clock ` +
          `(first: ${formatMs(Number(d.firstRoundMs))} ms; slowest: round ${d.slowestRound}, ${formatCount(Number(d.slowestRoundRows))} rows stored); median compute ${formatMs(Number(d.computeP50Ms))} / write ${formatMs(Number(d.writeP50Ms))} ms, ` +
          `sampler process CPU ${formatMs(Number(d.samplerCpuP50Ms))} ms per round ` +
          `(generating the state: ${formatMs(Number(d.generateP50Ms))} ms, not counted); ${formatCount(Number(d.lagSampleRowsPerRound))} lag_sample rows stored per round, ` +
          `${formatMiB(Number(d.lagSampleBytesPerRound))} MiB per round = ${formatCount(Number(d.lagSampleBytesPerDay) / 2 ** 30)} GiB per day (scaled from the measured rounds); ` +
          `rollup + retention once: ${formatCount(Number(d.maintenanceMs))} ms`,
      );
      break;
    case 'sampler-shards':
      notes.push(
        `${formatCount(Number(d.groups))} groups x ${d.partitions} partitions in ${d.shards} shards; round (compute + write) p50 alone ` +
          `${formatMs(Number(d.aloneP50Ms))} ms, split over two instances ${formatMs(Number(d.splitAP50Ms))} ms (${d.splitAGroups} groups) and ` +
          `${formatMs(Number(d.splitBP50Ms))} ms (${d.splitBGroups} groups) = ${d.splitAShareOfAlone} and ${d.splitBShareOfAlone} of alone; ` +
          `one killed: the other held every shard after ${formatCount(Number(d.failoverMs))} ms (${d.partialRoundsAfterKill} round in progress) and stored every group after ` +
          `${formatCount(Number(d.recoveredMs))} ms (interval ${Number(d.intervalMs) / 1000} s)`,
      );
      break;
    case 'api-reads':
      notes.push(
        `p95 ${formatMs(Number(d.p95Ms))} ms over ${formatCount(run.records)} calls; ${formatCount(Number(d.responseBytes) / 1024)} KiB JSON; ` +
          (d.source !== undefined
            ? `from ${d.source}, step ${Number(d.stepMs) / 1000} s, ${d.points} points x ${d.partitions} partitions; `
            : `${d.partitions} partitions; `) +
          `seed ${formatCount(Number(d.seededLagSampleRows))} lag_sample + ${formatCount(Number(d.seededRollupRows))} lag_rollup + ` +
          `${formatCount(Number(d.seededTenMinuteRollupRows))} lag_rollup_10m rows${d.seedReused ? ' (reused)' : ''}`,
      );
      break;
    case 'parallel-consumer': {
      const comparison = peerComparison(entry, context);
      if (comparison)
        notes.push(
          `Warden (${comparison.peerId}) ÷ Parallel Consumer: ${formatRatio(comparison.ratio)} (Warden ${formatCount(comparison.wardenRate)}/s)`,
        );
      notes.push(`${formatCount(Number(d.commits))} commits, handled ${formatCount(Number(d.handled))}`);
      if (comparison?.toLastHandlerEnd)
        notes.push(
          `to the last handler's end: Parallel Consumer ${formatCount(comparison.toLastHandlerEnd.pc)}/s, ` +
            `Warden ${formatCount(comparison.toLastHandlerEnd.warden)}/s (÷ ${formatRatio(ratio(comparison.toLastHandlerEnd.warden, comparison.toLastHandlerEnd.pc))})`,
        );
      break;
    }
    case 'overview-http':
      notes.push(
        `pages of 100: p50 ${formatMs(Number(d.p50Ms))} / p95 ${formatMs(Number(d.p95Ms))} / max ${formatMs(Number(d.maxMs))} ms over ${formatCount(run.records)} requests ` +
          `(${formatCount(Number(d.pageBytes) / 1024)} KiB a page); the first HTML of / p50 ${formatMs(Number(d.htmlP50Ms))} / p95 ${formatMs(Number(d.htmlP95Ms))} ms; ` +
          `${formatCount(Number(d.groups))} groups x ${d.partitions} partitions (${d.statuses}), ${formatCount(Number(d.lagSampleRows))} lag_sample rows; ` +
          `the evaluation's analysis ${formatCount(Number(d.summarizeMs))} ms and its summary write ${formatCount(Number(d.recordMs))} ms (a worker pays both every round; ` +
          `the analysis is also what one request would cost without stored summaries)`,
      );
      break;
    case 'action-round-trip':
      notes.push(
        `p95 ${formatMs(Number(d.p95Ms))} ms over ${formatCount(run.records)} skips (request → worker applied → visible through the API); ` +
          `applied by the worker p50 ${formatMs(Number(d.appliedP50Ms))} / p95 ${formatMs(Number(d.appliedP95Ms))} ms after the request; ` +
          `worker poll every ${formatCount(Number(d.pollIntervalMs))} ms, woken by NOTIFY`,
      );
      break;
    case 'service-action-round-trip':
      notes.push(
        `p95 ${formatMs(Number(d.p95Ms))} ms over ${formatCount(run.records)} skips (request → applied by the example service → visible through the API); ` +
          `applied by the service p50 ${formatMs(Number(d.appliedP50Ms))} / p95 ${formatMs(Number(d.appliedP95Ms))} ms after the request; ` +
          'Skip without a dead-letter copy (the example has no dead-letter port): the service commits past the held record and the partition flows on; ' +
          `the service is node dist/main.js installed from the packed tarball (install ${d.installReused ? 'cached' : 'fresh'}, pack + install + build ${formatCount(Number(d.buildMs) / 1000)} s; ready ${formatCount(Number(d.serviceStartMs))} ms after its start); ` +
          `worker poll every ${formatCount(Number(d.pollIntervalMs))} ms, woken by NOTIFY`,
      );
      break;
    case 'control-traffic':
      notes.push(controlTrafficNotes(d));
      break;
    case 'redrive':
      notes.push(
        `job rate ${formatCount(Number(d.configuredRatePerSec))}/s: achieved ${formatCount(Number(d.achievedRatePerSec))}/s from the claim to the job's end, ` +
          `${formatCount(d.steadyRatePerSec === null ? null : Number(d.steadyRatePerSec))}/s from the first batch's commit to the last; ` +
          `${formatCount(Number(d.batches))} batches of ${formatCount(Number(d.meanBatchSize))} (one Kafka transaction each; p50/p99 columns: their spacing in ms), ` +
          `first committed ${formatCount(Number(d.firstBatchMs))} ms after the claim; ` +
          `Postgres round trips ${d.postgresRoundTripsPerBatch ?? '—'} per batch, ${formatCount(Number(d.postgresRoundTrips))} in all ` +
          `(${formatCount(Number(d.postgresRoundTripsToFirstBatch))} up to the first batch's write, the claim and the job's reads included)`,
      );
      break;
    case 'control-throughput': {
      const comparison = controlThroughputComparison(entry);
      if (comparison) notes.push(controlThroughputNotes(comparison));
      break;
    }
    default:
      break;
  }
  if (entry.plan.id === '6') {
    const ideal = ioIdeal();
    notes.push(`${formatRatio(ratio(runRate(run), ideal))} of the ${formatCount(ideal)}/s ideal to the last commit`);
    if (d.lastCompletionEpochMs !== undefined) {
      const toLastCompletion = recordsPerSecond(run.records, Number(d.lastCompletionEpochMs) - run.startEpochMs);
      const commitLagMs = run.endEpochMs - Number(d.lastCompletionEpochMs);
      notes.push(
        `${formatRatio(ratio(toLastCompletion, ideal))} to the last completion (${formatCount(toLastCompletion)}/s; the last commit ${formatMs(commitLagMs)} ms later)`,
      );
    }
    if (d.meanIoMs !== undefined) {
      const measuredIdeal = (IO_CONCURRENCY * 1000) / Number(d.meanIoMs);
      notes.push(
        `a ${IO_MS} ms sleep took ${Number(d.meanIoMs).toFixed(2)} ms on average: ${formatRatio(ratio(runRate(run), measuredIdeal))} of the ${formatCount(measuredIdeal)}/s that allows`,
      );
    }
  }
  if (entry.plan.id === '7') {
    const isolation = isolationRatio(context);
    notes.push(`other five partitions: ${formatRatio(isolation)} of (2); quarantined ${d.quarantined ?? 'nothing'}`);
  }
  return notes.join('; ');
}

/** (6): records/s if every one of the IO_CONCURRENCY slots always held a call of exactly IO_MS. */
function ioIdeal(): number {
  return (IO_CONCURRENCY * 1000) / IO_MS;
}

/** (9), (9r): where the time went (workloads/pipeline-probe.ts). */
function pipelineCosts(d: Measurement['details']): string {
  return (
    `${formatCount(Number(d.batches))} batches (mean ${d.meanBatchSize}; ${d.batchSizes}), ` +
    `${formatCount(Number(d.statements))} upserts (mean ${d.meanStatementMs} ms), ` +
    `${formatCount(Number(d.produceRequests))} produce requests (mean ${d.meanMessagesPerRequest} results, ${d.meanProduceMs} ms)` +
    (d.commits === undefined ? '' : `, ${formatCount(Number(d.commits))} commits`) +
    `; CPU ${formatCount(Number(d.cpuMs))} ms (${d.cpuMsPer1000Records} ms per 1,000 records)`
  );
}

export interface PeerComparison {
  peerId: string;
  wardenRate: number | null;
  pcRate: number | null;
  /** Warden's records/s ÷ Parallel Consumer's, each its median run, both from this bench run. */
  ratio: number | null;
  /** Both rates over the window that ends at the last handler's end (where both runs recorded it). */
  toLastHandlerEnd: { warden: number | null; pc: number | null } | null;
}

/** A Parallel Consumer row against its Warden peer (plan.peerOf) in the same bench run; null without either. */
export function peerComparison(entry: WorkloadRuns, context: Pick<Context, 'byId'>): PeerComparison | null {
  const peerId = entry.plan.peerOf;
  const peer = peerId === undefined ? undefined : context.byId.get(peerId);
  if (peerId === undefined || !peer) return null;
  const wardenRun = representativeRun(peer.runs);
  const pcRun = representativeRun(entry.runs);
  const wardenRate = wardenRun ? runRate(wardenRun) : null;
  const pcRate = pcRun ? runRate(pcRun) : null;
  const toEnd = (run: Measurement | null, detail: string) =>
    run && run.details[detail] !== undefined
      ? recordsPerSecond(run.records, Number(run.details[detail]) - run.startEpochMs)
      : null;
  const wardenToEnd = toEnd(wardenRun, 'lastCompletionEpochMs');
  const pcToEnd = toEnd(pcRun, 'lastHandlerEndEpochMs');
  return {
    peerId,
    wardenRate,
    pcRate,
    ratio: ratio(wardenRate, pcRate),
    toLastHandlerEnd: wardenToEnd === null || pcToEnd === null ? null : { warden: wardenToEnd, pc: pcToEnd },
  };
}

/** (14): what was counted where, in words and numbers. */
function controlTrafficNotes(d: Measurement['details']): string {
  const windowS = Number(d.windowMs) / 1000;
  const states = Number(d.statesPublished);
  const perSec = (bytes: number) => formatCount((bytes * 1000) / Number(d.windowMs));
  const headers =
    d.headerBytesPerSec === null
      ? 'TCP/IP headers not measured (no ss)'
      : `TCP/IP headers ${formatCount(Number(d.headerBytesPerSec))} B/s more (${formatCount(Number(d.tcpSegments))} segments x ${d.headerBytesPerSegment} B, from ss)`;
  const disk =
    d.brokerDiskBytesPerSec === null
      ? `on disk not measured (${d.brokerSizesProblem})`
      : `on disk +${formatCount(Number(d.brokerStateDiskBytes) + Number(d.brokerCommandDiskBytes))} B = ${formatCount(Number(d.brokerDiskBytesPerSec))} B/s ` +
        `(kafka-log-dirs${d.brokerSizesExact ? '' : '; a state landed while it ran: ± one state'})`;
  return (
    `${formatCount(Number(d.controlBytesPerSec))} B/s of Kafka protocol bytes on the control plane's client (its producer and its command reader, both directions) ` +
    `over ${formatCount(windowS)} s holding ${states} states (one every ${Number(d.stateIntervalMs) / 1000} s; after a ${Number(d.warmupMs) / 1000} s warm-up; ` +
    `${d.partitions} partitions of a topic named in ${d.topicNameChars} characters, ${formatCount(Number(d.producedPerSec))} records/s produced): out ${perSec(Number(d.controlBytesOut))} / in ${perSec(Number(d.controlBytesIn))} B/s; ` +
    `requests in the window: ${d.requests || 'none'}; states ${formatCount(states > 0 ? Number(d.stateValueBytes) / states : null)} value bytes each (stats().publishedBytes; ` +
    "the topic's name is in each partition's entry, the assignment and the last rebalance stop), " +
    `${d.acksPublished} acks, ${d.commandMessagesRead} command-topic messages read; ${headers}; ` +
    `broker: state topic +${d.brokerStateRecords} records, command topic +${d.brokerCommandRecords}, ${disk}; ` +
    `not counted: the consumer's own client (data fetches, heartbeats, commits); the admin the core and the control plane share: ${formatCount(Number(d.adminBytesPerSec))} B/s` +
    (Number(d.connectionsOpenedOrClosed) > 0
      ? `; ${d.connectionsOpenedOrClosed} connections opened or closed in the window (their segments not counted)`
      : '')
  );
}

export interface ControlThroughputComparison {
  /** Records/s of every 'on' and 'off' run, in run order. */
  on: number[];
  off: number[];
  onMedian: number | null;
  offMedian: number | null;
  /**
   * The geometric mean of the pairs' on ÷ off: each pair ran back to back under the same conditions, and the
   * pairs' orders are balanced (off, on | on, off each round), so neither the order nor a drift between rounds
   * leans on it as it can on a ratio of medians, which may set a noisy 'on' against a quiet 'off'.
   */
  ratio: number | null;
  /** on ÷ off of each back-to-back pair, in run order. */
  pairRatios: Array<number | null>;
  orders: string[];
  /** States each 'on' run published inside its window (the control plane starts with the consumer). */
  statesInWindow: number[];
}

/** A run's records/s from the window its details carry under `prefix` (workload-runs.ts, (15)). */
function detailsRate(details: Measurement['details'], prefix: string): number | null {
  const records = details[`${prefix}Records`];
  const start = details[`${prefix}StartEpochMs`];
  const end = details[`${prefix}EndEpochMs`];
  if (records === undefined || records === null || start === undefined || end === undefined) return null;
  return recordsPerSecond(Number(records), Number(end) - Number(start));
}

/** The geometric mean of the finite, positive values; null when there is none. */
export function geometricMean(values: ReadonlyArray<number | null>): number | null {
  const usable = values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0);
  if (usable.length === 0) return null;
  return Math.exp(usable.reduce((sum, v) => sum + Math.log(v), 0) / usable.length);
}

/** (15)'s pairs: per round, the first 'on' run with the first 'off', the second 'on' with the second 'off'. */
export function controlThroughputComparison(entry: WorkloadRuns): ControlThroughputComparison | null {
  const pairs = entry.runs.flatMap((run) => {
    const d = run.details;
    const states = (value: unknown) => (value === undefined || value === null ? [] : [Number(value)]);
    return [
      { on: runRate(run), off: detailsRate(d, 'off1'), order: 'off, on', states: states(d.controlStatesPublished) },
      {
        on: detailsRate(d, 'on2'),
        off: detailsRate(d, 'off2'),
        order: 'on, off',
        states: states(d.on2StatesPublished),
      },
    ];
  });
  if (pairs.length === 0) return null;
  const on = pairs.map((p) => p.on).filter((r): r is number => r !== null);
  const off = pairs.map((p) => p.off).filter((r): r is number => r !== null);
  const pairRatios = pairs.map((p) => ratio(p.on, p.off));
  return {
    on,
    off,
    onMedian: median(on),
    offMedian: median(off),
    ratio: geometricMean(pairRatios),
    pairRatios,
    orders: pairs.map((p) => p.order),
    statesInWindow: pairs.flatMap((p) => p.states),
  };
}

/** (15)'s ratios with three decimals: its target (0.97) sits where two would round across it. */
function formatFineRatio(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(3);
}

/** "2 states", or "2–3 states" when the runs differ. */
function statesText(counts: readonly number[]): string {
  const least = Math.min(...counts);
  const most = Math.max(...counts);
  return `${least === most ? least : `${least}–${most}`} state${most === 1 ? '' : 's'}`;
}

function controlThroughputNotes(c: ControlThroughputComparison): string {
  const range = (rates: number[]) =>
    rates.length > 1 ? ` (${formatCount(Math.min(...rates))}–${formatCount(Math.max(...rates))})` : '';
  return (
    `control on: median ${formatCount(c.onMedian)}/s${range(c.on)}; off: median ${formatCount(c.offMedian)}/s${range(c.off)}; ` +
    `on ÷ off ${formatFineRatio(c.ratio)} (geometric mean of ${c.pairRatios.length} pair${c.pairRatios.length === 1 ? '' : 's'} back to back; ` +
    `ratio of the medians ${formatFineRatio(ratio(c.onMedian, c.offMedian))}), ` +
    `per pair (${c.orders.join(' | ')}): ${c.pairRatios.map(formatFineRatio).join(', ')}` +
    (c.statesInWindow.length === 0
      ? ''
      : `; the control plane starts with the consumer, so each 'on' window holds its start: its reader joining, ` +
        `its producer connecting and ${statesText(c.statesInWindow)} published`)
  );
}

/** (7): the other five partitions' records/s with poison, over the same partitions' records/s in (2). */
export function isolationRatio(context: Context): number | null {
  const poisoned = context.byId.get('7');
  const clean = context.byId.get('2');
  const cleanOffsets = context.endOffsets.get('2');
  const poisonedRun = poisoned ? representativeRun(poisoned.runs) : null;
  if (!poisonedRun || !clean || !cleanOffsets) return null;
  const five = [1, 2, 3, 4, 5];
  const cleanRates = clean.runs
    .map((run) => partitionsRate(run, cleanOffsets, five))
    .filter((r): r is number => r !== null);
  return ratio(runRate(poisonedRun), median(cleanRates));
}

export function summarize(
  entries: readonly WorkloadRuns[],
  endOffsets: Map<string, number[]>,
): { rows: Row[]; targets: TargetCheck[] } {
  const context: Context = { byId: new Map(entries.map((e) => [e.plan.id, e])), endOffsets };
  const raw = context.byId.get('1');
  const rawRun = raw ? representativeRun(raw.runs) : null;
  const rawRate = rawRun ? runRate(rawRun) : null;
  const rows = entries.map((entry): Row => {
    const timing = isTimingWorkload(entry.plan);
    const run = timing ? (entry.runs[entry.runs.length - 1] ?? null) : representativeRun(entry.runs);
    const rate = run && !timing ? runRate(run) : null;
    const peaks = entry.runs.map((r) => r.peakRssBytes);
    return {
      id: entry.plan.id,
      title: entry.plan.title,
      records: run?.records ?? null,
      recordsPerSec: rate,
      runsRecordsPerSec: timing ? [] : entry.runs.map(runRate).filter((r): r is number => r !== null),
      ratioToRaw: isRatedAgainstRaw(entry.plan) ? ratio(rate, rawRate) : null,
      p50Ms: run?.latency.p50 ?? null,
      p99Ms: run?.latency.p99 ?? null,
      peakRssBytes: peaks.length > 0 ? Math.max(...peaks) : null,
      notes: notesFor(entry, run, context),
    };
  });
  return { rows, targets: targets(rows, context) };
}

function targets(rows: readonly Row[], context: Context): TargetCheck[] {
  const row = (id: string) => rows.find((r) => r.id === id);
  const checks: TargetCheck[] = [];
  const atLeast = (id: string, threshold: number) => {
    const r = row(id);
    if (!r) return;
    checks.push({
      target: `(${id}) at least ${threshold} of (1)`,
      measured: formatRatio(r.ratioToRaw),
      pass: r.ratioToRaw === null ? null : r.ratioToRaw >= threshold,
    });
  };
  atLeast('2', 0.85);
  atLeast('3b', 0.7);
  const pipeline = row('9');
  if (pipeline) {
    const ceiling = row('9r');
    const ofCeiling = ceiling ? ratio(pipeline.recordsPerSec, ceiling.recordsPerSec) : null;
    checks.push({
      target: `(9) at least ${formatCount(PIPELINE_TARGET_RECORDS_PER_SEC)} records/s`,
      measured: formatCount(pipeline.recordsPerSec),
      pass: pipeline.recordsPerSec === null ? null : pipeline.recordsPerSec >= PIPELINE_TARGET_RECORDS_PER_SEC,
    });
    if (ceiling) {
      checks.push({
        target: `(9) at least ${PIPELINE_TARGET_OF_CEILING} of (9r) in the same run`,
        measured: formatRatio(ofCeiling),
        pass: ofCeiling === null ? null : ofCeiling >= PIPELINE_TARGET_OF_CEILING,
      });
    }
  }
  const io = row('6');
  if (io) {
    const ofIdeal = ratio(io.recordsPerSec, ioIdeal());
    checks.push({
      target: `(6) at least ${IO_TARGET_OF_IDEAL} of the ${formatCount(ioIdeal())}/s ideal`,
      measured: formatRatio(ofIdeal),
      pass: ofIdeal === null ? null : ofIdeal >= IO_TARGET_OF_IDEAL,
    });
    // The nominal ideal assumes a 5 ms sleep takes 5 ms; a Node timer here takes longer, which no consumer can
    // win back, so the same share is also checked against the rate the run's own measured sleeps allow.
    const ioRun = representativeRun(context.byId.get('6')?.runs ?? []);
    const meanIoMs = ioRun?.details.meanIoMs;
    if (meanIoMs !== undefined && Number(meanIoMs) > 0) {
      const allowed = (IO_CONCURRENCY * 1000) / Number(meanIoMs);
      const ofAllowed = ratio(io.recordsPerSec, allowed);
      checks.push({
        target: `(6) at least ${IO_TARGET_OF_IDEAL} of the ${formatCount(allowed)}/s its measured ${Number(meanIoMs).toFixed(2)} ms sleeps allow`,
        measured: formatRatio(ofAllowed),
        pass: ofAllowed === null ? null : ofAllowed >= IO_TARGET_OF_IDEAL,
      });
    }
  }
  if (row('7')) {
    const isolation = isolationRatio(context);
    checks.push({
      target: '(7) other partitions at least 0.95 of their rate in (2)',
      measured: formatRatio(isolation),
      pass: isolation === null ? null : isolation >= 0.95,
    });
  }
  const memory = context.byId.get('8');
  const memoryRun = memory ? representativeRun(memory.runs) : null;
  if (memory) {
    const verdict = memoryRun ? memoryVerdict(memoryRun.details) : null;
    checks.push({
      target: '(8) bounded: held ≤ maxPending + one batch, RSS flat (< 10% growth)',
      measured: memoryRun
        ? `held ${formatCount(Number(memoryRun.details.heldMax))} ≤ ${formatCount(Number(memoryRun.details.heldBound))}, RSS ${formatMiB(verdict!.rssGrowthBytes)} MiB growth`
        : '—',
      pass: verdict ? verdict.bounded : null,
    });
  }
  const within = (id: string, detail: string, targetMs: number, what: string, at = 'at p95') => {
    const entry = context.byId.get(id);
    if (!entry) return;
    const run = entry.runs[entry.runs.length - 1];
    const measured = run ? Number(run.details[detail]) : Number.NaN;
    checks.push({
      target: `(${id}) ${what} under ${formatCount(targetMs)} ms ${at}`,
      measured: Number.isFinite(measured) ? `${formatMs(measured)} ms` : '—',
      pass: Number.isFinite(measured) ? measured < targetMs : null,
    });
  };
  within('10', 'roundP95Ms', SAMPLER_ROUND_TARGET_MS, 'a sampling round of 100 groups x 50 partitions');
  within('10s', 'roundP95Ms', SCALE_ROUND_TARGET_MS, 'a sampler round of the generated fleet (compute + write)');
  within('10s', 'roundMaxMs', SCALE_ROUND_LIMIT_MS, 'every sampler round of the generated fleet', '(the 5 s interval)');
  const shards = context.byId.get('10h');
  const shardsRun = shards?.runs[shards.runs.length - 1];
  if (shards) {
    const failoverMs = shardsRun ? Number(shardsRun.details.failoverMs) : Number.NaN;
    const intervalMs = shardsRun ? Number(shardsRun.details.intervalMs) : Number.NaN;
    const partial = shardsRun ? Number(shardsRun.details.partialRoundsAfterKill) : Number.NaN;
    checks.push({
      target:
        "(10h) a killed sampler instance's shards taken at the survivor's first tick after the kill (within one interval, or its round in progress)",
      measured: Number.isFinite(failoverMs)
        ? `${formatMs(failoverMs)} ms (interval ${formatCount(intervalMs)} ms), ${partial} round${partial === 1 ? '' : 's'} in progress`
        : '—',
      pass: Number.isFinite(failoverMs) ? partial <= 1 && (partial === 1 || failoverMs <= intervalMs) : null,
    });
    const worst = shardsRun
      ? Math.max(Number(shardsRun.details.splitAShareOfAlone), Number(shardsRun.details.splitBShareOfAlone))
      : Number.NaN;
    checks.push({
      target: '(10h) two sampler instances take about half the round time each (at most 0.65 of one alone)',
      measured: Number.isFinite(worst) ? formatRatio(worst) : '—',
      pass: Number.isFinite(worst) ? worst <= 0.65 : null,
    });
  }
  within('11a', 'p95Ms', API_READ_TARGET_MS, 'GET /api/groups/{groupId}');
  within('11b', 'p95Ms', API_READ_TARGET_MS, 'a 24-hour lag series');
  within('11o', 'p95Ms', OVERVIEW_PAGE_TARGET_MS, 'an overview page of the fleet over HTTP');
  within('12', 'p95Ms', ACTION_ROUND_TRIP_TARGET_MS, 'an operator action visible through the API');
  within(
    '13',
    'p95Ms',
    SERVICE_ACTION_ROUND_TRIP_TARGET_MS,
    'an operator action to the example service (its own process) visible through the API',
  );
  const redrive = (id: string) => {
    const entry = context.byId.get(id);
    const run = entry?.runs[entry.runs.length - 1];
    return run ? { configured: Number(run.details.configuredRatePerSec), achieved: runRate(run) } : null;
  };
  if (context.byId.has('16')) {
    const run = redrive('16');
    const off = run?.achieved == null ? null : Math.abs(run.achieved / run.configured - 1);
    checks.push({
      target: `(16) a redrive keeps to its rate within ${REDRIVE_RATE_TOLERANCE * 100}% (claim to end)`,
      measured:
        run?.achieved == null
          ? '—'
          : `${formatCount(run.achieved)}/s of ${formatCount(run.configured)}/s (${((run.achieved / run.configured - 1) * 100).toFixed(1)}%)`,
      pass: off === null ? null : off <= REDRIVE_RATE_TOLERANCE,
    });
  }
  if (context.byId.has('16u')) {
    const run = redrive('16u');
    checks.push({
      target: `(16u) an unthrottled redrive at least ${formatCount(REDRIVE_UNTHROTTLED_TARGET_RECORDS_PER_SEC)} records/s`,
      measured: run?.achieved == null ? '—' : `${formatCount(run.achieved)}/s`,
      pass: run?.achieved == null ? null : run.achieved >= REDRIVE_UNTHROTTLED_TARGET_RECORDS_PER_SEC,
    });
  }
  const traffic = context.byId.get('14');
  if (traffic) {
    const run = traffic.runs[traffic.runs.length - 1];
    const measured = run ? Number(run.details.controlBytesPerSec) : Number.NaN;
    const headers = run?.details.headerBytesPerSec;
    checks.push({
      target: `(14) control-plane traffic of one instance with ${run?.details.partitions ?? '?'} partitions under ${formatCount(CONTROL_TRAFFIC_TARGET_BYTES_PER_SEC)} B/s (Kafka protocol bytes, both directions)`,
      measured: Number.isFinite(measured)
        ? `${formatCount(measured)} B/s` +
          (headers === null || headers === undefined
            ? ''
            : ` (${formatCount(measured + Number(headers))} B/s with TCP/IP headers)`)
        : '—',
      pass: Number.isFinite(measured) ? measured < CONTROL_TRAFFIC_TARGET_BYTES_PER_SEC : null,
    });
  }
  const throughput = context.byId.get('15');
  if (throughput) {
    const comparison = controlThroughputComparison(throughput);
    checks.push({
      target: `(15) control plane on at least ${CONTROL_THROUGHPUT_TARGET_RATIO} of off (back-to-back pairs, same run)`,
      measured:
        comparison?.ratio === null || comparison === null
          ? '—'
          : `${formatFineRatio(comparison.ratio)} (geometric mean of ${comparison.pairRatios.length} pair${comparison.pairRatios.length === 1 ? '' : 's'}; medians ${formatCount(comparison.onMedian)} ÷ ${formatCount(comparison.offMedian)}/s)`,
      pass: !comparison || comparison.ratio === null ? null : comparison.ratio >= CONTROL_THROUGHPUT_TARGET_RATIO,
    });
  }
  for (const entry of context.byId.values()) {
    if (entry.plan.kind !== 'parallel-consumer') continue;
    const peerId = entry.plan.peerOf;
    const threshold = peerId === undefined ? undefined : PC_RATIO_TARGETS[peerId];
    if (peerId === undefined || threshold === undefined) continue;
    const comparison = peerComparison(entry, context);
    const measured = entry.skipped
      ? `not measured: ${entry.plan.id} skipped (${entry.skipped})`
      : comparison?.ratio === null || comparison === null
        ? '—'
        : `${formatRatio(comparison.ratio)} (${formatCount(comparison.wardenRate)} ÷ ${formatCount(comparison.pcRate)}/s)`;
    checks.push({
      target: `(${peerId}) Warden ÷ Parallel Consumer (${entry.plan.id}) at least ${threshold.toFixed(1)}`,
      measured,
      pass: !comparison || comparison.ratio === null ? null : comparison.ratio >= threshold,
    });
  }
  for (const id of ['5', '5p', '5s']) {
    const r = row(id);
    const runs = context.byId.get(id);
    const keyedRetryRun = runs ? representativeRun(runs.runs) : null;
    if (!r) continue;
    if (id === '5') {
      checks.push({
        target: `(5) more than the published ${formatCount(PUBLISHED_FIGURES.recordsPerSec)} records/s`,
        measured: formatCount(r.recordsPerSec),
        pass: r.recordsPerSec === null ? null : r.recordsPerSec > PUBLISHED_FIGURES.recordsPerSec,
      });
    }
    const medianText = r.p50Ms === null ? '—' : `${r.p50Ms.toFixed(1)} ms`;
    // Unpaced, records arrive in the producer's requests of KEYED_RETRY_PRODUCE_CHUNK, one every few tens of ms, and
    // pile up whenever it outruns the consumer: that median measures the bench's producer as much as Warden.
    // The issue reads latency "at that sustainable rate", so the target is judged in the paced runs.
    const requestMs =
      keyedRetryRun && keyedRetryRun.details.produceMs !== undefined
        ? Number(keyedRetryRun.details.produceMs) / Math.ceil(keyedRetryRun.records / KEYED_RETRY_PRODUCE_CHUNK)
        : null;
    const produced = keyedRetryRun ? producerRate(keyedRetryRun) : null;
    const outran = produced !== null && r.recordsPerSec !== null && produced > r.recordsPerSec;
    checks.push({
      target: `(${id}) median latency below the published ${PUBLISHED_FIGURES.p50Ms} ms`,
      measured:
        id === '5'
          ? `${medianText}, not judged: unpaced, ` +
            (outran
              ? `the producer (${formatCount(produced)}/s) outran the consumer (${formatCount(r.recordsPerSec)}/s) and `
              : '') +
            `records arrive in ${formatCount(KEYED_RETRY_PRODUCE_CHUNK)}-record produce requests` +
            `${requestMs === null ? '' : ` (one per ${formatMs(requestMs)} ms here)`}; judged at steady rates in (5p) and (5s)`
          : medianText,
      pass: id === '5' || r.p50Ms === null ? null : r.p50Ms < PUBLISHED_FIGURES.p50Ms,
    });
    checks.push({
      target: `(${id}) zero order violations`,
      measured: keyedRetryRun ? String(keyedRetryRun.details.violations) : '—',
      pass: keyedRetryRun ? keyedRetryRun.details.violations === 0 : null,
    });
  }
  return checks;
}

import { createDatabase, type Database } from '../../../lib/db';
import { DEFAULT_CLUSTER } from '../../../lib/schemas/values';
import { LagSampler, type RoundResult } from '../../../worker/sampler/lag-sampler';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { summarizeLatency } from '../stats';
import { GeneratedCluster } from './generated-cluster';
import { peakRssBytes } from './probe';
import { percentileMs, roundTimings, sortedBy } from './round-timings';

// (10s) The real LagSampler's compute and write path at fleet size: 2,000 groups x 50 partitions (100,000
// group-partitions, every group on its own topic) from a generated cluster state (generated-cluster.ts),
// against the real Postgres of the bench database. What it does not measure is the cluster read: (10) does
// that on the real broker at the largest size that starts here. The timed round is the sampler's own work
// (compute + writes); generating the observation is reported apart, and so is the CPU the process spent.
//
// The sampler's clock is the interval's: round n starts at n x intervalMs after the first and moves with real
// time inside the round. So idle skipping, rates and time lag behave as at a 5-second cadence even when this
// shared machine makes a round take longer than the interval, and the rounds run back to back.
//
// Storage is a scaled measurement: the tables' size (pg_total_relation_size: heap, indexes, TOAST) grown
// over the measured rounds, divided by the rounds, times the rounds of a day at the interval. The bench
// database's sample tables are emptied first, so the growth is this run's alone.

export const SCALE_PREFIX = 'warden-bench.scale';

/** The generated fleet the sampler-scale settings describe, read at `now` (the (10s) and (10h) rows share it). */
export function generatedFleet(
  settings: Pick<NonNullable<ChildSpec['samplerScale']>, 'groups' | 'partitions' | 'busyShare'>,
  now: () => number,
): GeneratedCluster {
  return new GeneratedCluster({
    groups: settings.groups,
    partitions: settings.partitions,
    busyShare: settings.busyShare,
    membersPerGroup: 3,
    prefix: SCALE_PREFIX,
    recordAgeMs: 2_000,
    now,
  });
}
const STORAGE_TABLES = ['lag_sample', 'log_end_point'] as const;
const DAY_MS = 86_400_000;

export async function emptySampleTables(db: Database, databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name.endsWith('_bench')) throw new Error(`refusing to empty "${name}": not a bench database`);
  await db.$executeRawUnsafe('TRUNCATE lag_sample, lag_rollup, lag_rollup_10m, log_end_point, rebalance_event');
}

async function tableBytes(db: Database): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const table of STORAGE_TABLES) {
    // A partitioned table's own size is 0: its partitions are summed.
    const rows = await db.$queryRawUnsafe<Array<{ bytes: bigint | null }>>(
      `SELECT COALESCE(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
       FROM pg_class c
       WHERE c.oid = '${table}'::regclass
          OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = '${table}'::regclass)`,
    );
    sizes[table] = Number(rows[0]?.bytes ?? 0);
  }
  return sizes;
}

export async function runSamplerScale(spec: ChildSpec): Promise<Measurement> {
  const settings = spec.samplerScale;
  if (!settings) throw new Error(`workload ${spec.workload}: the sampler-scale settings are missing`);
  const db = createDatabase(settings.databaseUrl, 2);
  let roundStartMs = Date.now();
  let roundStartedAt = performance.now();
  const clock = () => roundStartMs + (performance.now() - roundStartedAt);
  const cluster = generatedFleet(settings, clock);
  const sampler = new LagSampler({
    cluster: DEFAULT_CLUSTER,
    reader: cluster,
    db,
    lock: null,
    instanceId: `bench-${spec.workload}`,
    intervalMs: settings.intervalMs,
    idleStoreMs: settings.idleStoreMs,
    maxBackoffMs: 60_000,
    state: settings.state,
    retention: { rawDays: 7, rollupDays: 90 },
    now: clock,
  });
  try {
    await emptySampleTables(db, settings.databaseUrl);
    // As on a running worker, the day partitions exist before the rounds (untimed): rows go to their day.
    await sampler.maintain();
    const baselineRssBytes = process.memoryUsage.rss();
    const results: RoundResult[] = [];
    const cpuMs: number[] = [];
    let bytesBefore: Record<string, number> = {};
    const startEpochMs = epochNowMs();
    const firstRoundMs = Date.now();
    for (let round = 0; round < settings.rounds; round++) {
      roundStartMs = firstRoundMs + round * settings.intervalMs;
      roundStartedAt = performance.now();
      const cpuBefore = process.cpuUsage();
      const result = await sampler.sampleOnce();
      const cpu = process.cpuUsage(cpuBefore);
      if (!result.written) throw new Error(`round ${round + 1}: the rows did not reach Postgres`);
      results.push(result);
      cpuMs.push((cpu.user + cpu.system) / 1000);
      // The first round (empty histories, every log_end_point row new) is reported apart, storage included.
      if (round === 0) bytesBefore = await tableBytes(db);
    }
    const endEpochMs = epochNowMs();
    const bytesAfter = await tableBytes(db);
    const peak = peakRssBytes();
    const maintenanceStarted = performance.now();
    await sampler.maintain();
    const maintenanceMs = performance.now() - maintenanceStarted;

    const [first, ...measured] = results;
    const samplerMs = (r: RoundResult) => r.durationMs - r.clusterReadMs;
    const {
      clusterReadP50Ms,
      clusterReadP95Ms: _generateP95Ms,
      ...timings
    } = roundTimings(measured, samplerMs).details;
    const durations = sortedBy(measured, samplerMs);
    const slowest = measured.reduce<RoundResult | undefined>(
      (worst, r) => (worst === undefined || samplerMs(r) > samplerMs(worst) ? r : worst),
      undefined,
    );
    const groupPartitions = settings.groups * settings.partitions;
    const measuredRowsWritten = measured.reduce((sum, r) => sum + r.storedRows, 0);
    const roundsPerDay = DAY_MS / settings.intervalMs;
    const perRound = (table: string) => (bytesAfter[table]! - bytesBefore[table]!) / Math.max(1, measured.length);
    return {
      records: groupPartitions,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(durations),
      peakRssBytes: peak,
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        groups: settings.groups,
        partitions: settings.partitions,
        busyShare: settings.busyShare,
        ...timings,
        firstRoundMs: Math.round(first ? samplerMs(first) : Number.NaN),
        // Which measured round was the slowest (2 = the one after the first) and the rows it stored.
        slowestRound: slowest === undefined ? 0 : measured.indexOf(slowest) + 2,
        slowestRoundRows: slowest?.storedRows ?? 0,
        generateP50Ms: clusterReadP50Ms,
        samplerCpuP50Ms: percentileMs(Float64Array.from(cpuMs.slice(1)).sort(), 50),
        idleStoreMs: settings.idleStoreMs,
        lagSampleRowsPerRound: Math.round(measuredRowsWritten / Math.max(1, measured.length)),
        lagSampleBytesPerRound: Math.round(perRound('lag_sample')),
        lagSampleBytesPerDay: Math.round(perRound('lag_sample') * roundsPerDay),
        logEndPointBytes: bytesAfter.log_end_point!,
        maintenanceMs: Math.round(maintenanceMs),
        intervalMs: settings.intervalMs,
      },
    };
  } finally {
    await sampler.stop().catch(() => undefined);
    await db.$disconnect();
  }
}

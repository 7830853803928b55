// npm run soak - the whole stack under steady traffic and a seeded fault every few minutes, sampled every 10 s
// for memory, event-loop delay, handles, database connections, table and topic sizes and dashboard API latency;
// judged at the end by verify's checker (nothing lost, order kept, bad records accounted for), by the alerts'
// delivery and by slopes after the warm-up against the targets (docs/developing/soak.md).
//   npm run soak -- --duration 60m [--seed N] [--cluster 3] [--rate 40]
// Writes soak-results/soak-<time>.json (git-ignored) and prints the report; exits 1 on a failed check, 2 when the
// run could not finish. Not part of npm test.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Kafka } from 'kafkajs';
import { createDatabase, type Database } from '../../lib/db';
import { childProcessEnv } from '../../lib/config/program-config';
import { createKafka, kafkaSecurityFrom } from '../../lib/kafka/client';
import { ensureTopics } from '../../worker/kafka/topics';
import { bearer, OPERATOR_TOKEN } from '../../test-support/credentials';
import { eventually } from '../../test-support/eventually';
import { seededRandom } from '../../test-support/seeded-random';
import { uniqueName } from '../../test-support/unique-name';
import { DemoAlertReceiver } from '../demo/demo-alert-receiver';
import { startLocalBroker, stopLocalBroker } from '../lib/broker';
import { startBuiltDashboard } from '../lib/built-dashboard';
import type { ClusterNode } from '../lib/cluster';
import { parseCommandLine, parseDuration, parseSeed, runCommandLine, UsageError } from '../lib/command-line';
import { migrateDatabase } from '../lib/database';
import {
  siblingDatabaseUrl,
  startOwnBroker,
  startOwnCluster,
  type OwnBroker,
  type OwnCluster,
} from '../lib/own-services';
import { portsFromBase } from '../lib/port-base';
import { run } from '../lib/processes';
import { WorkerProcess } from '../lib/worker-process';
import { loadVerifyConfig } from '../verify/config';
import { ContinuousProducer } from '../verify/continuous-producer';
import { observe } from '../verify/observe';
import { encodeRecord, planRecords } from '../verify/records';
import { formatReports } from '../verify/report';
import { waitForCompletion, waitForResults } from '../verify/run-verification';
import { TcpProxy } from '../verify/tcp-proxy';
import { judge, passes, type ProducedRecord } from '../verify/verdict';
import { formatSoakReport, type FaultOutcome } from './report';
import type { ProcessSample, SystemSample } from './samples';
import { pgConnections, processGroupRssBytes, sampleWorker, tableSizes, timeApi, topicSizes } from './sampler';
import { describeFault, planSoakFaults, type SoakFault } from './schedule';
import { judgeAlerts, judgeSoak, SOAK_TARGETS, type NotificationRow, type SoakCheck } from './verdict';

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS_DIR = path.join(ROOT, 'soak-results');
/** The soak's ports are verify's plus this: broker +142, UI +150, receiver +160, workers +514.., cluster +650... */
const SOAK_PORT_OFFSET = 50;
const SAMPLE_EVERY_MS = 10_000;
const WORKERS = 2;
const CONTROL_TOPIC_PREFIXES = ['warden-control', '__consumer_offsets'];

const USAGE = `usage: npm run soak [-- [--duration 60m] [--seed N] [--cluster 3] [--rate R] [--partitions P]]
  --duration    how long the traffic and the faults run (e.g. 60m, 240s; default 60m)
  --seed        the fault schedule's seed (default: drawn and printed)
  --cluster 3   on a three-node cluster of its own instead of a single broker
  --rate        records per second (default 40)`;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, {
    duration: { type: 'string', default: '60m' },
    seed: { type: 'string' },
    cluster: { type: 'string' },
    rate: { type: 'string', default: '40' },
    partitions: { type: 'string', default: '6' },
  });
  if (values.help) return 'help';
  if (values.cluster !== undefined && values.cluster !== '3')
    throw new UsageError(`--cluster must be 3, got "${values.cluster}"`);
  const durationMs = parseDuration(values.duration);
  const seed = parseSeed(values.seed);
  const rate = Number(values.rate);
  const partitions = Number(values.partitions);
  if (!(rate > 0) || !Number.isInteger(partitions) || partitions < 1)
    throw new UsageError('--rate must be positive and --partitions a positive integer');
  const config = loadVerifyConfig();
  if (!config.usesLocalBroker) throw new UsageError('the soak restarts a broker of its own: unset KAFKA_BROKERS');
  console.log(`soak: seed ${seed} (replay with --seed ${seed}), ${durationMs / 60_000} min, load ${loadAverages()}`);

  const base = config.WARDEN_VERIFY_PORT_BASE + SOAK_PORT_OFFSET;
  const ports = portsFromBase(base);
  const databaseUrl = siblingDatabaseUrl(config.DATABASE_URL, 'soak');
  await recreateDatabase(databaseUrl);
  await migrateDatabase(databaseUrl);
  const own: OwnBroker | OwnCluster =
    values.cluster === '3'
      ? await startOwnCluster(config, base, 'kafka-soak-cluster')
      : await startOwnBroker(config, base, 'kafka-soak');
  const home =
    config.WARDEN_KAFKA_HOME ?? path.join(ROOT, '.warden', values.cluster ? 'kafka-soak-cluster' : 'kafka-soak');
  const dataDirs = values.cluster
    ? [1, 2, 3].map((n) => path.join(home, `node-${n}`, 'data'))
    : [path.join(home, 'data')];
  const kafka = createKafka({
    brokers: own.brokers,
    clientId: 'warden-soak',
    logLevel: 'nothing',
    ...kafkaSecurityFrom(config),
  });
  const db = createDatabase(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    return await soak({ kafka, db, pool, own, dataDirs, databaseUrl, ports, base, seed, durationMs, rate, partitions });
  } finally {
    await db.$disconnect();
    await pool.end();
    await own.stop();
  }
}

interface SoakSetup {
  kafka: Kafka;
  db: Database;
  pool: pg.Pool;
  own: OwnBroker | OwnCluster;
  dataDirs: string[];
  databaseUrl: string;
  ports: ReturnType<typeof portsFromBase>;
  base: number;
  seed: number;
  durationMs: number;
  rate: number;
  partitions: number;
}

async function soak(setup: SoakSetup): Promise<number> {
  const { kafka, db, pool, own, databaseUrl, ports, seed, durationMs, partitions } = setup;
  const cluster = 'cluster' in own ? own.cluster : null;
  const runId = uniqueName('soak');
  const topics = {
    input: `${runId}-in`,
    results: `${runId}-results`,
    dlq: `${runId}-dlq`,
    redriven: `${runId}-redriven`,
  };
  const groupId = `${runId}-group`;
  const admin = kafka.admin();
  await admin.connect();
  await ensureTopics(admin, [
    { topic: topics.input, numPartitions: partitions },
    { topic: topics.results, numPartitions: 1 },
    { topic: topics.dlq, numPartitions: 1 },
    { topic: topics.redriven, numPartitions: 1 },
  ]);

  // Postgres behind a proxy for the workers and the dashboard: a database outage cuts their connections and
  // refuses new ones without touching the machine's Postgres (the soak's own reads go direct).
  const database = new URL(databaseUrl);
  const proxy = new TcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
  database.port = String(await proxy.start());
  const receiver = new DemoAlertReceiver(() => undefined);
  const receiverPort = setup.base + 160;
  await receiver.start(receiverPort);

  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID'))) {
    console.log('soak: building the dashboard (no .next build yet)…');
    if ((await run('npx', ['next', 'build'], { cwd: ROOT, env: childProcessEnv() })) !== 0)
      throw new Error('next build failed');
  }
  const dashboard = startBuiltDashboard(ports.ui, database.toString(), ROOT, {
    env: { KAFKA_BROKERS: own.brokers.join(','), WARDEN_DLQ_TOPIC: topics.dlq },
  });
  const t0 = Date.now();
  const now = () => Date.now() - t0;
  const workerEnv = (index: number) => ({
    DATABASE_URL: database.toString(),
    KAFKA_BROKERS: own.brokers.join(','),
    WARDEN_GROUP_ID: groupId,
    WARDEN_INPUT_TOPIC: topics.input,
    WARDEN_RESULTS_TOPIC: topics.results,
    WARDEN_DLQ_TOPIC: topics.dlq,
    WARDEN_INPUT_PARTITIONS: String(partitions),
    // A poison record holds its partition until an operator acts: the soak's skip through the API.
    WARDEN_QUARANTINE_POLICY: 'pause',
    WARDEN_ORDERING: 'key',
    WARDEN_FAULT_TRANSIENT_RATE: '0.02',
    WARDEN_FAULT_LATENCY_MS: '2',
    WORKER_PORT: String(ports.worker + index),
    KAFKA_CLIENT_ID: `soak-worker-${index}`,
    LOG_LEVEL: 'error',
    ALERT_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/alerts`,
    ALERT_DASHBOARD_URL: dashboard.baseUrl,
    // Shorter `for`s than in production, as in the demo, so a fault's alert fires within a soak's minutes.
    ALERT_SETTINGS: JSON.stringify({
      '*': {
        'group-status': { forMs: 15_000 },
        'time-lag-objective': { forMs: 15_000 },
        'worker-not-ready': { forMs: 15_000 },
        'sampler-gap': { forMs: 10_000 },
      },
    }),
  });
  const workers = new Map<number, { process: WorkerProcess; name: string; startedAtMs: number }>();
  const starts = new Map<number, number>();
  const startWorker = async (index: number, waitReady: boolean) => {
    const count = (starts.get(index) ?? 0) + 1;
    starts.set(index, count);
    const process = new WorkerProcess(workerEnv(index));
    workers.set(index, {
      process,
      name: count === 1 ? `worker-${index}` : `worker-${index} (${count})`,
      startedAtMs: now(),
    });
    await process.start(waitReady);
  };

  const processSamples: ProcessSample[] = [];
  const systemSamples: SystemSample[] = [];
  const outcomes: FaultOutcome[] = [];
  const poisons: ProducedRecord[] = [];
  const notes: string[] = [];
  let sampling = true;
  let sampler: Promise<void> = Promise.resolve();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  try {
    await dashboard.ready();
    for (let i = 0; i < WORKERS; i++) await startWorker(i, true);
    const dashboardStartedMs = now();
    await producer.connect();
    console.log(
      `soak: up in ${Math.round(now() / 1_000)} s: ${own.brokers.length} broker(s), ${WORKERS} workers, dashboard ${dashboard.baseUrl}`,
    );

    const faults = planSoakFaults(seed, { durationMs, workers: WORKERS, brokerNodes: cluster ? 3 : 1, partitions });
    console.log(`soak: ${faults.length} faults (seconds from the start of the traffic):`);
    for (const fault of faults) console.log(`  ${Math.round(fault.atMs / 1_000)} s  ${describeFault(fault)}`);

    const planned = planRecords(
      {
        runId,
        records: Math.round((setup.rate * durationMs) / 1_000),
        keys: 20,
        poisonShare: 0,
        malformedShare: 0,
        ignoredShare: 0.02,
      },
      seededRandom(seed),
    );
    const traffic = new ContinuousProducer(kafka, topics.input, planned, partitions);
    const trafficStart = Date.now();
    const at = () => Date.now() - trafficStart;
    const producing = traffic.run(durationMs);

    sampler = (async () => {
      while (sampling) {
        const atMs = at();
        for (const [, worker] of workers) {
          const readings = await sampleWorker(worker.process.port);
          if (readings)
            processSamples.push({
              atMs,
              process: worker.name,
              startedAtMs: worker.startedAtMs - (trafficStart - t0),
              ...readings,
            });
        }
        const dashboardRss = dashboard.pid === undefined ? null : processGroupRssBytes(dashboard.pid);
        processSamples.push({
          atMs,
          process: 'dashboard',
          startedAtMs: dashboardStartedMs - (trafficStart - t0),
          rssBytes: dashboardRss,
          heapUsedBytes: null,
          loopP99Seconds: null,
          activeHandles: null,
        });
        systemSamples.push({
          atMs,
          pgConnections: await pgConnections(pool, decodeURIComponent(new URL(databaseUrl).pathname.slice(1))),
          tables: await tableSizes(pool),
          topics: topicSizes(setup.dataDirs, CONTROL_TOPIC_PREFIXES),
          ...(await timeApi(dashboard.baseUrl, ['/api/groups', `/api/groups/${encodeURIComponent(groupId)}`], 3)),
        });
        const wait = SAMPLE_EVERY_MS - (at() - atMs);
        if (wait > 0) await pause(wait);
      }
    })();

    const inject: Record<SoakFault['kind'], (fault: SoakFault) => Promise<string>> = {
      'kill-worker': async ({ target, holdMs }) => {
        await workers.get(target)?.process.stop('SIGKILL');
        await pause(holdMs);
        await startWorker(target, false);
        await eventually(
          `worker ${target} ready`,
          async () => ((await workers.get(target)!.process.ready()) ? true : undefined),
          120_000,
        );
        return `worker ${target} ready again`;
      },
      'broker-restart': async ({ target, holdMs }) => {
        if (cluster) {
          await cluster.stopNode(target as ClusterNode);
          await pause(holdMs);
          await cluster.startNode(target as ClusterNode);
        } else {
          const broker = own.localBroker!;
          await stopLocalBroker(broker);
          await pause(holdMs);
          await startLocalBroker({ ...broker, fresh: false });
        }
        return 'broker back';
      },
      'database-down': async ({ holdMs }) => {
        proxy.setDown(true);
        await pause(holdMs);
        proxy.setDown(false);
        return 'database reachable again';
      },
      'receiver-down': async ({ holdMs }) => {
        await receiver.stop();
        await pause(holdMs);
        await receiver.start(receiverPort);
        return `receiver back (${receiver.received.length} alerts so far)`;
      },
      'poison-skip': (fault) => poisonAndSkip(fault),
      redrive: () => redrive(),
    };

    const poisonAndSkip = async ({ target, holdMs }: SoakFault): Promise<string> => {
      const record = {
        id: `${runId}-poison-${poisons.length}`,
        key: `poison-${poisons.length}`,
        sequence: 0,
        kind: 'poison' as const,
      };
      const [sent] = await producer.send({
        topic: topics.input,
        acks: -1,
        messages: [{ ...encodeRecord(record, 0), partition: target }],
      });
      const offset = BigInt(sent!.baseOffset!);
      poisons.push({ ...record, partition: target, offset });
      await eventually(
        `the poison record at ${target}/${offset} quarantined`,
        async () =>
          (await db.partitionQuarantine.findFirst({
            where: { groupId, topic: topics.input, partition: target, offset },
          }))
            ? true
            : undefined,
        180_000,
      );
      await pause(holdMs);
      const url = `${dashboard.baseUrl}/api/groups/${encodeURIComponent(groupId)}/partitions/${encodeURIComponent(topics.input)}/${target}/actions`;
      const action = await api<{ id: string }>(url, { action: 'skip', reason: 'soak: skip of the poison record' });
      const state = await eventually(
        `skip ${action.id} applied`,
        async () => {
          const command = await api<{ state: string; message: string }>(
            `${dashboard.baseUrl}/api/commands/${action.id}`,
          );
          return command.state === 'pending' ? undefined : command;
        },
        120_000,
      );
      if (state.state !== 'applied') throw new Error(`skip ${action.id} ended ${state.state}: ${state.message}`);
      return `quarantined at ${target}/${offset}, skip ${action.id} applied`;
    };

    const redrive = async (): Promise<string> => {
      const matches = await api<{ count: number }>(
        `${dashboard.baseUrl}/api/dead-letters/matches?sourceTopic=${encodeURIComponent(topics.input)}`,
      );
      if (matches.count === 0) return 'no dead letters to redrive yet';
      const job = await api<{ id: string }>(`${dashboard.baseUrl}/api/dead-letters/redrives`, {
        selection: { kind: 'filter', filter: { sourceTopic: topics.input } },
        reason: 'soak: redrive of the dead letters',
        expectedCount: matches.count,
        force: true,
        targetTopic: topics.redriven,
      });
      const done = await eventually(
        `redrive ${job.id} finished`,
        async () => {
          const { jobs } = await api<{ jobs: Array<{ id: string; status: string }> }>(
            `${dashboard.baseUrl}/api/dead-letters/redrives`,
          );
          const found = jobs.find((j) => j.id === job.id);
          return found && ['cancelled', 'done', 'failed', 'rejected'].includes(found.status) ? found : undefined;
        },
        120_000,
      );
      if (done.status !== 'done') throw new Error(`redrive ${job.id} ended ${done.status}`);
      return `redrive ${job.id} of ${matches.count} record(s) to ${topics.redriven} done`;
    };

    for (const fault of faults) {
      const wait = fault.atMs - at();
      if (wait > 0) await pause(wait);
      const startedMs = at();
      console.log(`soak @${Math.round(startedMs / 1_000)} s: ${describeFault(fault)}`);
      let detail = '';
      let error: string | null = null;
      try {
        detail = await inject[fault.kind](fault);
      } catch (e) {
        error = (e as Error).message.slice(0, 300);
        console.log(`soak: fault failed: ${error}`);
      }
      outcomes.push({ fault, startedMs, endedMs: at(), detail, error });
    }
    await producing;
    sampling = false;
    await sampler;
    console.log(`soak: traffic done after ${Math.round(at() / 1_000)} s; checking what the workers did…`);

    // verify's checker over everything produced: the traffic (reconciled with the log) and the poison records.
    const produced = [...(await traffic.reconcile(admin, notes)), ...poisons];
    const seen = (withResults = false) =>
      eventually(
        'an observation of the run',
        () =>
          observe({
            kafka,
            admin,
            db,
            runId,
            groupId,
            inputTopic: topics.input,
            dlqTopic: topics.dlq,
            ...(withResults ? { resultsTopic: topics.results } : {}),
          }),
        60_000,
      );
    await waitForCompletion(produced, seen, 'dead-letter');
    await waitForResults(produced, seen, notes);
    const verdict = judge(produced, await seen(true), true);
    const checkerPassed = passes(verdict, { ordered: true }) && !notes.some((n) => n.startsWith('scenario failed'));

    // Alerts still retrying get a last minute to arrive.
    const notifications = async () =>
      (
        await pool.query<NotificationRow>(
          `SELECT id::text, receiver, kind, status, attempts, last_error AS "lastError" FROM alert_notification ORDER BY id`,
        )
      ).rows;
    await eventually(
      'pending alerts delivered',
      async () => ((await notifications()).some((n) => n.status === 'pending') ? undefined : true),
      60_000,
    ).catch(() => undefined);
    const alerts = judgeAlerts(await notifications(), receiver.received.length);

    const warmupMs = Math.min(10 * 60_000, Math.round(durationMs / 4));
    const judgement = judgeSoak(processSamples, systemSamples, {
      warmupMs,
      processWarmupMs: 60_000,
      minSeriesMs: Math.min(10 * 60_000, Math.round(durationMs / 4)),
      apiExcluded: outcomes
        .filter((o) => o.fault.kind === 'database-down' || o.fault.kind === 'broker-restart')
        .map((o) => ({ fromMs: o.startedMs, toMs: o.endedMs + 20_000 })),
    });
    const failedFaults = outcomes.filter((o) => o.error !== null);
    const checks: SoakCheck[] = [
      {
        check: "verify's checker over the traffic",
        measured: `${verdict.produced} produced, ${verdict.stored} stored, ${verdict.lost.length} lost, ${verdict.orderViolations} out of order, ${verdict.deadLettered}/${verdict.badRecords} bad records dead-lettered`,
        target: 'nothing lost, order kept, every bad record accounted for',
        passed: checkerPassed,
      },
      { check: alerts.check, measured: alerts.measured, target: alerts.target, passed: alerts.passed },
      {
        check: 'faults applied',
        measured: `${outcomes.length - failedFaults.length} of ${outcomes.length}`,
        target: 'every fault applied and recovered',
        passed: failedFaults.length === 0,
      },
      ...judgement.checks,
    ];
    const passed = checks.every((c) => c.passed !== false);
    console.log('');
    console.log(`soak: warm-up ${Math.round(warmupMs / 1_000)} s (and each process's first 60 s); seed ${seed}`);
    console.log(formatSoakReport(checks, judgement, outcomes));
    console.log('');
    console.log(
      formatReports([
        {
          scenario: 'soak',
          passed: checkerPassed,
          seconds: Math.round(at() / 1_000),
          verdict,
          checkpoints: [],
          faults: [],
          notes: [...notes, ...alerts.notes],
        },
      ]),
    );
    const load = loadAverages();
    console.log(`soak: ${passed ? 'PASS' : 'FAIL'}; load averages ${load}`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `soak-${new Date().toISOString().replaceAll(':', '-')}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          seed,
          durationMs,
          cluster: cluster !== null,
          ratePerSec: setup.rate,
          warmupMs,
          targets: SOAK_TARGETS,
          passed,
          loadAverages: load,
          checks,
          faults: outcomes,
          judgement,
          checker: { passed: checkerPassed, verdict, notes },
          alerts: { ...alerts, received: receiver.received.length },
          samples: { processes: processSamples, system: systemSamples },
        },
        (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
        2,
      ),
    );
    console.log(`soak: results written to ${path.relative(process.cwd(), file)}`);
    return passed ? 0 : 1;
  } finally {
    sampling = false;
    await sampler.catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    for (const [, worker] of workers) await worker.process.stop('SIGTERM');
    dashboard.stop();
    await receiver.stop();
    await proxy.stop();
    await admin.disconnect();
  }
}

/** A dashboard API call with the operator's bearer token: a GET, or a POST of `body`; throws on non-2xx. */
async function api<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...bearer(OPERATOR_TOKEN), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Drops the soak's database (its own, never the configured one), so every run starts from empty tables. */
async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name.endsWith('_soak')) throw new Error(`refusing to drop ${name}: not a soak database`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

const loadAverages = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// Exit 1 is a failed check; a run that could not finish exits 2.
runCommandLine('soak', USAGE, main, { errorExitCode: 2 });

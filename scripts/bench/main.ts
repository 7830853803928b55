// npm run bench - Warden's consumer core next to raw kafkajs on the same pre-produced topics, in one run;
// and the sampler's round time and the group page's reads, each against its target in plan.ts. Starts a
// bundled broker of its own (WARDEN_BENCH_PORT_BASE + 92) unless KAFKA_BROKERS is set, produces the topics once (reused
// while they hold exactly their layout), runs every workload in a child process of its own, prints the
// table and saves it with every run's raw measurements under bench-results/ (git-ignored).
//   npm run bench                 full sizes, 3 rounds of the throughput workloads
//   npm run bench -- --quick      small sizes, one round, about a minute
//   npm run bench -- --only 2,7   some workloads (1 always runs: every ratio is to it)
//   npm run bench -- --only 2pc,3bpc,4pc,6pc   Confluent Parallel Consumer beside Warden's (2), (3b), (4), (6)
//                                 (needs java 17+, and mvn when its harness needs building; else skipped)
import path from 'node:path';
import type { Admin, Producer } from 'kafkajs';
import { loadBenchConfig } from './config';
import { createKafka } from '../../lib/kafka/client';
import { localBrokerRunning, startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../lib/broker';
import { portsFromBase } from '../lib/port-base';
import { benchDatabaseUrl } from './bench-database';
import { parseBenchArgs, USAGE } from './cli-args';
import { LoadWatch } from './load-watch';
import { printAndSaveReport } from './output';
import { BENCH_COMMIT_INTERVAL_MS, layouts, selectWorkloads, SIZES, type BenchSizes, type LayoutId } from './plan';
import { summarize, WorkloadSkipped, type WorkloadRuns } from './summary';
import { prepareTopic, type PreparedTopic } from './topics';
import { createRunTopics, deleteRunTopics, runWorkload, type Services } from './workload-runs';

const ROOT = path.resolve(__dirname, '..', '..');
const started = performance.now();
const log = (line: string) =>
  console.log(`bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s: ${line}`);

async function main(): Promise<number> {
  let args;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const plans = selectWorkloads(args.only);
  const config = loadBenchConfig();
  const sizes: BenchSizes = { ...SIZES[args.mode], repeat: args.repeat ?? SIZES[args.mode].repeat };
  const load = new LoadWatch();
  const startedAt = new Date();
  const selection = args.only.length > 0 ? `-only-${args.only.join('.')}` : '';
  const stamp = `${startedAt
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/, 'Z')}-${args.mode}${selection}`;
  const commitIntervalMs = args.commitIntervalMs ?? BENCH_COMMIT_INTERVAL_MS;
  // Its own ports (WARDEN_BENCH_PORT_BASE), so the bench runs while `npm run demo` holds 9092.
  const ports = portsFromBase(config.WARDEN_BENCH_PORT_BASE);
  // Its own data directory: the pre-produced topics are kept for the next run, away from the demo's.
  const brokerHome = config.WARDEN_KAFKA_HOME ?? path.join(ROOT, '.warden', 'kafka-bench');
  const broker: LocalBrokerOptions = { port: ports.broker, controllerPort: ports.controller, home: brokerHome };
  // The group-page reads (11a, 11b), the overview (11o) and the generated fleet (10s) need Postgres only: run alone, they start no broker.
  const needsKafka = plans.some(
    (p) =>
      p.kind !== 'api-reads' && p.kind !== 'sampler-scale' && p.kind !== 'sampler-shards' && p.kind !== 'overview-http',
  );
  const brokerStartedHere = needsKafka && config.usesLocalBroker && !(await localBrokerRunning(broker));
  let admin: Admin | null = null;
  let producer: Producer | null = null;
  let runTopics = new Map<string, string>();
  let controlPrefixes = new Map<string, string>();
  try {
    const brokers = !needsKafka ? [] : config.usesLocalBroker ? [await startLocalBroker(broker)] : config.kafkaBrokers;
    const kafka = needsKafka ? createKafka({ brokers, clientId: 'warden-bench' }) : null;
    const topics = new Map<LayoutId, PreparedTopic>();
    if (kafka) {
      admin = kafka.admin();
      await admin.connect();
      producer = kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();

      const wanted = new Set(plans.map((p) => p.layout).filter((id): id is LayoutId => id !== null));
      const allLayouts = layouts(sizes);
      for (const id of wanted) {
        const prepared = await prepareTopic(admin, producer, allLayouts[id], log);
        log(
          `${prepared.topic}: ${prepared.reused ? 'reused' : `produced in ${(prepared.produceMs / 1000).toFixed(1)} s`}`,
        );
        topics.set(id, prepared);
      }
      ({ topics: runTopics, controlPrefixes } = await createRunTopics(admin, plans));
    }
    const services: Services = {
      brokers,
      kafka,
      admin,
      topics,
      databaseUrl: benchDatabaseUrl(config.DATABASE_URL),
      sizes,
      commitIntervalMs,
      cpuProfileDir: args.cpuProfile ? path.join(ROOT, 'bench-results', 'profiles', stamp) : undefined,
      runTopics,
      controlPrefixes,
      baseDatabaseUrl: config.DATABASE_URL,
      overviewPort: config.WARDEN_BENCH_PORT_BASE + 200,
      samplerIdleStoreMs: config.SAMPLE_IDLE_STORE_MS,
      samplerState: {
        timeLagPoints: config.SAMPLER_TIME_LAG_POINTS,
        timeLagSpacingMs: config.SAMPLER_TIME_LAG_SPACING_MS,
        rateWindowMs: config.SAMPLER_RATE_WINDOW_MS,
        exactTimeLagIntervalMs: config.SAMPLER_EXACT_TIME_LAG_INTERVAL_MS,
        exactTimeLagMaxPartitions: config.SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS,
      },
      analysis: {
        timeLagObjectiveMs: config.TIME_LAG_OBJECTIVE_MS === 0 ? null : config.TIME_LAG_OBJECTIVE_MS,
        rateWindowMs: config.ADVISOR_RATE_WINDOW_MS,
      },
      commandPollIntervalMs: config.COMMAND_POLL_INTERVAL_MS,
      servicePort: config.WARDEN_BENCH_PORT_BASE + 250,
      bundledBroker: config.usesLocalBroker
        ? { home: brokerHome, port: broker.port, controllerPort: broker.controllerPort }
        : null,
      log,
    };

    const results = new Map<string, WorkloadRuns>(plans.map((plan) => [plan.id, { plan, runs: [] }]));
    for (let round = 1; round <= sizes.repeat; round++) {
      for (const plan of plans) {
        if (round > 1 && !plan.repeated) continue;
        const entry = results.get(plan.id)!;
        const label = `(${plan.id}) ${plan.title}${sizes.repeat > 1 && plan.repeated ? ` [round ${round}/${sizes.repeat}]` : ''}`;
        try {
          const measurement = await runWorkload(plan, services);
          entry.runs.push(measurement);
          const seconds = (measurement.endEpochMs - measurement.startEpochMs) / 1000;
          log(`${label}: ${measurement.records.toLocaleString('en-US')} records in ${seconds.toFixed(2)} s`);
        } catch (error) {
          if (error instanceof WorkloadSkipped) {
            entry.skipped = error.message;
            log(`${label}: skipped, ${error.message}`);
          } else {
            entry.error = (error as Error).message;
            log(`${label}: FAILED ${(error as Error).message}`);
          }
        }
      }
    }

    const endOffsets = new Map(
      plans.filter((p) => p.layout !== null).map((p) => [p.id, topics.get(p.layout!)!.endOffsets] as const),
    );
    const entries = [...results.values()];
    const { rows, targets } = summarize(entries, endOffsets);
    printAndSaveReport({
      dir: path.join(ROOT, 'bench-results'),
      stamp,
      command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
      startedAt,
      mode: args.mode,
      sizes,
      commitIntervalMs,
      machineLoad: load.stop(),
      topics: [...topics.values()],
      entries,
      rows,
      targets,
      log,
    });
    return entries.some((e) => e.error !== undefined) ? 1 : 0;
  } finally {
    if (admin)
      await deleteRunTopics(admin, runTopics).catch((error: Error) =>
        log(`could not delete ${[...runTopics.values()].join(', ')}: ${error.message}`),
      );
    await producer?.disconnect().catch(() => undefined);
    await admin?.disconnect().catch(() => undefined);
    if (brokerStartedHere) await stopLocalBroker(broker).catch((error: Error) => console.error(error.message));
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`bench: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);

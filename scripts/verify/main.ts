// npm run verify - fault scenarios on real worker processes, judged by a checker (see run-verification.ts).
//   npm run verify                                  every scenario, the keyed-retries size (50,000 records, 10 keys)
//   npm run verify -- --scenarios kill9,rebalance   a selection
//   npm run verify -- --quick                       3,000 records per scenario
//   npm run verify -- --cluster 3                   the failover scenarios on a three-node cluster of its own
//   npm run verify -- --nemesis --duration 20m --seed N   randomized overlapping faults on the cluster
//   options: --records N --keys K --partitions P --transient-rate 0.1 --latency-ms 5 --ordering key
// Prints a table and writes it as JSON to verify-results/ (git-ignored); exits 1 on any loss, violation
// or silent drop.
// Starts its own local broker (WARDEN_VERIFY_PORT_BASE + 92) unless KAFKA_BROKERS is set, or with --cluster 3
// its own three-node cluster (brokers WARDEN_VERIFY_PORT_BASE + 600..602, controllers + 610..612); uses its own
// database next to the configured one (`warden` → `warden_verify`, migrated first).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadVerifyConfig } from './config';
import { createDatabase } from '../../lib/db';
import { createKafka, kafkaSecurityFrom } from '../../lib/kafka/client';
import { siblingDatabaseUrl, startOwnBroker, startOwnCluster } from '../lib/own-services';
import { parseCommandLine, parseDuration, parseSeed, runCommandLine, UsageError } from '../lib/command-line';
import { migrateDatabase } from '../lib/database';
import { portsFromBase } from '../lib/port-base';
import { formatReports, formatToolsReports } from './report';
import { CLUSTER_SCENARIOS, runVerification, SCENARIOS, type ScenarioName } from './run-verification';
import { runVerifiableTools, type VerifiableToolsReport } from './verifiable-tools';

/** Kafka's own VerifiableProducer/VerifiableConsumer through a leader kill, beside Warden's scenarios. */
const TOOLS_SCENARIO = 'kafka-tools-leader-kill';

const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'verify-results');

const USAGE = `usage: npm run verify [-- [--cluster 3] [--scenarios a,b] [--quick] [--records N] [--keys K] [--partitions P]
                         [--transient-rate R] [--latency-ms MS] [--ordering key|partition|unordered]]
  --scenarios     a selection of ${SCENARIOS.join(', ')} (default: all)
  --cluster 3     run on a three-node cluster of its own instead, with a selection of
                  ${CLUSTER_SCENARIOS.join(', ')} (default: all)
  --nemesis       randomized overlapping faults on the cluster for --duration (e.g. 20m, 90s; default 20m)
                  from --seed N (default: drawn and printed), worker RSS slope reported
  --quick         3,000 records per scenario (default 50,000)`;

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, {
    cluster: { type: 'string' },
    nemesis: { type: 'boolean', default: false },
    duration: { type: 'string', default: '20m' },
    seed: { type: 'string' },
    scenarios: { type: 'string' },
    records: { type: 'string' },
    keys: { type: 'string', default: '10' },
    partitions: { type: 'string', default: '6' },
    'transient-rate': { type: 'string', default: '0.1' },
    'latency-ms': { type: 'string', default: '2' },
    quick: { type: 'boolean', default: false },
    ordering: { type: 'string', default: 'key' },
  });
  if (values.help) return 'help';
  if (values.cluster !== undefined && values.cluster !== '3')
    throw new UsageError(`--cluster must be 3 (the only cluster size verify runs), got "${values.cluster}"`);
  const onCluster = values.cluster === '3' || values.nemesis;
  if (values.nemesis && values.scenarios !== undefined)
    throw new UsageError('--nemesis runs the nemesis alone: drop --scenarios');
  const choices: readonly string[] = values.nemesis
    ? ['nemesis']
    : onCluster
      ? [...CLUSTER_SCENARIOS, TOOLS_SCENARIO]
      : SCENARIOS;
  const scenarios = (values.scenarios ?? choices.join(',')).split(',').map((s) => s.trim());
  const nemesis = values.nemesis
    ? { seed: parseSeed(values.seed), durationMs: parseDuration(values.duration) }
    : undefined;
  if (nemesis) console.log(`verify: nemesis seed ${nemesis.seed} (replay with --seed ${nemesis.seed})`);
  const unknown = scenarios.filter((s) => !choices.includes(s));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown scenario(s) ${unknown.join(', ')}${onCluster ? ' with --cluster 3' : ''}; choose from ${choices.join(', ')}`,
    );
  const number = (name: string, value: string) => {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0)
      throw new UsageError(`--${name} must be a non-negative number, got "${value}"`);
    return parsed;
  };

  const ordering = values.ordering;
  if (ordering !== 'key' && ordering !== 'partition' && ordering !== 'unordered') {
    throw new UsageError(`--ordering must be key, partition or unordered, got "${ordering}"`);
  }
  const config = loadVerifyConfig();
  if (onCluster && !config.usesLocalBroker)
    throw new UsageError('--cluster 3 starts a cluster of its own: unset KAFKA_BROKERS');
  // Its own ports (WARDEN_VERIFY_PORT_BASE), broker directory and database, so verify runs while
  // `npm run demo` holds 9092/9464 and its workers never contend for the demo's sampler lock.
  const ports = portsFromBase(config.WARDEN_VERIFY_PORT_BASE);
  const databaseUrl = siblingDatabaseUrl(config.DATABASE_URL, 'verify');
  const ownCluster = onCluster
    ? await startOwnCluster(config, config.WARDEN_VERIFY_PORT_BASE, 'kafka-verify-cluster')
    : null;
  const own = ownCluster ?? (await startOwnBroker(config, config.WARDEN_VERIFY_PORT_BASE, 'kafka-verify'));
  const { brokers, localBroker, stop: stopBroker } = own;
  await migrateDatabase(databaseUrl);
  const kafka = createKafka({
    brokers,
    clientId: 'warden-verify',
    logLevel: 'nothing',
    ...kafkaSecurityFrom(config),
  });
  const admin = kafka.admin();
  await admin.connect();
  const db = createDatabase(databaseUrl);
  try {
    const reports = await runVerification({
      kafka,
      admin,
      db,
      databaseUrl,
      brokers,
      localBroker,
      cluster: ownCluster?.cluster ?? null,
      scenarios: scenarios.filter((s) => s !== TOOLS_SCENARIO) as ScenarioName[],
      ...(nemesis ? { nemesis } : {}),
      // The nemesis needs records for its whole duration: about 60 a second (the rate of one worker here).
      records: values.records
        ? number('records', values.records)
        : nemesis
          ? Math.round(nemesis.durationMs / 1_000) * 60
          : values.quick
            ? 3_000
            : 50_000,
      keys: number('keys', values.keys),
      partitions: number('partitions', values.partitions),
      transientRate: number('transient-rate', values['transient-rate']),
      ordering,
      maxLatencyMs: number('latency-ms', values['latency-ms']),
      poisonShare: 0.001,
      malformedShare: 0.001,
      ignoredShare: 0.02,
      firstWorkerPort: ports.worker,
      log: (line) => console.log(line),
    });
    const toolReports: VerifiableToolsReport[] = [];
    if (ownCluster && scenarios.includes(TOOLS_SCENARIO)) {
      toolReports.push(
        await runVerifiableTools({
          cluster: ownCluster.cluster,
          admin,
          messages: values.records ? number('records', values.records) : values.quick ? 3_000 : 50_000,
          partitions: number('partitions', values.partitions),
          log: (line) => console.log(line),
        }),
      );
    }
    console.log(formatReports(reports));
    if (toolReports.length > 0) console.log(formatToolsReports(toolReports));
    const file = path.join(RESULTS_DIR, `verify-${new Date().toISOString().replaceAll(':', '-')}.json`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(
      file,
      JSON.stringify(
        [...reports, ...toolReports],
        (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
        2,
      ),
    );
    console.log(`verify: results written to ${path.relative(process.cwd(), file)}`);
    return [...reports, ...toolReports].every((r) => r.passed) ? 0 : 1;
  } finally {
    await admin.disconnect();
    await db.$disconnect();
    await stopBroker();
  }
}

// Exit 1 is a failed verdict; a run that could not finish exits 2.
runCommandLine('verify', USAGE, main, { errorExitCode: 2 });

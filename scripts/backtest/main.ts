// npm run backtest - checks "scale to N, catch up in T" against real drains on the real broker (run-backtest.ts).
// Prints predicted T, measured T, error and verdict per scenario; exits 1 when a judged scenario fails.
// Starts its own local broker (WARDEN_BACKTEST_PORT_BASE + 92) unless KAFKA_BROKERS is set; uses its own
// database next to the configured one (`warden` → `warden_backtest`, migrated first).
import { loadBacktestConfig } from './config';
import { createDatabase } from '../../lib/db';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { createKafka, kafkaSecurityFrom } from '../../lib/kafka/client';
import { LagSampler } from '../../worker/sampler/lag-sampler';
import { parseCommandLine, runCommandLine } from '../lib/command-line';
import { siblingDatabaseUrl, startOwnBroker } from '../lib/own-services';
import { migrateDatabase } from '../lib/database';
import { parseBacktestArgs } from './cli-args';
import { runBacktest } from './run-backtest';
import { formatBacktestTable, formatRepeatTable, judgeRow, summarizeRepeats } from './verdict';

const GROUP_PREFIX = 'warden-backtest-';
/** One round a second: catch-up times of tens of seconds are measured to about a second. */
const SAMPLE_INTERVAL_MS = 1_000;
/**
 * Rates over the last 20 s. The rate comes from committed offsets, which move once per commit interval
 * (500 ms here): each end of the window is off by up to one interval's records, so 8 s windows carried up to
 * 12% of error into T and 20 s windows carry up to 5%.
 */
const RATE_WINDOW_MS = 20_000;

const USAGE = `usage: npm run backtest [-- --repeat N] [--only io-bound,hot-partition,shared-limit]
  Builds a backlog per scenario on its own bundled broker (WARDEN_BACKTEST_PORT_BASE + 92) and database
  (<name>_backtest), reads the capacity advice, follows it and prints predicted vs measured catch-up.
  --repeat N   runs every scenario N times (1 to 20, default 1) and judges each on its median error
  --only LIST  the scenarios to run, comma-separated (default all)`;

async function main(argv: string[]): Promise<number | 'help'> {
  const { values } = parseCommandLine(argv, { repeat: { type: 'string' }, only: { type: 'string' } });
  if (values.help) return 'help';
  const { repeat, only } = parseBacktestArgs(values);
  const config = loadBacktestConfig();
  // Its own ports, broker directory and database, so it runs beside `npm run demo`, bench and verify.
  const databaseUrl = siblingDatabaseUrl(config.DATABASE_URL, 'backtest');
  const { brokers, stop: stopBroker } = await startOwnBroker(
    config,
    config.WARDEN_BACKTEST_PORT_BASE,
    'kafka-backtest',
  );
  await migrateDatabase(databaseUrl);
  const kafka = createKafka({
    brokers,
    clientId: 'warden-backtest',
    logLevel: 'nothing',
    ...kafkaSecurityFrom(config),
  });
  const admin = kafka.admin();
  await admin.connect();
  const db = createDatabase(databaseUrl);
  const sampler = new LagSampler({
    cluster: 'default',
    reader: new ClusterReader({
      kafka,
      ownGroupId: config.WARDEN_GROUP_ID,
      include: new RegExp(`^${GROUP_PREFIX}`),
      exclude: null,
    }),
    db,
    lock: null,
    instanceId: 'warden-backtest',
    intervalMs: SAMPLE_INTERVAL_MS,
    maxBackoffMs: config.SAMPLER_MAX_BACKOFF_MS,
    state: {
      timeLagPoints: config.SAMPLER_TIME_LAG_POINTS,
      timeLagSpacingMs: config.SAMPLER_TIME_LAG_SPACING_MS,
      rateWindowMs: RATE_WINDOW_MS,
      exactTimeLagIntervalMs: config.SAMPLER_EXACT_TIME_LAG_INTERVAL_MS,
      exactTimeLagMaxPartitions: config.SAMPLER_EXACT_TIME_LAG_MAX_PARTITIONS,
    },
    retention: { rawDays: config.SAMPLER_RETENTION_DAYS, rollupDays: config.SAMPLER_ROLLUP_RETENTION_DAYS },
  });
  sampler.start();
  try {
    const rows = await runBacktest({
      kafka,
      admin,
      db,
      groupPrefix: GROUP_PREFIX,
      advice: { rateWindowMs: RATE_WINDOW_MS, timeLagObjectiveMs: null },
      only,
      repeat,
      log: (line) => console.log(line),
    });
    console.log(formatBacktestTable(rows));
    if (repeat === 1) return rows.every((row) => judgeRow(row).passed) ? 0 : 1;
    const summaries = summarizeRepeats(rows);
    console.log(`\n${formatRepeatTable(summaries)}`);
    return summaries.every((s) => s.passed) ? 0 : 1;
  } finally {
    await sampler.stop();
    await admin.disconnect();
    await db.$disconnect();
    await stopBroker();
  }
}

runCommandLine('backtest', USAGE, main, { errorExitCode: 2 });

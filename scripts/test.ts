// npm test - unit tests, then integration and end-to-end tests against a real Kafka broker (started here
// unless KAFKA_BROKERS is set) and a fresh `<database>_test` Postgres database. Prints one closing line
// `N passed, N failed` summing every suite, and exits non-zero on any failure.
//   npm test                      all suites
//   npm test -- unit integration  only those suites
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv, loadConfig } from '../lib/config';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from './lib/broker';
import { run } from './lib/processes';
import { readPlaywrightCounts, readVitestCounts, summaryLine, type SuiteCount } from './lib/test-counts';
import { resetTestDatabase, testDatabaseUrl } from './lib/test-database';

const SUITES = ['unit', 'integration', 'e2e'] as const;
type Suite = (typeof SUITES)[number];

const ROOT = path.resolve(__dirname, '..');
const REPORTS = path.join(ROOT, '.warden', 'test-reports');
const TEST_BROKER: LocalBrokerOptions = {
  port: 19092,
  controllerPort: 19093,
  home: path.join(ROOT, '.warden', 'kafka-test'),
  fresh: true,
};
const E2E_UI_PORT = '3100';
const E2E_WORKER_PORT = '19464';

function selectedSuites(): Suite[] {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((a) => !(SUITES as readonly string[]).includes(a));
  if (unknown.length > 0) throw new Error(`unknown suite(s) ${unknown.join(', ')}; choose from ${SUITES.join(', ')}`);
  return asked.length === 0 ? [...SUITES] : (asked as Suite[]);
}

async function vitest(project: 'unit' | 'integration', env: NodeJS.ProcessEnv): Promise<SuiteCount> {
  const report = path.join(REPORTS, `${project}.json`);
  await run('npx', ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile=${report}`], {
    cwd: ROOT,
    env: { ...env, NO_COLOR: '1' },
  });
  return readVitestCounts(project, report);
}

async function e2e(env: NodeJS.ProcessEnv): Promise<SuiteCount> {
  const build = await run('npx', ['next', 'build'], { cwd: ROOT, env });
  if (build !== 0) {
    console.error('e2e: next build failed; the end-to-end suite did not run');
    return { suite: 'e2e', passed: 0, failed: 1, skipped: 0 };
  }
  const report = path.join(REPORTS, 'e2e.json');
  await run('npx', ['playwright', 'test'], { cwd: ROOT, env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report } });
  return readPlaywrightCounts('e2e', report);
}

async function main(): Promise<number> {
  const suites = selectedSuites();
  const config = loadConfig();
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const counts: SuiteCount[] = [];

  if (suites.includes('unit')) counts.push(await vitest('unit', childProcessEnv()));

  const needsServices = suites.some((s) => s !== 'unit');
  if (needsServices) {
    const databaseUrl = testDatabaseUrl(config.DATABASE_URL);
    const brokerStartedHere = config.usesLocalBroker;
    try {
      const brokers = brokerStartedHere ? await startLocalBroker(TEST_BROKER) : config.kafkaBrokers.join(',');
      await resetTestDatabase(databaseUrl);
      const env = childProcessEnv({
        KAFKA_BROKERS: brokers,
        DATABASE_URL: databaseUrl,
        UI_PORT: E2E_UI_PORT,
        WORKER_PORT: E2E_WORKER_PORT,
        UI_REFRESH_MS: '1000',
        SAMPLE_INTERVAL_MS: '1000',
      });
      if (suites.includes('integration')) counts.push(await vitest('integration', env));
      if (suites.includes('e2e')) counts.push(await e2e(env));
    } catch (error) {
      console.error(`test setup failed: ${(error as Error).message}`);
      counts.push({ suite: 'setup', passed: 0, failed: 1, skipped: 0 });
    } finally {
      if (brokerStartedHere) await stopLocalBroker(TEST_BROKER).catch((e: Error) => console.error(e.message));
    }
  }

  for (const c of counts) console.log(`${c.suite}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  console.log(summaryLine(counts));
  return counts.some((c) => c.failed > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);

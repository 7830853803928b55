// npm test - the linter (ESLint with the import boundaries, Prettier's check), unit tests, then integration and
// end-to-end tests against a real Kafka broker (started here unless KAFKA_BROKERS is set) and a fresh
// `<database>_test` Postgres database. Prints one closing line `N passed, N failed` summing every suite, and
// exits non-zero on any failure.
//   npm test                      all suites
//   npm test -- unit integration  only those suites
//   npm test -- integration worker/sampler   vitest file filters (any argument that is not a suite name)
//   npm test -- e2e e2e/clusters.spec.ts     only these end-to-end specs (filters starting with e2e/)
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv, loadConfig } from '../lib/config';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from './lib/broker';
import { parseCommandLine, UsageError } from './lib/command-line';
import { portsFromBase } from './lib/port-base';
import { run } from './lib/processes';
import { readPlaywrightCounts, readVitestCounts, summaryLine, type SuiteCount } from './lib/test-counts';
import { resetTestDatabase, testDatabaseUrl } from './lib/test-database';

const SUITES = ['lint', 'unit', 'integration', 'e2e'] as const;
type Suite = (typeof SUITES)[number];

const ROOT = path.resolve(__dirname, '..');

const USAGE = `usage: npm test [-- [lint] [unit] [integration] [e2e] [vitest file filters...]]
  suites        only these (default: all four, in this order)
  e2e/<spec>    only these end-to-end specs (arguments starting with e2e/)
  filters       any other argument: vitest file filters for unit and integration
  -- <flags>    after a second --, arguments starting with a dash are passed to vitest as filters too`;

/** A Playwright spec filter: a path under e2e/ (vitest never runs those files). */
const isE2eSpec = (argument: string) => argument.startsWith('e2e/');

/** Suites, vitest filters and e2e spec filters; throws UsageError for an unknown option (vitest's own go after a second `--`). */
function parseArguments(argv: string[]): { suites: Suite[]; filters: string[]; specs: string[]; help: boolean } {
  const { positionals, values } = parseCommandLine(argv, {}, { allowPositionals: true });
  const isSuite = (a: string): a is Suite => (SUITES as readonly string[]).includes(a);
  const suites = positionals.filter(isSuite);
  return {
    suites: suites.length === 0 ? [...SUITES] : suites,
    filters: positionals.filter((a) => !isSuite(a) && !isE2eSpec(a)),
    specs: positionals.filter(isE2eSpec),
    help: values.help,
  };
}

async function vitest(
  project: 'unit' | 'integration',
  env: NodeJS.ProcessEnv,
  reports: string,
  filters: string[],
): Promise<SuiteCount> {
  const report = path.join(reports, `${project}.json`);
  await run(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${report}`,
      ...filters,
    ],
    {
      cwd: ROOT,
      env: { ...env, NO_COLOR: '1' },
    },
  );
  return readVitestCounts(project, report);
}

/** ESLint (boundaries included) and Prettier's check: one count, failed when either reports a problem. */
async function lint(): Promise<SuiteCount> {
  const code = await run('npm', ['run', '--silent', 'lint'], { cwd: ROOT, env: childProcessEnv() });
  return { suite: 'lint', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
}

async function e2e(env: NodeJS.ProcessEnv, reports: string, specs: string[]): Promise<SuiteCount> {
  const build = await run('npx', ['next', 'build'], { cwd: ROOT, env });
  if (build !== 0) {
    console.error('e2e: next build failed; the end-to-end suite did not run');
    return { suite: 'e2e', passed: 0, failed: 1, skipped: 0 };
  }
  const report = path.join(reports, 'e2e.json');
  await run('npx', ['playwright', 'test', ...specs], {
    cwd: ROOT,
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  return readPlaywrightCounts('e2e', report);
}

async function main(argv: string[]): Promise<number | 'help'> {
  const { suites, filters, specs, help } = parseArguments(argv);
  if (help) return 'help';
  const config = loadConfig();
  // Ports from WARDEN_TEST_PORT_BASE, so several checkouts (or engineers) can run npm test at once.
  const ports = portsFromBase(config.WARDEN_TEST_PORT_BASE);
  const testBroker: LocalBrokerOptions = {
    port: ports.broker,
    controllerPort: ports.controller,
    home: path.join(ROOT, '.warden', `kafka-test-${ports.broker}`),
    fresh: true,
  };
  const reports = path.join(ROOT, '.warden', `test-reports-${config.WARDEN_TEST_PORT_BASE}`);
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const counts: SuiteCount[] = [];

  if (suites.includes('lint')) counts.push(await lint());
  if (suites.includes('unit')) counts.push(await vitest('unit', childProcessEnv(), reports, filters));

  const needsServices = suites.some((s) => s === 'integration' || s === 'e2e');
  if (needsServices) {
    const databaseUrl = testDatabaseUrl(config.DATABASE_URL);
    const brokerStartedHere = config.usesLocalBroker;
    try {
      const brokers = brokerStartedHere ? await startLocalBroker(testBroker) : config.kafkaBrokers.join(',');
      await resetTestDatabase(databaseUrl);
      const env = childProcessEnv({
        KAFKA_BROKERS: brokers,
        DATABASE_URL: databaseUrl,
        UI_PORT: String(ports.ui),
        WORKER_PORT: String(ports.worker),
        // Lets tests restart the broker they run against (fault injection); unset for an external cluster.
        ...(brokerStartedHere
          ? {
              WARDEN_KAFKA_HOME: testBroker.home,
              WARDEN_KAFKA_PORT: String(ports.broker),
              WARDEN_KAFKA_CONTROLLER_PORT: String(ports.controller),
            }
          : {}),
        UI_REFRESH_MS: '1000',
        SAMPLE_INTERVAL_MS: '1000',
      });
      if (suites.includes('integration')) counts.push(await vitest('integration', env, reports, filters));
      if (suites.includes('e2e')) counts.push(await e2e(env, reports, specs));
    } catch (error) {
      console.error(`test setup failed: ${(error as Error).message}`);
      counts.push({ suite: 'setup', passed: 0, failed: 1, skipped: 0 });
    } finally {
      if (brokerStartedHere) await stopLocalBroker(testBroker).catch((e: Error) => console.error(e.message));
    }
  }

  for (const c of counts) console.log(`${c.suite}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  console.log(summaryLine(counts));
  return counts.some((c) => c.failed > 0) ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (outcome) => {
    if (outcome === 'help') console.log(USAGE);
    process.exit(outcome === 'help' ? 0 : outcome);
  },
  (error: Error) => {
    console.error(error instanceof UsageError ? `npm test: ${error.message}\n${USAGE}` : error.message);
    console.log('0 passed, 1 failed');
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);

// npm test - the linter (the type check, ESLint with the import boundaries, Prettier's check), unit tests, then
// integration tests; beside them, the production build and the end-to-end tests, then the integration files that
// each play a whole workload (AFTER_E2E_INTEGRATION_FILES). Each lane runs against a real Kafka broker of its own
// (started here unless KAFKA_BROKERS is set) and a fresh Postgres database of its own (`<database>_test`,
// `<database>_e2e_test`). Prints one closing line `N passed, N failed` summing every suite, and exits non-zero
// on any failure.
//   npm test                      all suites
//   npm test -- unit integration  only those suites
//   npm test -- integration worker/sampler   vitest file filters (any argument that is not a suite name)
//   npm test -- e2e e2e/clusters.spec.ts     only these end-to-end specs (filters starting with e2e/)
import type { SpawnOptions } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { childProcessEnv } from '../lib/config/program-config';
import { loadTestRunnerConfig } from './test-config';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from './lib/broker';
import { parseCommandLine, UsageError } from './lib/command-line';
import { portsFromBase } from './lib/port-base';
import { run, runPrefixed } from './lib/processes';
import {
  mergeSuiteCounts,
  readPlaywrightCounts,
  readVitestCounts,
  summaryLine,
  type SuiteCount,
} from './lib/test-counts';
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

/** How a suite runs a command: with inherited output, or prefixed while another lane prints too. */
type Runner = (command: string, args: string[], options: SpawnOptions) => Promise<number>;

/**
 * Integration files that each play a whole workload on their own (the demo's story, the verification
 * scenarios, statuses on the real broker, the control plane end to end: about six minutes together). When both
 * lanes run in full they run in the end-to-end lane once that suite is done, on that lane's broker and database,
 * so the two lanes take about as long as each other (the integration lane is otherwise the longer by minutes).
 * None of them packs the consumer package, which the packing tests in the integration lane rebuild meanwhile.
 * With file filters, or without the e2e suite, they stay with the rest of the integration suite.
 */
const AFTER_E2E_INTEGRATION_FILES = [
  'scripts/demo/demo.it.ts',
  'scripts/verify/verify.it.ts',
  'worker/offsets-topic/status-on-broker.it.ts',
  'worker/control/control-end-to-end.it.ts',
];

/** A vitest run: its report is `<report>.json` (a suite run in two parts needs two names). */
async function vitest(
  project: 'unit' | 'integration',
  env: NodeJS.ProcessEnv,
  reports: string,
  files: { filters: string[]; exclude?: string[]; report?: string; runner?: Runner },
): Promise<SuiteCount> {
  const report = path.join(reports, `${files.report ?? project}.json`);
  await (files.runner ?? run)(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile=${report}`,
      ...(files.exclude ?? []).map((glob) => `--exclude=${glob}`),
      ...files.filters,
    ],
    {
      cwd: ROOT,
      env: { ...env, NO_COLOR: '1' },
    },
  );
  return readVitestCounts(project, report);
}

/** The type check, ESLint (boundaries included) and Prettier's check: one count, failed when any reports a problem. */
async function lint(): Promise<SuiteCount> {
  const code = await run('npm', ['run', '--silent', 'lint'], { cwd: ROOT, env: childProcessEnv() });
  return { suite: 'lint', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
}

async function e2e(env: NodeJS.ProcessEnv, reports: string, specs: string[], runner: Runner): Promise<SuiteCount> {
  const build = await runner('npx', ['next', 'build'], { cwd: ROOT, env });
  if (build !== 0) {
    console.error('e2e: next build failed; the end-to-end suite did not run');
    return { suite: 'e2e', passed: 0, failed: 1, skipped: 0 };
  }
  const report = path.join(reports, 'e2e.json');
  await runner('npx', ['playwright', 'test', ...specs], {
    cwd: ROOT,
    env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  return readPlaywrightCounts('e2e', report);
}

/** A suite's services: the environment its tests run with, and how to stop what was started for it. */
interface SuiteServices {
  env: NodeJS.ProcessEnv;
  stop: () => Promise<void>;
}

/**
 * The services a suite runs against: a broker of its own (started here unless KAFKA_BROKERS is set) on the
 * ports of `portBase`, and a fresh database. Integration tests restart and stop their broker (fault
 * injection) and reset tables; the end-to-end suite gets its own broker, database and ports so the two
 * suites run at the same time without disturbing each other.
 */
async function startServices(
  config: ReturnType<typeof loadTestRunnerConfig>,
  portBase: number,
  database: string | undefined,
): Promise<SuiteServices> {
  const ports = portsFromBase(portBase);
  const broker: LocalBrokerOptions = {
    port: ports.broker,
    controllerPort: ports.controller,
    home: path.join(ROOT, '.warden', `kafka-test-${ports.broker}`),
    fresh: true,
  };
  const databaseUrl = testDatabaseUrl(config.DATABASE_URL, database);
  const brokerStartedHere = config.usesLocalBroker;
  const brokers = brokerStartedHere ? await startLocalBroker(broker) : config.kafkaBrokers.join(',');
  const stop = async () => {
    if (brokerStartedHere) await stopLocalBroker(broker).catch((e: Error) => console.error(e.message));
  };
  try {
    await resetTestDatabase(databaseUrl);
  } catch (error) {
    await stop();
    throw error;
  }
  const env = childProcessEnv({
    KAFKA_BROKERS: brokers,
    DATABASE_URL: databaseUrl,
    WARDEN_TEST_PORT_BASE: String(portBase),
    UI_PORT: String(ports.ui),
    WORKER_PORT: String(ports.worker),
    // Lets tests restart the broker they run against (fault injection); unset for an external cluster.
    ...(brokerStartedHere
      ? {
          WARDEN_KAFKA_HOME: broker.home,
          WARDEN_KAFKA_PORT: String(ports.broker),
          WARDEN_KAFKA_CONTROLLER_PORT: String(ports.controller),
        }
      : {}),
    UI_REFRESH_MS: '1000',
    SAMPLE_INTERVAL_MS: '1000',
  });
  return { env, stop };
}

/** Runs a suite on services of its own; a setup failure counts as one failed `setup`. */
async function withServices(
  start: () => Promise<SuiteServices>,
  suites: (env: NodeJS.ProcessEnv) => Promise<SuiteCount[]>,
): Promise<SuiteCount[]> {
  let services: SuiteServices;
  try {
    services = await start();
  } catch (error) {
    console.error(`test setup failed: ${(error as Error).message}`);
    return [{ suite: 'setup', passed: 0, failed: 1, skipped: 0 }];
  }
  try {
    return await suites(services.env);
  } finally {
    await services.stop();
  }
}

// The end-to-end suite's ports start this far above WARDEN_TEST_PORT_BASE: the integration tests use base+92
// to base+695, the end-to-end suite the same offsets from base+800, which miss the bench's (its base 20000:
// +92, +93, +100, +464 and up) and verify's (21000).
const E2E_PORT_OFFSET = 800;

async function main(argv: string[]): Promise<number | 'help'> {
  const { suites, filters, specs, help } = parseArguments(argv);
  if (help) return 'help';
  const config = loadTestRunnerConfig();
  // Ports from WARDEN_TEST_PORT_BASE, so several checkouts (or engineers) can run npm test at once.
  const base = config.WARDEN_TEST_PORT_BASE;
  const reports = path.join(ROOT, '.warden', `test-reports-${base}`);
  const integrationAfterE2e =
    suites.includes('integration') && suites.includes('e2e') && filters.length === 0 && specs.length === 0;
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });

  // Two lanes at once: lint, unit and integration in one (integration mostly waits on the broker), the
  // production build and the end-to-end suite in the other, its output prefixed `e2e │ `. Alone, a suite
  // prints as it is.
  const checks = async (): Promise<SuiteCount[]> => {
    const counts: SuiteCount[] = [];
    if (suites.includes('lint')) counts.push(await lint());
    if (suites.includes('unit')) counts.push(await vitest('unit', childProcessEnv(), reports, { filters }));
    if (suites.includes('integration')) {
      counts.push(
        ...(await withServices(
          () => startServices(config, base, undefined),
          async (env) => [
            await vitest('integration', env, reports, {
              filters,
              exclude: integrationAfterE2e ? AFTER_E2E_INTEGRATION_FILES : [],
            }),
          ],
        )),
      );
    }
    return counts;
  };
  const alone = suites.every((s) => s === 'e2e');
  const runner: Runner = alone ? run : (command, args, options) => runPrefixed('e2e │ ', command, args, options);
  const endToEnd = async (): Promise<SuiteCount[]> =>
    suites.includes('e2e')
      ? withServices(
          () => startServices(config, base + E2E_PORT_OFFSET, 'e2e'),
          async (env) => {
            const counts = [await e2e(env, reports, specs, runner)];
            if (integrationAfterE2e) {
              counts.push(
                await vitest('integration', env, reports, {
                  filters: AFTER_E2E_INTEGRATION_FILES,
                  report: 'integration-after-e2e',
                  runner: (command, args, options) => runPrefixed('integration │ ', command, args, options),
                }),
              );
            }
            return counts;
          },
        )
      : [];
  const lanes = await Promise.all([checks(), endToEnd()]);
  const counts = mergeSuiteCounts(lanes.flat());

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

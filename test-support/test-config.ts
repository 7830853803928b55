import { z } from 'zod';
import { configPart, defineProgramConfig, localBrokerPart, setting, testPortsPart } from '../lib/config/base';
import { dashboardConfig } from '../lib/server/dashboard-config';
import { workerConfig } from '../worker/config';

// The tests' configuration: the integration tests, the end-to-end suite and Playwright run the worker and the
// dashboard, so they read both programs' parts, the bundled broker's (to restart it), npm test's ports, and
// their own below. npm test hands them the environment it made (scripts/test.ts).

export const testsPart = configPart({
  id: 'tests-own',
  title: "The tests' own settings",
  about: 'Read by the test that names them.',
  shape: {
    WARDEN_FUZZ_SEED: setting(z.coerce.number().int().min(0).max(2_147_483_647).default(20_261_201), {
      description:
        'seed of the API fuzz test (`e2e/api-fuzz.spec.ts`; operation *i* runs with seed + *i*); a failure prints the seed and the request',
      example: '20261201',
    }),
    WARDEN_REDRIVE_KILL_SEED: setting(z.coerce.number().int().min(0).max(2_147_483_647).optional(), {
      description:
        'seed of the redrive kill test (`worker/redrive/redrive-kill.it.ts`: when each worker is killed); drawn and printed when unset',
      example: '20261207',
    }),
    WARDEN_REDRIVE_KILL_ITERATIONS: setting(z.coerce.number().int().min(1).max(1_000).default(3), {
      description:
        'jobs the redrive kill test runs, each with two workers killed with SIGKILL at random points before a third finishes it',
      example: '3',
    }),
  },
});

export const testsConfig = defineProgramConfig({
  id: 'tests',
  title: 'The tests',
  command: 'npm test -- integration, npm test -- e2e',
  module: 'test-support/test-config.ts',
  about:
    "The integration and end-to-end tests: they run the worker and the dashboard, so they read both programs' parts.",
  reads: [
    ...workerConfig.reads,
    ...workerConfig.own,
    ...dashboardConfig.reads,
    ...dashboardConfig.own,
    localBrokerPart,
    testPortsPart,
  ],
  own: [testsPart],
});

export type TestConfig = ReturnType<typeof testsConfig.parse>;

/** The tests' configuration from process.env (set by npm test), parsed once per process. Throws ConfigError. */
export const loadTestConfig = (): TestConfig => testsConfig.load();

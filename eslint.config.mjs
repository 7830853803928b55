// ESLint (flat config) with typescript-eslint: the recommended rules, the type-aware promise rules a Kafka
// consumer needs (a floating promise is a lost error or an unordered side effect), React's hook rules and
// Next.js's own, and the import boundaries that keep the layers pointing one way (ARCHITECTURE.md,
// "Boundaries"). Formatting is Prettier's (`npm run format`); nothing here fights it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * Adapter folders inside worker/: each may import worker/shared, the worker's own modules and lib, never a
 * sibling. Every folder under worker/ but shared is one, read from the file system so a new folder is covered
 * the day it appears.
 */
export const WORKER_ADAPTERS = readdirSync(path.join(import.meta.dirname, 'worker'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .map((entry) => entry.name)
  .sort();

/**
 * lib folders with no I/O: their modules compute (analysis, advice, statuses, parsing, schemas) and are
 * unit-tested without Postgres or Kafka. lib/groups reads Postgres; lib/kafka, lib/openapi (reads the route
 * files), lib/config and lib/server do I/O.
 */
export const PURE_LIB_FOLDERS = [
  'advisor',
  'alerts',
  'analysis',
  'auth',
  'charts',
  'dead-letters',
  'instances',
  'lag',
  'members',
  'rebalances',
  'schemas',
];

const noWorker = {
  group: ['**/worker', '**/worker/**', '@/worker', '@/worker/**'],
  message: 'lib, app and components never import worker/ (layers point one way: worker → lib).',
};

const noKafkaOrPostgres = {
  group: ['kafkajs', 'pg', '@prisma/*'],
  message: 'The UI reaches Kafka and Postgres only through lib/server (route handlers call one function there).',
};

const noNextLink = {
  group: ['next/link'],
  message: 'Link between pages with AppLink (components/app-link.tsx): no page is prefetched.',
};

const noSchemaValues = {
  group: ['zod', '@/lib/schemas/*', '!@/lib/schemas/values', '**/lib/schemas/*', '!**/lib/schemas/values'],
  allowTypeImports: true,
  message:
    "A page starts without zod: take a schema's types with `import type`, its plain values from lib/schemas/values, " +
    'and parse through api-client.ts (the schemas load with the first answer, components/browser-schemas.ts).',
};

/** The rest of the repository, which the consumer package never imports: teams install it alone. */
const outsideConsumerPackage = {
  group: [
    '**/app',
    '**/app/**',
    '**/lib',
    '**/lib/**',
    '**/worker',
    '**/worker/**',
    '**/scripts/**',
    '**/test-support/**',
    '**/e2e/**',
    '@/*',
    '@/**',
  ],
  message: '@warden/consumer imports nothing of the rest of the repository (teams install it alone).',
};

/** What the consumer package never depends on: it brings kafkajs (a peer) and zod, nothing of Warden's stack. */
const notInConsumerPackage = {
  group: ['pg', '@prisma/*', 'pino', 'prom-client', 'next', 'next/*', 'react', 'react-dom'],
  message: '@warden/consumer depends on kafkajs (peer) and zod only.',
};

const noDashboardServer = {
  group: ['**/lib/server', '**/lib/server/**', '@/lib/server', '@/lib/server/**'],
  message:
    "worker/ never imports lib/server (the dashboard's server code); what both need lives in a lib folder of its own (e.g. lib/groups, lib/analysis).",
};

const noIoInPureLib = {
  group: [
    '@prisma/*',
    'kafkajs',
    'pg',
    'node:fs',
    'node:fs/*',
    'node:net',
    'node:http',
    'node:https',
    'node:child_process',
    '**/lib/db',
    '../db',
    '../../db',
    '@/lib/db',
    '**/generated/**',
    '@/lib/generated/**',
    '**/lib/server',
    '**/lib/server/**',
    '../server',
    '../server/**',
    '../../server/**',
    '@/lib/server',
    '@/lib/server/**',
    '**/lib/groups/**',
    '../groups/**',
    '@/lib/groups/**',
  ],
  message:
    'This lib folder is pure (no I/O): no Prisma (lib/db, lib/generated, lib/groups), no lib/server, no kafkajs, pg, files or sockets. Take the data as arguments.',
};

/** Adapter files and the control plane of the consumer package: the core through its public index only. */
const coreThroughIndex = {
  group: ['../core/*', '!../core/index.js', '../../core/*', '!../../core/index.js'],
  message: 'The kafkajs adapter and the control plane reach the core only through src/core/index.ts (its public API).',
};

/** Their tests and fakes: the core's index and its testing helpers. */
const coreThroughIndexOrTesting = {
  group: [
    '../core/*',
    '!../core/index.js',
    '!../core/testing',
    '../../core/*',
    '!../../core/index.js',
    '!../../core/testing',
  ],
  message:
    'Tests of the kafkajs adapter and the control plane reach the core through src/core/index.ts and src/core/testing/ only.',
};

const noEndToEndSuite = {
  group: ['**/e2e', '**/e2e/**'],
  message: 'scripts never import e2e/ (the Playwright suite): what both use lives in test-support/ or scripts/lib/.',
};

const noScripts = {
  group: ['**/scripts', '**/scripts/**'],
  message: 'test-support never imports scripts/: what both use lives in test-support/.',
};

/** The environment is configuration: one module reads it, each program parses its own variables there. */
const noProcessEnv = {
  object: 'process',
  property: 'env',
  message:
    "Only lib/config/program-config.ts reads the environment: take the setting from your program's configuration (worker/config.ts, lib/server/dashboard-config.ts, ...), or childProcessEnv() for a child.",
};

const noDateNow = { object: 'Date', property: 'now', message: 'Use the injected Clock.' };

/** A no-restricted-imports rule from pattern groups. */
const restrict = (...patterns) => ['error', { patterns }];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      '.warden/',
      'lib/generated/',
      'test-results/',
      'playwright-report/',
      'bench-results/',
      'verify-results/',
      'soak-results/',
      'packages/*/dist/',
      // Examples are projects of their own: their sources are linted (with their own tsconfig), their
      // build output and the packed tarballs they install are not.
      'examples/*/dist/',
      'examples/*/vendor/',
      'next-env.d.ts',
      '.scratch/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // The consumer package is imported by its name (@warden/consumer), never through a relative path.
      'import-x/no-relative-packages': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js'] })],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
    },
  },

  // --- Boundaries -------------------------------------------------------------------------------------
  {
    // Next.js's own NEXT_RUNTIME (a build-time constant, instrumentation.ts) is not configuration; the
    // examples are projects of their own.
    files: ['**/*.{ts,tsx,mts}'],
    ignores: ['lib/config/program-config.ts', 'instrumentation.ts', 'examples/**'],
    rules: { 'no-restricted-properties': ['error', noProcessEnv] },
  },
  {
    // Integration tests of lib may run the real sampler to produce the rows they read (tests wire layers).
    files: ['lib/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation.ts'],
    ignores: ['lib/**/*.it.ts'],
    rules: { 'no-restricted-imports': restrict(noWorker) },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    ignores: ['components/app-link.tsx'],
    rules: { 'no-restricted-imports': restrict(noWorker, noKafkaOrPostgres, noNextLink) },
  },
  {
    // The browser's code: every component, and the app's client modules (the pages' server modules read their
    // data with the schemas). zod and the schemas load with the first API answer (components/browser-schemas.ts),
    // never while a page starts.
    files: ['components/**/*.{ts,tsx}', 'app/**/page-client.tsx', 'app/providers.tsx', 'app/error.tsx'],
    ignores: ['components/browser-schemas.ts', 'components/zod-jitless.ts', '**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict(noWorker, noKafkaOrPostgres, noSchemaValues, noNextLink) },
  },
  {
    files: ['components/app-link.tsx'],
    rules: { 'no-restricted-imports': restrict(noWorker, noKafkaOrPostgres, noSchemaValues) },
  },
  {
    // The consumer package: nothing of the rest of the repository, nothing of Warden's own stack.
    files: ['packages/consumer/src/**/*.ts'],
    ignores: ['packages/consumer/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict(outsideConsumerPackage, notInConsumerPackage) },
  },
  {
    // The kafkajs adapter and the control plane use the core as a host would: through its index.
    files: ['packages/consumer/src/kafkajs/**/*.ts', 'packages/consumer/src/control/**/*.ts'],
    ignores: ['packages/consumer/src/**/*.test.ts', 'packages/consumer/src/**/testing/**'],
    rules: { 'no-restricted-imports': restrict(outsideConsumerPackage, notInConsumerPackage, coreThroughIndex) },
  },
  {
    files: [
      'packages/consumer/src/kafkajs/**/*.test.ts',
      'packages/consumer/src/control/**/*.test.ts',
      'packages/consumer/src/kafkajs/testing/**/*.ts',
      'packages/consumer/src/control/testing/**/*.ts',
    ],
    rules: { 'no-restricted-imports': restrict(coreThroughIndexOrTesting) },
  },
  {
    // The consumer core is pure: its clock, random and ports come in; it imports nothing outside itself.
    files: ['packages/consumer/src/core/*.ts'],
    ignores: ['packages/consumer/src/core/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict({
        group: ['../*', '../**', '@/*', 'kafkajs', 'zod', 'pg', '@prisma/*', 'node:*', 'pino', 'prom-client'],
        message: 'The core imports nothing outside src/core (it is pure: ports, a clock and a random come in).',
      }),
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval', 'process'].map((name) => ({
          name,
          message: 'The core uses its injected Clock and never reads process state.',
        })),
      ],
      'no-restricted-properties': ['error', noProcessEnv, noDateNow],
    },
  },
  {
    // The adapter's clock-driven parts take the injected Clock, so their unit tests run on fake time;
    // warden-consumer.ts is the one place that builds the system clock.
    files: ['packages/consumer/src/kafkajs/*.ts', 'packages/consumer/src/control/*.ts'],
    ignores: ['packages/consumer/src/kafkajs/warden-consumer.ts', 'packages/consumer/src/**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval', 'setImmediate', 'clearTimeout', 'clearInterval'].map((name) => ({
          name,
          message: 'The adapter parts use the injected Clock (warden-consumer.ts builds the system one).',
        })),
      ],
      'no-restricted-properties': ['error', noProcessEnv, noDateNow],
    },
  },
  {
    // The core's tests use the core and its testing helpers only.
    files: ['packages/consumer/src/core/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict({
        group: ['../*', '../**', '@/*', 'kafkajs', 'pg', '@prisma/*', 'node:*', 'pino', 'prom-client'],
        message: 'The core tests import nothing outside src/core.',
      }),
    },
  },
  {
    files: ['packages/consumer/src/core/testing/*.ts'],
    rules: {
      'no-restricted-imports': restrict({
        group: ['../../*', '../../**', '@/*', 'kafkajs', 'pg', '@prisma/*'],
        message: 'src/core/testing imports nothing outside src/core.',
      }),
    },
  },
  {
    // Pure lib folders: unit-tested on plain data; their integration tests (if any) may wire I/O.
    files: PURE_LIB_FOLDERS.map((folder) => `lib/${folder}/**/*.{ts,tsx}`),
    ignores: ['lib/**/*.it.ts'],
    rules: { 'no-restricted-imports': restrict(noWorker, noIoInPureLib) },
  },
  {
    // The worker runs without the dashboard's server code. Its integration tests may read through the
    // dashboard's functions what the worker wrote (tests wire layers).
    files: ['worker/**/*.ts'],
    ignores: ['worker/**/*.{test,it}.ts'],
    rules: { 'no-restricted-imports': restrict(noDashboardServer) },
  },
  ...WORKER_ADAPTERS.map((adapter) => ({
    files: [`worker/${adapter}/**/*.ts`],
    ignores: [`worker/${adapter}/**/*.{test,it}.ts`],
    rules: {
      'no-restricted-imports': restrict(noDashboardServer, {
        group: WORKER_ADAPTERS.filter((other) => other !== adapter).flatMap((other) => [
          `../${other}`,
          `../${other}/**`,
          `../../${other}`,
          `../../${other}/**`,
        ]),
        message: `worker/${adapter} shares types with other adapters only through worker/shared; the wiring lives in worker/*.ts.`,
      }),
    },
  })),
  {
    files: ['scripts/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(noEndToEndSuite) },
  },
  {
    files: ['test-support/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(noScripts) },
  },

  // --- Tests and scripts ------------------------------------------------------------------------------
  {
    files: [
      '**/*.test.ts',
      '**/*.it.ts',
      'e2e/**/*.ts',
      'test-support/**/*.ts',
      'worker/**/testing/**/*.ts',
      'packages/consumer/src/**/testing/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The examples' unit tests run on node:test, whose describe and it return promises the runner awaits.
    files: ['examples/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it'] }] },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
);

import { defineConfig } from 'vitest/config';

// Unit tests are pure and fast; integration tests need the real broker and Postgres that scripts/test.ts
// starts, and run serially so they do not fight over one broker.
export default defineConfig({
  resolve: {
    // The worker and the scripts import the consumer package by name; tests run its source, not its build.
    alias: [
      { find: /^@warden\/consumer$/, replacement: `${import.meta.dirname}/packages/consumer/src/index.ts` },
      { find: /^@warden\/consumer\/testing$/, replacement: `${import.meta.dirname}/packages/consumer/src/testing.ts` },
      { find: '@', replacement: import.meta.dirname },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{lib,worker,components,scripts,test-support,packages}/**/*.test.ts'],
          environment: 'node',
          // A timeout only catches a hang (no unit test asserts on speed); scrypt and ESLint start-ups take
          // several seconds when the machine is busy, so the default 5 s would fail correct code.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['{lib,worker,scripts,prisma,packages}/**/*.it.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

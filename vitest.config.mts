import { defineConfig } from 'vitest/config';

// Unit tests are pure and fast; integration tests need the real broker and Postgres that scripts/test.ts
// starts, and run serially so they do not fight over one broker.
export default defineConfig({
  resolve: { alias: { '@': import.meta.dirname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['{lib,worker,components,scripts,test-support}/**/*.test.ts'],
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
          include: ['{lib,worker,scripts,prisma}/**/*.it.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

import { defineConfig } from '@playwright/test';
import { E2E_ACCESS_ENV } from './test-support/credentials';
import { childProcessEnv } from './lib/config/program-config';
import { loadTestConfig } from './test-support/test-config';
import { DEBIAN_CHROMIUM } from './scripts/lib/chromium';

// Runs against `next start` on a production build (npm test builds first) and Debian's Chromium; the
// tests start real workers against the real broker and database themselves.
const config = loadTestConfig();
const baseURL = `http://127.0.0.1:${config.UI_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: DEBIAN_CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx next start --hostname 127.0.0.1 --port ${config.UI_PORT}`,
    url: `${baseURL}/sign-in`,
    reuseExistingServer: false,
    timeout: 60_000,
    // The suite's own users and tokens (test-support/credentials.ts); the server refuses to start without users.
    env: childProcessEnv(E2E_ACCESS_ENV) as Record<string, string>,
  },
});

import { defineConfig } from '@playwright/test';
import { childProcessEnv, loadConfig } from './lib/config';

// Runs against `next start` on a production build (npm test builds first) and Debian's Chromium; the
// tests start real workers against the real broker and database themselves.
const config = loadConfig();
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
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: `npx next start --hostname 127.0.0.1 --port ${config.UI_PORT}`,
    url: `${baseURL}/api/groups`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: childProcessEnv() as Record<string, string>,
  },
});

import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { Admin } from 'kafkajs';
import { childProcessEnv } from '../lib/config';
import { createTopic, eventually } from '../test-support/integration';
import { E2E_ACCESS_ENV, type E2eUser } from './credentials';

export const ROOT = path.resolve(__dirname, '..');
/** Screenshots kept as test artifacts. */
export const ARTIFACTS = path.join(ROOT, 'test-results');

/**
 * createTopic, retried: right after a fresh broker starts, its metadata can briefly answer "This server does
 * not host this topic-partition" while waiting for the new topic's leaders. A retry of an existing topic is a
 * no-op, so this only ever waits, it never creates twice.
 */
export async function createTopicWhenReady(admin: Admin, topic: string, partitions: number): Promise<void> {
  await eventually(
    `topic ${topic} with its leaders`,
    () => createTopic(admin, topic, partitions).then(() => true),
    60_000,
  );
}

/** A process the suite started (a worker, a dashboard) with what it started in turn. */
export interface RunningProcess {
  /** SIGTERM to its process group, resolved once it exited (at once if it already had). */
  stop(): Promise<void>;
}

export type WorkerProcess = RunningProcess;

/** A process of its own process group (npx and what it starts), in ROOT, with `env` over the suite's configuration. */
function startProcessGroup(args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn('npx', args, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
    env: childProcessEnv(env),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
      await exited;
    },
  };
}

/** A real worker process (`worker/main.ts`) with `env` over the suite's configuration. */
export function startWorker(env: Record<string, string>): WorkerProcess {
  return startProcessGroup(['tsx', 'worker/main.ts'], env);
}

/**
 * A second production dashboard (`next start` on the build the suite's own server runs) on `port`, with
 * `env` over the suite's configuration and its users: for settings the suite's server does not have (more
 * clusters). Resolves once its sign-in page answers; throws after 60 s, with the server stopped.
 */
export async function startDashboard(port: number, env: Record<string, string>): Promise<RunningProcess> {
  const server = startProcessGroup(['next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    ...E2E_ACCESS_ENV,
    ...env,
  });
  try {
    await eventually(
      `the dashboard on port ${port}`,
      () =>
        fetch(`http://127.0.0.1:${port}/sign-in`).then(
          (response) => (response.ok ? true : undefined),
          () => undefined,
        ),
      60_000,
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/**
 * Resolves once React has hydrated the page's content: a page rendered on the server (the group page) shows
 * its controls before their handlers exist, and a click or a choice made then is lost. React attaches its
 * props to a server-rendered element when it hydrates it.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const content = document.querySelector('#main > *');
          return content !== null && Object.keys(content).some((key) => key.startsWith('__reactProps$'));
        }),
      { message: 'the page hydrates' },
    )
    .toBe(true);
}

/** Signs `user` in through the sign-in page, arriving at `next` once it has hydrated. */
export async function signIn(page: Page, user: E2eUser, next = '/'): Promise<void> {
  await page.goto(next);
  // Every page without a session redirects to the sign-in page, remembering where it was going.
  await expect(page).toHaveURL(/\/sign-in(\?next=.*)?$/);
  await page.getByLabel('User name').fill(user.name);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(user.name);
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === next);
  await waitForHydration(page);
}

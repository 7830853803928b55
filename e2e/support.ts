import { spawn } from 'node:child_process';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Admin } from 'kafkajs';
import { childProcessEnv } from '../lib/config/program-config';
import { createTopic, eventually } from '../test-support/integration';
import { E2E_ACCESS_ENV, type E2eUser } from '../test-support/credentials';

export const ROOT = path.resolve(__dirname, '..');
/** Screenshots kept as test artifacts. */
export const ARTIFACTS = path.join(ROOT, 'test-results');
/** Every page's screenshots at 1440 and 390 px, committed: look at them when the UI changes. */
export const SHOTS = path.join(ROOT, 'docs', 'screenshots');

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

/** No serious or critical axe violation (WCAG 2.0/2.1 A and AA) on the page as it is, in the dark and the light theme. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Both palettes: the system theme follows prefers-color-scheme, so emulating it switches the palette.
  for (const colorScheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme });
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `axe on ${name}, ${colorScheme} theme`).toEqual([]);
  }
}

/**
 * What reaches past the viewport's right edge without a box of its own to scroll or clip it in: the page
 * scrolling sideways, or (since html and body clip sideways overflow) content cut off that nobody can reach.
 * Each as `tag.class (N px)`; empty when everything fits or scrolls inside its card.
 */
export async function cutOffContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const pageScroll = document.documentElement.scrollWidth - width;
    if (pageScroll > 0) found.push(`the page scrolls sideways (${pageScroll} px)`);
    const contained = (start: Element | null): boolean => {
      for (let e = start; e && e !== document.body; e = e.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX)) return true;
      }
      return false;
    };
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.right <= width + 1 || contained(el.parentElement)) continue;
      found.push(
        `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().split(/\s+/).join('.')}` : ''} (${Math.round(box.right - width)} px)`,
      );
    }
    // Outermost first (document order); their children would only repeat them.
    return found.slice(0, 10);
  });
}

/**
 * The page at 1440 px (its screenshot, from the top: the top bar is sticky), then at 390 and 360 px with no
 * sideways scroll (its 390 px screenshot); `ready` is called again at each width.
 */
export async function checkLayout(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}-1440.png`), fullPage: true });
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: 844 });
    await ready();
    // Charts follow a new width a frame or two later (a resize observer): polled, as a reader would see it settle.
    await expect
      .poll(() => cutOffContent(page), { message: `${name} at ${width} px: cut off`, timeout: 5_000 })
      .toEqual([]);
    if (width === 390) await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
  }
}

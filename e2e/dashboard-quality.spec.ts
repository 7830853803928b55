import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Admin } from 'kafkajs';
import { childProcessEnv } from '../lib/config/program-config';
import { loadTestConfig } from '../test-support/test-config';
import { isStale, staleAfterMs } from '../components/format';
import { ZAlertsResponse } from '../lib/schemas/alerts';
import { ZAttention } from '../lib/schemas/attention';
import { ZGroupDetail } from '../lib/schemas/groups';
import { ZAuditResponse } from '../lib/schemas/operator-actions';
import { uniqueName } from '../test-support/unique-name';
import { eventually, testKafka } from '../test-support/integration';
import { bearer, OPERATOR, VIEWER_TOKEN } from '../test-support/credentials';
import {
  checkLayout,
  createTopicWhenReady,
  expectAccessible,
  ROOT,
  SHOTS,
  signIn,
  startWorker,
  waitForHydration,
  type WorkerProcess,
} from './support';

// The dashboard as a viewer meets it, on seeded history (two days of 5-second samples on 12 partitions, one
// held; a 1,000-partition group): axe on every page, layout at 1440, 390 and 360 px, the charts' ticks, zone
// switch, legend, picker and zoom, the sortable paged table, the theme, the 404, and a keyboard-only
// quarantine action. Screenshots land in docs/screenshots/ (committed; look at them when the UI changes).
// A real worker also quarantines a poison record, so its alert fires: axe sees the overview with the firing
// alerts banner, its severity badges and the header's quarantined and firing counts, not an empty page.

const groups = { main: uniqueName('ui-orders'), wide: uniqueName('ui-clicks') };
/** The seed runs as a child process: Playwright cannot load the Prisma client its rollup uses. */
const seed = (mode: '--add' | '--remove') =>
  execFileSync('npx', ['tsx', 'scripts/lighthouse/seed-dashboard.ts', mode, groups.main, groups.wide], {
    cwd: ROOT,
    env: childProcessEnv(),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
const groupPath = (g: string) => `/groups/${encodeURIComponent(g)}`;

const poison = { topic: uniqueName('ui-poison-in'), group: uniqueName('ui-poison-worker') };
let admin: Admin | undefined;
let worker: WorkerProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  seed('--add');
  admin = testKafka('warden-e2e-quality').admin();
  await admin.connect();
  await createTopicWhenReady(admin, poison.topic, 1);
  const producer = testKafka('warden-e2e-quality-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic: poison.topic, acks: -1, messages: [{ partition: 0, value: '{ not json' }] });
  await producer.disconnect();
  worker = startWorker({
    WARDEN_GROUP_ID: poison.group,
    WARDEN_INPUT_TOPIC: poison.topic,
    WARDEN_RESULTS_TOPIC: uniqueName('ui-poison-results'),
    WARDEN_DLQ_TOPIC: uniqueName('ui-poison-dlq'),
    WARDEN_INPUT_PARTITIONS: '1',
    WORKER_PORT: String(loadTestConfig().WORKER_PORT + 7),
    // Samples its own group only: the seeded groups keep the history the seed wrote.
    SAMPLER_GROUP_INCLUDE: `^${poison.group}$`,
    SAMPLE_INTERVAL_MS: '1000',
    LOG_LEVEL: 'warn',
  });
});

test.afterAll(async () => {
  await worker?.stop();
  await admin?.disconnect();
  seed('--remove');
});

/** The worker's quarantine alert is firing (it fires at once by default, on the sampler's next round). */
async function poisonAlertFiring(request: APIRequestContext): Promise<void> {
  await eventually(
    "the poison record's quarantine alert firing",
    async () => {
      const response = await request.get('/api/alerts', { headers: bearer(VIEWER_TOKEN) });
      const alerts = ZAlertsResponse.parse(await response.json());
      return alerts.open.find(
        (a) => a.groupId === poison.group && a.condition === 'partition-quarantined' && a.phase === 'firing',
      );
    },
    90_000,
  );
}

const PAGES: Array<{
  name: string;
  path: () => string;
  ready: (page: Page) => Promise<void>;
  /** What must be on screen at 1440 px before axe runs, so the check cannot pass on an empty page. */
  beforeAxe?: (page: Page) => Promise<void>;
}> = [
  {
    name: 'overview',
    path: () => '/',
    ready: (page) => expect(page.locator(`[data-testid="group-row"][data-group-id="${groups.main}"]`)).toBeVisible(),
    // The state that once hid contrast failures: a firing alert and a quarantine, both on screen, and the
    // header's counts (at 1440 px; narrower, they fold behind Menu).
    beforeAxe: async (page) => {
      await expect(page.getByTestId('firing-alert').filter({ hasText: poison.group }).first()).toBeVisible();
      await expect(page.locator(`[data-testid="group-row"][data-group-id="${poison.group}"]`)).toBeVisible();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: /^Alerts/ }).locator('.nav-count')).toBeVisible();
      await expect(nav.getByRole('link', { name: /^Quarantine/ }).locator('.nav-count')).toBeVisible();
    },
  },
  {
    name: 'group',
    path: () => groupPath(groups.main),
    ready: async (page) => {
      await expect(page.getByTestId('partition-row')).toHaveCount(12);
      await showCharts(page);
      await expect(page.getByTestId('legend-item').first()).toBeVisible();
      await showRebalanceHistory(page);
    },
  },
  {
    name: 'quarantine',
    path: () => '/quarantine',
    ready: (page) => expect(quarantineCard(page)).toBeVisible(),
  },
  {
    name: 'rebalances',
    path: () => '/rebalances',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    name: 'alerts',
    path: () => '/alerts',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      // An alert of a wide group lists at most five reasons; the rest fold into "and N more".
      for (const list of await page.locator('td.reason > ul.plain-list').all()) {
        expect(await list.locator('li').count()).toBeLessThanOrEqual(5);
      }
    },
  },
  {
    name: 'audit',
    path: () => '/audit',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    name: 'not-found',
    path: () => '/no-such-page',
    ready: (page) => expect(page.getByTestId('not-found')).toBeVisible(),
  },
];

/** The charts mount once their card nears the viewport (lag-charts-card.tsx): scroll to them first. */
async function showCharts(page: Page): Promise<void> {
  await page.getByTestId('lag-charts').scrollIntoViewIfNeeded();
}

/** The group page's rebalance history is drawn once its card nears the viewport, like the charts. */
async function showRebalanceHistory(page: Page): Promise<void> {
  const history = page.getByTestId('rebalance-history');
  await history.scrollIntoViewIfNeeded();
  await expect(
    history.getByTestId('rebalance-item').or(history.getByText('No rebalance recorded for this group.')).first(),
  ).toBeVisible();
}

function quarantineCard(page: Page) {
  return page.locator(`[data-testid="quarantine-card"][data-group-id="${groups.main}"][data-partition="7"]`);
}

test('every page: no serious or critical axe violation in either theme, no sideways scroll at 390 or 360 px, screenshots at 1440 and 390 px', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await poisonAlertFiring(request);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, OPERATOR, '/');
  for (const p of PAGES) {
    await page.setViewportSize({ width: 1440, height: 900 });
    const response = await page.goto(p.path());
    expect(response?.status(), p.name).toBe(p.name === 'not-found' ? 404 : 200);
    await p.ready(page);
    await p.beforeAxe?.(page);
    await expectAccessible(page, p.name);
    await checkLayout(page, p.name, () => p.ready(page));
  }
});

test('the sign-in page, signed out: no serious or critical axe violation in either theme, no sideways scroll at 390 or 360 px, screenshots', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/sign-in');
    const ready = () => expect(page.getByRole('heading', { name: 'Sign in to Warden' })).toBeVisible();
    await ready();
    await waitForHydration(page);
    await expectAccessible(page, 'sign-in');
    await checkLayout(page, 'sign-in', ready);
  } finally {
    await context.close();
  }
});

test.describe('in a time zone the server is not in', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('every page keeps its server HTML when its scripts arrive after its prefetched data went stale', async ({
    page,
  }) => {
    // A slow phone or a busy machine hydrates seconds after the server rendered, past the queries' stale time
    // (one refresh interval, 1 s here). Any text the hydrating render then computes differently from the server
    // makes React discard the server's HTML for the whole page and render it again (error #418): the work is
    // done twice and every element held meanwhile is detached. The scripts are held back 2 s to force it, and
    // the browser is in another time zone than the server (UTC here), as most viewers are: a time the server
    // wrote in its own zone would differ from the one the browser computes.
    test.setTimeout(120_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript(() => {
      const marker = window as unknown as { mainReplaced?: boolean };
      new MutationObserver((mutations) => {
        for (const m of mutations) {
          for (const node of Array.from(m.removedNodes)) {
            if (node instanceof Element && (node.matches('main') || node.querySelector('main')))
              marker.mainReplaced = true;
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, OPERATOR, '/');
    await page.route('**/_next/static/chunks/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await route.continue();
    });
    for (const p of PAGES.filter((p) => p.name !== 'not-found')) {
      await page.goto(p.path());
      // The header's liveness is empty in the server's HTML and filled once the page has hydrated.
      await expect(page.getByTestId('refresh-state'), p.name).toHaveText(/\S/, { timeout: 30_000 });
      await p.ready(page);
      expect(errors, `${p.name}: errors while hydrating`).toEqual([]);
      expect(
        await page.evaluate(() => (window as unknown as { mainReplaced?: boolean }).mainReplaced ?? false),
        p.name,
      ).toBe(false);
    }
  });

  test("times turn to the viewer's zone once the page has hydrated, and a page reached by a link shows them so from its first render", async ({
    page,
  }) => {
    // Records every text the chart's zone line ever shows, so a render in UTC that a later one corrected is seen.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { zoneTexts: string[] }).zoneTexts = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="chart-zone"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, OPERATOR, '/');
    const toggle = page.getByTestId('time-zone-toggle');
    await expect(toggle).toHaveText('Local time');
    // A mark on the window survives a client-side navigation and not a page load.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page
      .locator(`[data-testid="group-row"][data-group-id="${groups.main}"]`)
      .getByRole('link', { name: groups.main })
      .click();
    await page.waitForURL((url) => url.pathname === groupPath(groups.main));
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await showCharts(page);
    const zone = page.getByTestId('chart-zone');
    await expect(zone).toContainText('Times in GMT+5:30 (24 h)');
    const zoneTexts = () => page.evaluate(() => (window as unknown as { zoneTexts: string[] }).zoneTexts);
    expect((await zoneTexts()).filter((t) => !t.startsWith('Times in GMT+5:30'))).toEqual([]);
  });
});

test("no page loads zod while it starts: the schemas come with the page's first API answer", async ({
  page,
  browser,
}) => {
  // zod and every schema built at module load were the dashboard's costliest own start-up code, on every page.
  // The pages' first HTML holds their data, so parsing can wait for the first API answer
  // (components/browser-schemas.ts). With every API request held, nothing can load them; a script holding
  // zod's error class is zod.
  test.setTimeout(120_000);
  const ZOD_MARK = 'ZodError';
  const scripts: Array<Promise<{ url: string; zod: boolean; read: boolean }>> = [];
  const watchScripts = (tab: Page) =>
    tab.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const url = response.url();
      scripts.push(
        response.text().then(
          (body) => ({ url, zod: body.includes(ZOD_MARK), read: true }),
          () => ({ url, zod: false, read: false }),
        ),
      );
    });
  const startUp = async (tab: Page, pagePath: string, name: string) => {
    scripts.length = 0;
    await tab.goto(pagePath);
    await waitForHydration(tab);
    const loaded = await Promise.all(scripts);
    expect(loaded.length, `${name}: its scripts were seen`).toBeGreaterThan(3);
    expect(
      loaded.filter((s) => !s.read).map((s) => s.url),
      `${name}: scripts whose text could not be read`,
    ).toEqual([]);
    expect(
      loaded.filter((s) => s.zod).map((s) => s.url),
      `${name}: scripts with zod before any API answer`,
    ).toEqual([]);
  };

  await signIn(page, OPERATOR, '/');
  const tab = await page.context().newPage();
  watchScripts(tab);
  // Routing also turns the tab's HTTP cache off, so every page fetches each of its scripts again.
  await tab.route('**/api/**', () => undefined);
  for (const p of PAGES) await startUp(tab, p.path(), p.name);
  await startUp(tab, '/dead-letters', 'dead letters');

  const signedOut = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const signInPage = await signedOut.newPage();
  watchScripts(signInPage);
  await signInPage.route('**/api/**', () => undefined);
  await startUp(signInPage, '/sign-in', 'sign-in');
  await signedOut.close();

  // The mark does find zod: with the API answering, the charts' first series brings the schemas.
  await tab.unrouteAll({ behavior: 'ignoreErrors' });
  scripts.length = 0;
  await tab.goto(groupPath(groups.main));
  await showCharts(tab);
  await expect(tab.getByTestId('legend-item').first()).toBeVisible();
  expect((await Promise.all(scripts)).filter((s) => s.zod)).toHaveLength(1);
  await tab.close();
});

test('no page prefetches the pages it links to, in view or under the pointer', async ({ page }) => {
  // Every page renders per request from live data: a prefetch renders the linked page's layout on the server and
  // decodes it while this page starts up, for a navigation that fetches fresh data anyway (components/app-link.tsx).
  // Without a click, a request for a route's server payload (`_rsc`) is a prefetch.
  test.setTimeout(120_000);
  await signIn(page, OPERATOR, '/');
  const prefetches: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).searchParams.has('_rsc')) prefetches.push(`${page.url()} → ${request.url()}`);
  });
  let hovered = 0;
  for (const p of PAGES) {
    await page.goto(p.path());
    await p.ready(page);
    await waitForHydration(page);
    const contentLink = page.locator('main a[href^="/"]').first();
    if ((await contentLink.count()) > 0) {
      await contentLink.hover();
      hovered += 1;
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link').last().hover();
    // Next.js prefetches in view once the browser is idle: the pages poll every second, so wait past one poll.
    await page.waitForTimeout(1_500);
  }
  expect(hovered, 'pages with a link in their content').toBeGreaterThan(3);
  expect(prefetches).toEqual([]);
});

test('on a phone the navigation folds behind Menu and Sign out stays on screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, OPERATOR, '/');
  const quarantineLink = page.getByRole('link', { name: /^Quarantine/ });
  await expect(quarantineLink).toBeHidden();
  await page.getByTestId('nav-toggle').click();
  await expect(page.getByTestId('nav-toggle')).toHaveAttribute('aria-expanded', 'true');
  await quarantineLink.click();
  await expect(page).toHaveURL(/\/quarantine$/);
  await expect(quarantineLink).toBeHidden();
  const signOut = await page.getByRole('button', { name: 'Sign out', exact: true }).boundingBox();
  expect(signOut).not.toBeNull();
  expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(390);
});

test("the top bar counts from /api/attention on every page and agrees with the Quarantine page's own list", async ({
  page,
}) => {
  await poisonAlertFiring(page.request);
  const listRequests: string[] = [];
  page.on('request', (r) => {
    const { pathname } = new URL(r.url());
    if (pathname === '/api/quarantine' || pathname === '/api/alerts') listRequests.push(pathname);
  });
  await signIn(page, OPERATOR, '/audit');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const held = nav.getByRole('link', { name: /^Quarantine/ }).locator('.nav-count');
  const firing = nav.getByRole('link', { name: /^Alerts/ }).locator('.nav-count');
  // Other specs hold and release partitions meanwhile: the bar and the API agree once a poll has gone by.
  await expect(async () => {
    const counts = ZAttention.parse(await (await page.request.get('/api/attention')).json());
    expect(counts.quarantinedPartitions).toBeGreaterThan(0);
    expect(counts.firingAlerts).toBeGreaterThan(0);
    expect(await held.textContent()).toBe(String(counts.quarantinedPartitions));
    expect(await firing.textContent()).toBe(String(counts.firingAlerts));
  }).toPass({ timeout: 30_000 });
  expect(listRequests, 'the Audit page shows neither list, so it fetches neither').toEqual([]);

  await nav.getByRole('link', { name: /^Quarantine/ }).click();
  await expect(page.getByTestId('quarantine-card').first()).toBeVisible();
  await expect(async () => {
    expect(await held.textContent()).toBe(String(await page.getByTestId('quarantine-card').count()));
  }).toPass({ timeout: 30_000 });
});

test("the first HTML already holds the firing-alerts banner, the top bar's counts and every page's data: nothing pushes the page down", async ({
  page,
}) => {
  await poisonAlertFiring(page.request);
  await signIn(page, OPERATOR, '/audit');
  for (const pagePath of ['/', groupPath(poison.group), '/quarantine']) {
    const html = await (await page.request.get(pagePath)).text();
    expect(html, pagePath).toMatch(/aria-label="\d+ quarantined"/);
    expect(html, pagePath).toMatch(/aria-label="\d+ firing"/);
    if (pagePath === '/quarantine') {
      expect(html, 'the held partitions are in the HTML').toContain(`data-group-id="${poison.group}"`);
    } else {
      expect(html, `${pagePath}: the banner is in the HTML`).toContain('data-testid="firing-alerts"');
      expect(html, pagePath).toContain(poison.group);
    }
  }
  // The other pages' data too: no loading state in the HTML, the rows themselves instead.
  const firstHtml: Array<[string, string, string]> = [
    [`/rebalances?group=${encodeURIComponent(groups.main)}`, 'Loading rebalances…', 'data-testid="rebalance-item"'],
    ['/alerts', 'Loading the alerts…', `data-group="${poison.group}"`],
    ['/audit', 'Loading the audit log…', 'data-testid="access-row"'],
    // This stack's dead-letter topic may be empty or not created yet: then its empty state is the content.
    ['/dead-letters', 'Reading the dead-letter topic…', 'data-testid="dead-letter-counts"|No dead letter matches'],
  ];
  for (const [pagePath, loading, content] of firstHtml) {
    const html = await (await page.request.get(pagePath)).text();
    expect(html, pagePath).not.toContain(loading);
    expect(html, pagePath).toMatch(new RegExp(content));
  }
});

test('from the desktop down to the folded phone bar, the top bar wraps instead of clipping or breaking a label', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, OPERATOR, '/');
  const labels = [
    page.getByRole('link', { name: 'Dead letters' }),
    page.getByRole('button', { name: 'Sign out', exact: true }),
    page.getByRole('button', { name: 'Sign out everywhere' }),
    page.getByTestId('time-zone-toggle'),
  ];
  for (const width of [1440, 1024, 800, 721]) {
    await page.setViewportSize({ width, height: 900 });
    const theme = await page.getByTestId('theme-select').boundingBox();
    expect(theme!.x + theme!.width, `the theme choice at ${width} px`).toBeLessThanOrEqual(width);
    for (const control of labels) {
      const box = await control.boundingBox();
      expect(box, `${width} px`).not.toBeNull();
      expect(box!.x + box!.width, `${await control.textContent()} at ${width} px`).toBeLessThanOrEqual(width);
      // One line of text: every line box of the label starts at the same height.
      const lines = await control.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect(lines, `${await control.textContent()} at ${width} px`).toBe(1);
    }
  }
});

test('charts: round 24-hour ticks, a UTC switch kept across reloads, legends that hide, top-N picker, drag to zoom and reset', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, OPERATOR, groupPath(groups.main));
  const charts = page.getByTestId('lag-charts');
  await showCharts(page);
  await expect(charts.getByTestId('legend-item').first()).toBeVisible();
  // 15 minutes of 5 s samples: x ticks every few whole minutes, 24-hour "HH:MM"; y ticks at round durations.
  // Midnight's tick is its date ("12-02"), so a run just after midnight counts it with the times.
  const timeChart = charts.locator('.chart').first();
  const labels = () => timeChart.locator('svg text').allTextContents();
  const isTimeTick = (t: string) => /^\d\d:\d\d/.test(t) || /^\d\d-\d\d$/.test(t);
  await expect.poll(async () => (await labels()).filter(isTimeTick).length).toBeGreaterThanOrEqual(3);
  const texts = await labels();
  const ticks = texts.filter(isTimeTick);
  for (const t of ticks) expect(t).toMatch(/^(([01]\d|2[0-3]):[0-5][05]|(0\d|1[0-2])-[0-3]\d)$/);
  const yTicks = texts.filter((t) => !isTimeTick(t) && t !== '0');
  expect(yTicks.length).toBeGreaterThan(0);
  for (const t of yTicks) expect(t).toMatch(/^(\d+(ms|s|m|h|d))+$/);

  // The zone switch: UTC is shown on the chart, and kept after a reload (localStorage).
  await page.getByTestId('time-zone-toggle').click();
  await expect(charts.getByTestId('chart-zone')).toContainText('Times in UTC (24 h)');
  await page.reload();
  await showCharts(page);
  await expect(page.getByTestId('time-zone-toggle')).toHaveText('UTC');
  await expect(charts.getByTestId('chart-zone')).toContainText('Times in UTC');

  // The default draws the top 8 of 12 by time lag; partition 7 (ten times the lag) leads the legend.
  const legend = charts.getByRole('group', { name: /Partitions drawn/ }).getByTestId('legend-item');
  await expect(legend).toHaveCount(8);
  await expect(legend.first()).toHaveText(/-7$/);
  await expect(timeChart.locator('.recharts-line')).toHaveCount(8);
  await legend.first().click();
  await expect(legend.first()).toHaveAttribute('aria-pressed', 'false');
  await expect(timeChart.locator('.recharts-line')).toHaveCount(7);
  await legend.first().click();
  await expect(timeChart.locator('.recharts-line')).toHaveCount(8);
  await charts.getByTestId('partition-top').selectOption('5');
  await expect(legend).toHaveCount(5);

  // Drag across the chart: every chart shows the span, and Reset zoom brings the range back.
  // The press takes the time under the pointer from the chart's hover state, which a hover sets first; on a busy
  // machine a poll's re-render can land between them, so the drag is repeated until the chart saw it.
  const box = (await timeChart.locator('.recharts-surface').boundingBox())!;
  await expect(async () => {
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 4 });
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(charts.getByTestId('zoom-reset')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const zoomedTicks = (await labels()).filter((t) => /^\d\d:\d\d/.test(t));
  expect(zoomedTicks.length).toBeGreaterThan(0);
  for (const t of zoomedTicks) expect(t).toMatch(/^\d\d:\d\d(:\d\d)?$/);
  await charts.getByTestId('zoom-reset').click();
  await expect(charts.getByTestId('zoom-reset')).toHaveCount(0);

  // The same zoom from the keyboard: Zoom in, move earlier and later, zoom out to the whole range. Zoomed in
  // twice, so a move earlier stays clear of the range's start: the range ends now and slides with every poll,
  // and a window moved onto its start would be clamped there and come back later by that slide.
  const resetText = () => charts.getByTestId('zoom-reset').textContent();
  await charts.getByTestId('zoom-in').focus();
  await page.keyboard.press('Enter');
  await expect(charts.getByTestId('zoom-reset')).toBeVisible();
  const half = await resetText();
  await page.keyboard.press('Enter');
  await expect.poll(resetText).not.toBe(half);
  const middle = await resetText();
  await charts.getByTestId('zoom-earlier').focus();
  await page.keyboard.press('Enter');
  await expect.poll(resetText).not.toBe(middle);
  await page.keyboard.press('Tab');
  await expect(charts.getByTestId('zoom-later')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect.poll(resetText).toBe(middle);
  await charts.getByTestId('zoom-out').focus();
  await page.keyboard.press('Enter');
  await expect(charts.getByTestId('zoom-reset')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(charts.getByTestId('zoom-reset')).toHaveCount(0);

  // The 7-day range reads rollups; two days are seeded, so it draws them and says nothing is stored before.
  await charts.getByText('7d', { exact: true }).click();
  await expect(charts.getByTestId('chart-coverage')).toContainText('Nothing stored before');
  // Two days stored against a 7-day retention: the group was first sampled then, not trimmed by retention.
  await expect(charts.getByTestId('chart-coverage')).toContainText('the group was first sampled then.');
  // The range is in the URL: a reload (or a shared link) opens the same window.
  await expect(page).toHaveURL((url) => url.searchParams.get('range') === '7d');
  await page.reload();
  await showCharts(page);
  await expect(page.getByTestId('lag-charts').getByTestId('chart-coverage')).toContainText('Nothing stored before');
});

test('partition table: sorts by any measure, worst first, and renders a 1,000-partition group as it scrolls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, OPERATOR, groupPath(groups.wide));
  const rows = page.getByTestId('partition-row');
  const box = page.getByTestId('partition-scroll');
  await expect(page.getByTestId('partition-count')).toContainText('1000 partitions');
  // Only the rows in view (and a few either side) are in the page, never all thousand.
  const rendered = await rows.count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(60);
  await expect(rows.first()).toHaveAttribute('data-partition', '0');
  await page.getByTestId('sort-lag').click();
  await expect(page.getByRole('columnheader', { name: /Lag/ }).first()).toHaveAttribute('aria-sort', 'descending');
  const lagsOf = async () =>
    (await page.getByTestId('partition-lag').allTextContents()).map((t) => Number(t.replace(/[^\d]/g, '')));
  const lags = await lagsOf();
  expect(lags.length).toBeLessThan(60);
  expect(lags).toEqual([...lags].sort((a, b) => b - a));
  expect(lags[0]).toBeGreaterThan(lags.at(-1)!);
  // Scrolled to the end, the table holds the smallest lags, still in order, and the header stays in view.
  await box.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(page.getByTestId('partition-count')).toContainText('–1000)');
  const tail = await lagsOf();
  expect(tail).toEqual([...tail].sort((a, b) => b - a));
  expect(tail.at(-1)!).toBeLessThanOrEqual(lags.at(-1)!);
  await expect(page.getByTestId('sort-lag')).toBeInViewport();
  // Sorting again starts from the top: partition 0 first in partition order.
  await page.getByTestId('sort-partition').click();
  await expect(rows.first()).toHaveAttribute('data-partition', '0');
});

test('rebalance history: who left and who joined, and the members who stayed folded behind a button', async ({
  page,
}) => {
  // The seed restarts one of six members in every other rebalance and all six in the rest (api-seed.ts).
  await signIn(page, OPERATOR, `/rebalances?group=${encodeURIComponent(groups.main)}`);
  const items = page.getByTestId('rebalance-item');
  await expect(items.first()).toBeVisible();
  const oneRestarted = items.filter({ has: page.getByTestId('stayed-toggle') }).first();
  const members = oneRestarted.getByTestId('rebalance-member');
  await expect(oneRestarted.getByTestId('rebalance-members')).toContainText('Members 6 → 6');
  await expect(members).toHaveCount(2);
  await expect(oneRestarted.locator('.member-left')).toHaveCount(1);
  await expect(oneRestarted.locator('.member-joined')).toHaveCount(1);
  const toggle = oneRestarted.getByTestId('stayed-toggle');
  await expect(toggle).toHaveText('Show the 5 who stayed');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(oneRestarted.locator('.member-stayed')).toHaveCount(5);
  await expect(members).toHaveCount(7);

  const allReplaced = items.filter({ hasNot: page.getByTestId('stayed-toggle') }).first();
  await expect(allReplaced.locator('.member-left')).toHaveCount(6);
  await expect(allReplaced.locator('.member-joined')).toHaveCount(6);

  // Two days of a rebalance every 40 minutes: the newest 50 are drawn, the rest on demand.
  await expect(page.getByTestId('rebalances-shown')).toHaveText('newest 50 of 72 rebalances');
  await expect(items).toHaveCount(50);
  await page.getByTestId('rebalances-more').click();
  await expect(items).toHaveCount(72);
  await expect(page.getByTestId('rebalances-shown')).toHaveText('72 rebalances');
  await expect(page.getByTestId('rebalances-more')).toHaveCount(0);
});

test('the audit log draws the newest 50 rows of a table and 50 more on each "Show older"', async ({
  page,
  request,
  baseURL,
}) => {
  // More than one step of sign-ins, whatever the earlier specs left in the log; ten at a time (each one hashes).
  for (let signedIn = 0; signedIn < 51; signedIn += 10) {
    const batch = Math.min(10, 51 - signedIn);
    const responses = await Promise.all(
      Array.from({ length: batch }, () =>
        request.post('/api/auth/sign-in', {
          data: { name: OPERATOR.name, password: OPERATOR.password },
          headers: { origin: baseURL! },
        }),
      ),
    );
    expect(responses.map((response) => response.status())).toEqual(Array(batch).fill(200));
  }
  await signIn(page, OPERATOR, '/audit');
  const { access } = ZAuditResponse.parse(
    await (await page.request.get('/api/audit?kind=access', { headers: bearer(VIEWER_TOKEN) })).json(),
  );
  expect(access.length).toBeGreaterThan(50);
  const rows = page.getByTestId('access-row');
  await expect(rows).toHaveCount(50);
  const html = await (await page.request.get('/audit')).text();
  expect(html.match(/data-testid="access-row"/g), 'the first HTML draws the first step only').toHaveLength(50);
  await expect(rows.first()).toHaveAttribute('data-kind', 'sign-in');
  const more = page.getByTestId('access-more');
  await expect(more).toHaveText(`Show ${Math.min(50, access.length - 50)} older`);
  await more.click();
  await expect(rows).toHaveCount(Math.min(100, access.length));
  // A new filter starts again from the first step.
  await page.getByLabel('Kind of audit entries').selectOption('access');
  await expect(rows).toHaveCount(50);
});

test('theme: light follows prefers-color-scheme, the choice overrides it; the 404 page is themed', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, OPERATOR, '/');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // A choice made before the page hydrated is lost (the select moves, no handler runs): choose until it shows.
  const choose = (theme: 'dark' | 'system', color: string) =>
    expect(async () => {
      await page.getByTestId('theme-select').selectOption(theme);
      expect(await background()).toBe(color);
    }).toPass({ timeout: 15_000 });
  await expect.poll(background).toBe('rgb(246, 248, 250)');
  await choose('dark', 'rgb(13, 17, 23)');
  await page.goto('/no-such-page');
  await expect(page.getByTestId('not-found')).toContainText('Page not found');
  await expect.poll(background).toBe('rgb(13, 17, 23)');
  await choose('system', 'rgb(246, 248, 250)');
});

test('keyboard only: from the top of the Quarantine page to a requested resume, without the mouse', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/quarantine');
  const card = quarantineCard(page);
  await expect(card).toBeVisible();
  const resume = card.getByRole('button', { name: 'Resume…' });
  let reached = false;
  for (let i = 0; i < 120 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await resume.evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'Tab reaches the Resume button').toBe(true);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: /Reason/ })).toBeFocused();
  await page.keyboard.type('e2e: keyboard-only resume of the held record');
  const submit = dialog.getByRole('button', { name: /^Resume/ });
  let onSubmit = false;
  for (let i = 0; i < 20 && !onSubmit; i++) {
    await page.keyboard.press('Tab');
    onSubmit = await submit.evaluate((el) => el === document.activeElement);
  }
  expect(onSubmit, 'Tab reaches the submit button').toBe(true);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  // No worker owns the seeded group, so the request waits for one: it was sent and is shown.
  await expect(page.getByTestId('command-progress').first()).toHaveAttribute('data-state', /pending|waiting/);
});

test('a group whose sampler stopped says Stale in the first HTML, and keeps saying so once its clock runs', async ({
  page,
}) => {
  // The seeded groups' newest sample is the seed's; no sampler renews it, so the group turns stale a known time
  // after the seed (the earlier tests usually took longer than that already).
  const config = loadTestConfig();
  const detailResponse = await page.request.get(`/api/groups/${encodeURIComponent(groups.main)}`, {
    headers: bearer(VIEWER_TOKEN),
  });
  const { sampledAt } = ZGroupDetail.parse(await detailResponse.json());
  const staleAt = Date.parse(sampledAt) + staleAfterMs(config.SAMPLE_INTERVAL_MS, config.SAMPLE_IDLE_STORE_MS);
  await expect
    .poll(() => isStale(sampledAt, Date.now(), config.SAMPLE_INTERVAL_MS, config.SAMPLE_IDLE_STORE_MS), {
      timeout: Math.max(5_000, staleAt - Date.now() + 5_000),
      intervals: [1_000],
    })
    .toBe(true);

  await signIn(page, OPERATOR, '/');
  const html = await (await page.request.get(groupPath(groups.main))).text();
  // React separates adjacent texts with an empty comment.
  expect(html).toMatch(/<strong>Stale:<\/strong> last sampled (<!-- -->)?\d/);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(groupPath(groups.main));
  await expect(page.getByTestId('refresh-state')).toHaveText(/\S/);
  await expect(page.getByRole('status').filter({ hasText: 'Stale:' })).toContainText(/last sampled \d+ (s|min|h)/);
  expect(errors).toEqual([]);
});

test('a group never sampled says so in the first HTML, and still after hydration', async ({ page }) => {
  const missing = groupPath(uniqueName('ui-never-sampled'));
  await signIn(page, OPERATOR, '/');
  const html = await (await page.request.get(missing)).text();
  expect(html).toContain('This consumer group has never been sampled.');
  expect(html).not.toContain('Loading the group…');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // The client's own fetch is refused with the same 404, and the page stays as it was.
  const refused = page.waitForResponse((r) => r.url().includes('/api/groups/') && r.status() === 404);
  await page.goto(missing);
  await expect(page.getByText('This consumer group has never been sampled.')).toBeVisible();
  await refused;
  await expect(page.getByText('This consumer group has never been sampled.')).toBeVisible();
  expect(errors).toEqual([]);
});

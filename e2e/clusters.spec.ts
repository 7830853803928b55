import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Request } from '@playwright/test';
import pg from 'pg';
import { loadTestConfig } from '../test-support/test-config';
import { createKafka } from '../lib/kafka/client';
import { ZAlertsResponse } from '../lib/schemas/alerts';
import { ZGroupDetail, ZGroupsResponse } from '../lib/schemas/groups';
import { ZAuditResponse } from '../lib/schemas/operator-actions';
import { ZOffsetResetResult } from '../lib/schemas/offset-reset';
import { ZRebalancesResponse } from '../lib/schemas/rebalances';
import { startLocalBroker, stopLocalBroker, type LocalBrokerOptions } from '../scripts/lib/broker';
import { linkInstalledJars } from '../test-support/broker-home';
import { groupWithLag } from '../test-support/commit-offsets';
import { committedOffsets, testKafka, uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER_TOKEN } from '../test-support/credentials';
import {
  ARTIFACTS,
  signIn,
  startDashboard,
  startWorker,
  waitForHydration,
  type RunningProcess,
  type WorkerProcess,
} from './support';

// Two real clusters: the suite's broker (`default`) and a second local broker started here, named `second`
// in WARDEN_CLUSTERS of a worker and of a dashboard of this spec's own (the suite's dashboard watches
// `default` only and stays as it is). The same group id on both, with different lags: only the cluster
// tells the two groups apart, on the overview, in the filter, in the group page's heading and its URLs.

const config = loadTestConfig();
// base+92/93 (the suite's broker), +100 (the suite's dashboard), +110.. (the security test's broker),
// +464.. (workers) and +692/693 (the multi-cluster integration test) belong to others.
const SECOND_BROKER = { port: config.WARDEN_TEST_PORT_BASE + 694, controller: config.WARDEN_TEST_PORT_BASE + 695 };
const DASHBOARD_PORT = config.UI_PORT + 7;
const CLUSTERS = JSON.stringify([{ name: 'second', brokers: `127.0.0.1:${SECOND_BROKER.port}` }]);

const prefix = uniqueName('e2e-clusters');
const topic = `${prefix}-in`;
const groupId = `${prefix}-group`;
// Lags: 2 on default, 5 on second.
const DEFAULT_LAG = { produced: 3, committed: 1 };
const SECOND_LAG = { produced: 7, committed: 2 };

let dir: string | undefined;
let second: LocalBrokerOptions | undefined;
let worker: WorkerProcess | undefined;
let dashboard: RunningProcess | undefined;

test.use({ baseURL: `http://127.0.0.1:${DASHBOARD_PORT}` });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = mkdtempSync(path.join(tmpdir(), 'warden-e2e-clusters-'));
  const home = path.join(dir, 'kafka');
  mkdirSync(home, { recursive: true });
  linkInstalledJars(home, config.WARDEN_KAFKA_HOME);
  second = { port: SECOND_BROKER.port, controllerPort: SECOND_BROKER.controller, home, fresh: true };
  await startLocalBroker(second);
  const secondKafka = createKafka({
    brokers: [`127.0.0.1:${SECOND_BROKER.port}`],
    clientId: 'warden-e2e-clusters',
    logLevel: 'nothing',
  });
  await groupWithLag(testKafka('warden-e2e-clusters'), topic, groupId, DEFAULT_LAG);
  await groupWithLag(secondKafka, topic, groupId, SECOND_LAG);

  worker = startWorker({
    WARDEN_GROUP_ID: `${prefix}-worker`,
    WARDEN_INPUT_TOPIC: `${prefix}-events`,
    WARDEN_RESULTS_TOPIC: `${prefix}-results`,
    WARDEN_DLQ_TOPIC: `${prefix}-dlq`,
    WARDEN_INPUT_PARTITIONS: '1',
    WORKER_PORT: String(config.WORKER_PORT + 5),
    SAMPLER_GROUP_INCLUDE: `^${groupId}$`,
    WARDEN_CLUSTERS: CLUSTERS,
    LOG_LEVEL: 'warn',
  });
  dashboard = await startDashboard(DASHBOARD_PORT, { UI_PORT: String(DASHBOARD_PORT), WARDEN_CLUSTERS: CLUSTERS });
  // Every test reads the group on both clusters: wait here for the worker's first sample of each (its second
  // cluster's sampler connects to a broker that has just started; on a loaded machine that took over a minute).
  await expect
    .poll(
      async () => {
        const answer = await fetch(`http://127.0.0.1:${DASHBOARD_PORT}/api/groups`, { headers: bearer(VIEWER_TOKEN) });
        if (!answer.ok) return [];
        const groups = ZGroupsResponse.parse(await answer.json()).groups;
        return groups
          .filter((g) => g.groupId === groupId)
          .map((g) => g.cluster)
          .sort();
      },
      { timeout: 150_000, intervals: [1_000] },
    )
    .toEqual(['default', 'second']);
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await dashboard?.stop();
  await worker?.stop();
  if (second) await stopLocalBroker(second).catch((error: Error) => console.error(error.message));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rowOf = (page: Page, cluster: string) =>
  page.locator(`[data-testid="group-row"][data-group-id="${groupId}"][data-cluster="${cluster}"]`);

/** The API requests the page makes for this spec's group from now on (empty it with `splice(0)`). */
function groupApiRequests(page: Page): Request[] {
  const seen: Request[] = [];
  const prefixPath = `/api/groups/${encodeURIComponent(groupId)}`;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(prefixPath)) seen.push(request);
  });
  return seen;
}

/**
 * Clicks the group's link in `cluster`'s row, narrowed to that one row first: the overview re-sorts every
 * refresh (worst first, and the two rows' time lags tick past each other), and a row that moves under the
 * pointer takes the click elsewhere.
 */
async function openGroupPage(page: Page, cluster: string): Promise<void> {
  await page.getByLabel('Filter groups by name').fill(groupId);
  await page.getByLabel('Filter groups by cluster').selectOption(cluster);
  await expect(page.getByTestId('group-row')).toHaveCount(1);
  await rowOf(page, cluster).getByRole('link', { name: groupId }).click();
}

test('the same group on two clusters: two rows with their cluster, a filter to one, and each group page in its cluster', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/');
  const rows = page.locator(`[data-testid="group-row"][data-group-id="${groupId}"]`);
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  await expect(rowOf(page, 'default').getByTestId('group-cluster')).toHaveText('default');
  await expect(rowOf(page, 'second').getByTestId('group-cluster')).toHaveText('second');
  await expect(page.getByRole('columnheader', { name: /Cluster/ })).toBeVisible();
  await expect(rowOf(page, 'default').getByTestId('total-lag')).toHaveText(
    String(DEFAULT_LAG.produced - DEFAULT_LAG.committed),
  );
  await expect(rowOf(page, 'second').getByTestId('total-lag')).toHaveText(
    String(SECOND_LAG.produced - SECOND_LAG.committed),
  );
  // The default cluster's link is the URL from before clusters; the other cluster's names it.
  await expect(rowOf(page, 'default').getByRole('link', { name: groupId })).toHaveAttribute(
    'href',
    `/groups/${encodeURIComponent(groupId)}`,
  );
  await expect(rowOf(page, 'second').getByRole('link', { name: groupId })).toHaveAttribute(
    'href',
    `/groups/${encodeURIComponent(groupId)}?cluster=second`,
  );

  // The cluster filter narrows the table to one cluster's groups.
  const filter = page.getByLabel('Filter groups by cluster');
  await expect(filter.locator('option')).toHaveText(['all clusters', 'default', 'second']);
  await filter.selectOption('second');
  await expect(rows).toHaveCount(1);
  await expect(rowOf(page, 'second')).toBeVisible();
  await expect(page.locator('[data-testid="group-row"][data-cluster="default"]')).toHaveCount(0);
  await filter.selectOption('default');
  await expect(rows).toHaveCount(1);
  await expect(rowOf(page, 'default')).toBeVisible();
  await expect(page.locator('[data-testid="group-row"][data-cluster="second"]')).toHaveCount(0);
  await filter.selectOption('all');
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: path.join(ARTIFACTS, 'two-clusters-overview.png'), fullPage: true });

  // The second cluster's group page: its heading names the cluster, and every request it makes for the
  // group carries ?cluster=second.
  const requests = groupApiRequests(page);
  await openGroupPage(page, 'second');
  await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}` && url.search === '?cluster=second');
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toContainText(groupId);
  await expect(heading.getByTestId('group-cluster')).toHaveText('second');
  await expect(page.getByTestId('group-total-lag')).toHaveText(String(SECOND_LAG.produced - SECOND_LAG.committed));
  await expect(
    page.locator('[data-testid="partition-row"][data-partition="0"]').getByTestId('committed-offset'),
  ).toHaveText(String(SECOND_LAG.committed));
  await expect.poll(() => requests.length).toBeGreaterThan(0);
  const secondUrls = requests.splice(0).map((r) => new URL(r.url()));
  expect(secondUrls.filter((u) => u.searchParams.get('cluster') !== 'second').map((u) => u.href)).toEqual([]);
  await page.screenshot({ path: path.join(ARTIFACTS, 'second-cluster-group.png'), fullPage: true });

  // Back to the overview, then the default cluster's page: the URL of before, the default cluster's numbers.
  await page.getByRole('link', { name: '← All groups' }).click();
  await expect(rows).toHaveCount(2);
  requests.splice(0);
  await openGroupPage(page, 'default');
  await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}` && url.search === '');
  await expect(page.getByRole('heading', { level: 1 }).getByTestId('group-cluster')).toHaveText('default');
  await expect(page.getByTestId('group-total-lag')).toHaveText(String(DEFAULT_LAG.produced - DEFAULT_LAG.committed));
  await expect.poll(() => requests.length).toBeGreaterThan(0);
  const defaultUrls = requests.map((r) => new URL(r.url()));
  expect(defaultUrls.filter((u) => u.searchParams.has('cluster')).map((u) => u.href)).toEqual([]);
});

test('the API scopes the list and the group endpoints with ?cluster=, and names the configured clusters for an unknown one', async ({
  request,
}) => {
  const listSecond = async () => {
    const listed = await request.get('/api/groups?cluster=second', { headers: bearer(VIEWER_TOKEN) });
    expect(listed.status()).toBe(200);
    return ZGroupsResponse.parse(await listed.json()).groups;
  };
  // Sampled within a round or two of the spec's start.
  await expect
    .poll(async () => (await listSecond()).filter((g) => g.groupId === groupId).map((g) => g.totalLag), {
      timeout: 60_000,
    })
    .toEqual([SECOND_LAG.produced - SECOND_LAG.committed]);
  expect((await listSecond()).map((g) => g.cluster).filter((c) => c !== 'second')).toEqual([]);
  const detailOf = async (query: string) =>
    ZGroupDetail.parse(
      await (
        await request.get(`/api/groups/${encodeURIComponent(groupId)}${query}`, { headers: bearer(VIEWER_TOKEN) })
      ).json(),
    );
  expect((await detailOf('')).totalLag).toBe(DEFAULT_LAG.produced - DEFAULT_LAG.committed);
  expect((await detailOf('?cluster=second')).totalLag).toBe(SECOND_LAG.produced - SECOND_LAG.committed);
  const unknown = await request.get(`/api/groups/${encodeURIComponent(groupId)}?cluster=third`, {
    headers: bearer(VIEWER_TOKEN),
  });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error).toBe('no cluster "third" is configured (configured: default, second)');
});

test('the overview keeps its filter, cluster and sort in the URL: a reload and a shared link show the same view', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/');
  const rows = page.locator(`[data-testid="group-row"][data-group-id="${groupId}"]`);
  await expect(rows).toHaveCount(2, { timeout: 60_000 });
  await page.getByLabel('Filter groups by name').fill(groupId);
  await page.getByLabel('Filter groups by cluster').selectOption('second');
  const totalLag = page.getByRole('columnheader', { name: /Total lag/ });
  await totalLag.getByRole('button').click();
  await totalLag.getByRole('button').click();
  await expect(page).toHaveURL(
    (url) =>
      url.pathname === '/' &&
      url.searchParams.get('q') === groupId &&
      url.searchParams.get('cluster') === 'second' &&
      url.searchParams.get('sort') === 'totalLag' &&
      url.searchParams.get('order') === 'reversed',
  );
  const sameView = async (view: Page) => {
    await expect(view.getByLabel('Filter groups by name')).toHaveValue(groupId);
    await expect(view.getByLabel('Filter groups by cluster')).toHaveValue('second');
    await expect(view.locator('[data-testid="group-row"]')).toHaveCount(1);
    await expect(view.locator(`[data-testid="group-row"][data-cluster="second"]`)).toHaveCount(1);
    await expect(view.getByRole('columnheader', { name: /Total lag/ })).toHaveAttribute('aria-sort', 'ascending');
  };
  await page.reload();
  await waitForHydration(page);
  await sameView(page);
  const shared = await page.context().newPage();
  await shared.goto(page.url());
  await sameView(shared);
  await shared.close();
  // The default view is the plain URL again.
  await page.getByLabel('Filter groups by cluster').selectOption('all');
  await page.getByLabel('Filter groups by name').fill('');
  await totalLag.getByRole('button').click();
  await page
    .getByRole('columnheader', { name: /Status/ })
    .getByRole('button')
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '');
});

test('rebalances are per cluster: the page offers the configured clusters, the API scopes by ?cluster=', async ({
  page,
  request,
}) => {
  const workerGroup = `${prefix}-worker`;
  const historyOf = async (query: string) => {
    const answer = await request.get(`/api/rebalances${query}`, { headers: bearer(VIEWER_TOKEN) });
    expect(answer.status()).toBe(200);
    return ZRebalancesResponse.parse(await answer.json());
  };
  // The worker's join on the default cluster is recorded within a round or two.
  await expect
    .poll(async () => (await historyOf('')).rebalances.filter((r) => r.groupId === workerGroup).length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
  expect((await historyOf('')).cluster).toBe('default');
  const second = await historyOf('?cluster=second');
  expect(second.cluster).toBe('second');
  expect(second.rebalances.filter((r) => r.groupId === workerGroup)).toEqual([]);
  const unknown = await request.get('/api/rebalances?cluster=third', { headers: bearer(VIEWER_TOKEN) });
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error).toBe('no cluster "third" is configured (configured: default, second)');

  await signIn(page, OPERATOR, '/rebalances');
  const choice = page.getByTestId('rebalances-cluster');
  await expect(choice.locator('option')).toHaveText(['default', 'second']);
  await expect(choice).toHaveValue('default');
  const workerItems = page.locator('[data-testid="rebalance-item"]').filter({ hasText: workerGroup });
  await expect(workerItems.first()).toBeVisible();
  await choice.selectOption('second');
  await expect(page).toHaveURL((url) => url.pathname === '/rebalances' && url.search === '?cluster=second');
  await expect(page.getByTestId('rebalances-cluster')).toHaveValue('second');
  await expect(workerItems).toHaveCount(0);
});

test("alerts per cluster: each alert names its cluster and opens its cluster's group page; a silence is set for one cluster", async ({
  page,
  request,
  baseURL,
}) => {
  // Resolved alerts of the spec's group on both clusters, as the worker writes them (plain SQL: Playwright does
  // not load the Prisma client); the worker's evaluation leaves resolved rows alone, so they stay as seeded.
  const db = new pg.Client({ connectionString: config.DATABASE_URL });
  await db.connect();
  const now = new Date();
  const ids = {
    default: `group-status:${groupId}:${now.getTime()}`,
    second: `second/group-status:${groupId}:${now.getTime()}`,
  };
  const summaryOn = (cluster: string) => `resolved: ${groupId} was ERR on ${cluster}`;
  const reason = `${prefix}: second cluster maintenance`;
  const groupPage = `/groups/${encodeURIComponent(groupId)}`;
  const silencesOf = async () =>
    (
      await db.query<{ cluster: string; group_id: string }>(
        'SELECT cluster, group_id FROM alert_silence WHERE reason = $1',
        [reason],
      )
    ).rows;
  try {
    for (const cluster of ['default', 'second'] as const) {
      await db.query(
        `INSERT INTO alert (cluster, id, key, condition, group_id, phase, severity, active_since, firing_since,
           resolved_at, summary, reasons, updated_at)
         VALUES ($1, $2, $3, 'group-status', $4, 'resolved', 'critical', $5, $5, $5, $6, $7, $5)`,
        [
          cluster,
          ids[cluster],
          `group-status:${groupId}`,
          groupId,
          now,
          summaryOn(cluster),
          JSON.stringify([`${topic}-0 STOP`]),
        ],
      );
    }
    const alertsOf = async (query: string) => {
      const answer = await request.get(`/api/alerts${query}`, { headers: bearer(VIEWER_TOKEN) });
      expect(answer.status()).toBe(200);
      // The worker's own alerts of the group (it has no members) may be listed too: only the seeded ones count.
      const seeded: string[] = Object.values(ids);
      return ZAlertsResponse.parse(await answer.json()).history.filter((a) => seeded.includes(a.id));
    };
    expect((await alertsOf('')).map((a) => [a.id, a.cluster, a.link]).sort()).toEqual([
      [ids.default, 'default', groupPage],
      [ids.second, 'second', `${groupPage}?cluster=second`],
    ]);
    expect((await alertsOf('?cluster=second')).map((a) => a.id)).toEqual([ids.second]);
    const unknown = await request.get('/api/alerts?cluster=third', { headers: bearer(VIEWER_TOKEN) });
    expect([unknown.status(), (await unknown.json()).error]).toEqual([
      404,
      'no cluster "third" is configured (configured: default, second)',
    ]);
    const refused = await request.post('/api/alerts/silences', {
      data: { cluster: 'third', groupId, condition: null, durationMinutes: 30, reason },
      headers: { ...bearer(OPERATOR_TOKEN), origin: baseURL! },
    });
    expect([refused.status(), await refused.json()]).toEqual([
      400,
      { error: 'cluster: no cluster "third" is configured (configured: default, second)', field: 'cluster' },
    ]);
    expect(await silencesOf()).toEqual([]);

    await signIn(page, OPERATOR, '/alerts');
    const rowOn = (cluster: string) =>
      page
        .locator(`[data-testid="history-alert"][data-group="${groupId}"][data-cluster="${cluster}"]`)
        .filter({ hasText: summaryOn(cluster) });
    await expect(rowOn('second').getByTestId('alert-cluster')).toHaveText('second');
    await expect(rowOn('default').getByTestId('alert-cluster')).toHaveText('default');
    await expect(rowOn('second').getByRole('link', { name: summaryOn('second') })).toHaveAttribute(
      'href',
      `${groupPage}?cluster=second`,
    );
    await expect(rowOn('default').getByRole('link', { name: summaryOn('default') })).toHaveAttribute('href', groupPage);

    // The cluster select narrows the page to one cluster, in the URL; a new silence starts on that cluster.
    const choice = page.getByTestId('alerts-cluster');
    await expect(choice.locator('option')).toHaveText(['all clusters', 'default', 'second']);
    await choice.selectOption('second');
    await expect(page).toHaveURL((url) => url.pathname === '/alerts' && url.search === '?cluster=second');
    await expect(rowOn('default')).toHaveCount(0);
    await expect(rowOn('second')).toBeVisible();
    await page.getByRole('button', { name: 'New silence…' }).click();
    const form = page.getByTestId('silence-form');
    await expect(form.getByLabel('Cluster')).toHaveValue('second');
    await form.getByLabel('Group (empty: every group)').fill(groupId);
    await form.getByLabel('Reason (for the audit)').fill(reason);
    await form.getByRole('button', { name: 'Silence' }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByTestId('silence').filter({ hasText: reason }).getByTestId('silence-cluster')).toHaveText(
      'second',
    );
    expect(await silencesOf()).toEqual([{ cluster: 'second', group_id: groupId }]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'two-clusters-alerts.png'), fullPage: true });

    // The second cluster's alert opens the second cluster's group page.
    await rowOn('second')
      .getByRole('link', { name: summaryOn('second') })
      .click();
    await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}` && url.search === '?cluster=second');
    await expect(page.getByRole('heading', { level: 1 }).getByTestId('group-cluster')).toHaveText('second');
  } finally {
    await db.query('DELETE FROM alert WHERE id = ANY($1)', [Object.values(ids)]);
    await db.query('DELETE FROM alert_silence WHERE reason = $1', [reason]);
    await db.end();
  }
});

// Last in the file: it moves the second cluster's committed offset, which the tests above read as its lag.
test("an offset reset on the second cluster moves that cluster's group only, and the audit log filters by cluster", async ({
  page,
  request,
}) => {
  const secondKafka = createKafka({ brokers: [`127.0.0.1:${SECOND_BROKER.port}`], clientId: 'warden-e2e-reset' });
  const offsetsOn = async (kafka: ReturnType<typeof createKafka>) => {
    const admin = kafka.admin();
    await admin.connect();
    try {
      return Object.fromEntries(await committedOffsets(admin, groupId, topic));
    } finally {
      await admin.disconnect();
    }
  };
  const reason = `${prefix}: replay the second cluster`;
  const answer = await request.post(`/api/groups/${encodeURIComponent(groupId)}/offsets/reset?cluster=second`, {
    headers: bearer(OPERATOR_TOKEN),
    data: { topic, to: 'earliest', reason },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const result = ZOffsetResetResult.parse(await answer.json());
  expect(result.partitions.map((p) => [p.partition, p.offset])).toEqual([[0, '0']]);
  expect(await offsetsOn(secondKafka)).toEqual({ 0: '0' });
  // The same group id on the default cluster keeps its commit.
  expect(await offsetsOn(testKafka('warden-e2e-reset-default'))).toEqual({ 0: String(DEFAULT_LAG.committed) });

  const auditOf = async (query: string) => {
    const response = await request.get(`/api/audit?limit=1000${query}`, { headers: bearer(VIEWER_TOKEN) });
    expect(response.status()).toBe(200);
    return ZAuditResponse.parse(await response.json());
  };
  const resets = (audit: Awaited<ReturnType<typeof auditOf>>) =>
    audit.actions.filter((a) => a.reason === reason).map((a) => [a.cluster, a.action, a.status]);
  expect(resets(await auditOf('&cluster=second'))).toEqual([['second', 'reset', 'done']]);
  expect((await auditOf('&cluster=second')).access).toEqual([]);
  expect(resets(await auditOf('&cluster=default'))).toEqual([]);
  expect(resets(await auditOf(''))).toEqual([['second', 'reset', 'done']]);
  const unknown = await request.get('/api/audit?cluster=third', { headers: bearer(VIEWER_TOKEN) });
  expect(unknown.status()).toBe(404);

  await signIn(page, OPERATOR, '/audit?cluster=second');
  await expect(page.getByTestId('audit-cluster')).toHaveValue('second');
  const row = page.getByRole('row').filter({ hasText: reason });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('cluster second');
  await page.getByTestId('audit-cluster').selectOption('default');
  await expect(page).toHaveURL((url) => url.pathname === '/audit' && url.search === '?cluster=default');
  await expect(row).toHaveCount(0);
});

import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { loadTestConfig } from '../test-support/test-config';
import { uniqueName } from '../test-support/integration';
import { OPERATOR } from '../test-support/credentials';
import { signIn } from './support';

// The overview pages, sorts and filters on the server: 130 one-partition groups seeded straight into
// lag_sample (no worker: nothing else writes them), more than one page of 100. Every view below is scoped to
// the groups' common prefix, so groups other specs left in the database do not change the counts.

const PAGE_SIZE = 100;
const GROUPS = 130;
const prefix = uniqueName('e2e-paging');
const topic = `${prefix}-in`;
const ids = Array.from({ length: GROUPS }, (_, i) => `${prefix}-g${String(i).padStart(3, '0')}`);
/** Lags in an order unlike the ids', so worst first (the default) and by group are different pages. */
const lagOf = (i: number) => (i * 37) % GROUPS;

let db: pg.Client;

test.beforeAll(async () => {
  // Plain SQL: the Prisma client does not load inside Playwright's test runner.
  db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  await db.query(
    `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
       log_end_offset, lag, group_state)
     SELECT now(), g.id, $2, 0, 1000, 0, 1000 + g.lag, g.lag, 'Stable'
     FROM unnest($1::text[], $3::int[]) AS g(id, lag)`,
    [ids, topic, ids.map((_, i) => lagOf(i))],
  );
});

test.afterAll(async () => {
  await db?.query(`DELETE FROM lag_sample WHERE group_id = ANY($1)`, [ids]);
  await db?.end();
});

const rows = (page: Page) => page.getByTestId('group-row');
const shownIds = (page: Page) => rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-group-id')));
const range = (page: Page) => page.getByTestId('groups-page-range');
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pages of consumer groups' });

/** The GET /api/groups requests the page makes from now on. */
function listRequests(page: Page): URL[] {
  const seen: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/groups') seen.push(url);
  });
  return seen;
}

test('the first HTML holds the page of the view in the URL', async ({ page }) => {
  await signIn(page, OPERATOR, `/?q=${prefix}`);
  const html = async () => (await page.request.get(`/?q=${prefix}&sort=group&page=2`)).text();
  const listed = (text: string) =>
    [...text.matchAll(/data-testid="group-row" data-group-id="([^"]+)"/g)].map((m) => m[1]);
  // Polled: a worker another spec stopped a moment ago may still answer from its stored summaries.
  await expect.poll(async () => listed(await html())).toEqual(ids.slice(PAGE_SIZE));
  expect(await html()).toMatch(/data-testid="groups-page-range"[^>]*>101–130 of 130</);
});

test('100 groups a page; Next, a name filter and the sort are asked of the server, and back and forward restore the view', async ({
  page,
}) => {
  const requests = listRequests(page);
  await signIn(page, OPERATOR, `/?q=${prefix}`);

  // The first page: 100 rows of 130, worst first (not in the ids' order: their lags are shuffled).
  await expect(rows(page)).toHaveCount(PAGE_SIZE);
  await expect(range(page)).toHaveText('1–100 of 130');
  await expect(page.getByTestId('groups-shown')).toHaveText(`130 groups match “${prefix}”`);
  await expect(pager(page).getByRole('button', { name: 'Previous' })).toBeDisabled();
  const firstPage = await shownIds(page);
  expect(firstPage).not.toEqual(ids.slice(0, PAGE_SIZE));

  // Next: the other 30, the page in the URL, a request for offset 100.
  await pager(page).getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2' && url.searchParams.get('q') === prefix);
  await expect(rows(page)).toHaveCount(GROUPS - PAGE_SIZE);
  await expect(range(page)).toHaveText('101–130 of 130');
  await expect(pager(page).getByRole('button', { name: 'Next' })).toBeDisabled();
  await expect(pager(page).getByRole('button', { name: 'Previous' })).toBeEnabled();
  expect([...firstPage, ...(await shownIds(page))].sort()).toEqual(ids);
  expect(requests.some((u) => u.searchParams.get('offset') === '100' && u.searchParams.get('limit') === '100')).toBe(
    true,
  );

  // Each page is a history entry: Back is the first page again, Forward the second.
  await page.goBack();
  await expect(page).toHaveURL((url) => !url.searchParams.has('page') && url.searchParams.get('q') === prefix);
  await expect(range(page)).toHaveText('1–100 of 130');
  expect(await shownIds(page)).toEqual(firstPage);
  await page.goForward();
  await expect(page).toHaveURL((url) => url.searchParams.get('page') === '2');
  await expect(range(page)).toHaveText('101–130 of 130');

  // Sorting by Group: ids in order, from page 1 again (a new order starts over).
  const group = page.getByRole('columnheader', { name: /Group/ });
  await group.getByRole('button').click();
  await expect(group).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'group' && !url.searchParams.has('page'));
  await expect(range(page)).toHaveText('1–100 of 130');
  await expect.poll(() => shownIds(page)).toEqual(ids.slice(0, PAGE_SIZE));

  // A narrower name filter, typed key by key: the text stays as typed, and the server filters (q= in the
  // request) once typing pauses, not once per key.
  const filter = page.getByLabel('Filter groups by name');
  const needle = `${prefix}-g12`;
  requests.splice(0);
  await filter.press('End');
  await filter.pressSequentially('-g12', { delay: 30 });
  await expect(filter).toHaveValue(needle);
  await expect(rows(page)).toHaveCount(10);
  // One page: no pager, the count says it.
  await expect(pager(page)).toHaveCount(0);
  await expect(page.getByTestId('groups-shown')).toHaveText(`10 groups match “${needle}”`);
  expect(await shownIds(page)).toEqual(ids.slice(120));
  await expect(page).toHaveURL(
    (url) => url.searchParams.get('q') === needle && url.searchParams.get('sort') === 'group',
  );
  const asked = new Set(requests.map((u) => u.searchParams.get('q')));
  expect(asked).toContain(needle);
  expect(asked.size).toBeLessThan('-g12'.length);

  // Away to a group and back: the view (filter, order, rows) comes back from the URL; forward again.
  await page.getByRole('link', { name: ids[125]!, exact: true }).click();
  await expect(page.getByRole('heading', { name: ids[125] })).toBeVisible();
  await page.goBack();
  await expect(filter).toHaveValue(needle);
  await expect(group).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows(page)).toHaveCount(10);
  expect(await shownIds(page)).toEqual(ids.slice(120));
  await page.goForward();
  await expect(page.getByRole('heading', { name: ids[125] })).toBeVisible();
});

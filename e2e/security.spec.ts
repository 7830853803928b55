import path from 'node:path';
import { expect, test, type APIResponse, type Page } from '@playwright/test';
import { groupPath } from '../components/api-client';
import { loadTestConfig } from '../test-support/test-config';
import pg from 'pg';
import { uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS, signIn } from './support';

// What a security reviewer checks first, on the production server in Chromium: the security headers of
// pages, API answers, redirects and assets; every page under the Content-Security-Policy with no violation
// (React hydrates, recharts draws); a session cookie copied before sign-out is refused after it; "sign out
// everywhere" ends the other browser's session; sign-ins and sign-outs are on the Audit page, filtered by
// kind; an oversize body is refused.

const groupId = uniqueName('e2e-csp');
const topic = `${groupId}-orders`;

test.beforeAll(async () => {
  // Two minutes of samples of a lagging group, so the group page draws its charts (plain SQL: the Prisma
  // client does not load under Playwright's module loader).
  const db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  try {
    const now = Date.now();
    for (let round = 0; round < 25; round++) {
      const back = 24 - round;
      for (let partition = 0; partition < 2; partition++) {
        const logEnd = 100_000 - back * 500;
        const committed = 90_000 - back * 400;
        await db.query(
          `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
             log_end_offset, lag, group_state) VALUES ($1, $2, $3, $4, $5, 0, $6, $7, 'Stable')`,
          [new Date(now - back * 5_000), groupId, topic, partition, committed, logEnd, logEnd - committed],
        );
      }
    }
  } finally {
    await db.end();
  }
});

function expectSecurityHeaders(response: APIResponse, what: string) {
  const headers = response.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'(;|$)/);
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "default-src 'self'"])
    expect(csp, what).toContain(directive);
  expect(csp, what).not.toContain('unsafe-eval');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('same-origin');
  expect(headers['x-powered-by'], what).toBeUndefined();
  expect(headers['strict-transport-security'], what).toBeUndefined();
}

test('pages, API answers and redirects carry the security headers, a fresh nonce each; HSTS only over https', async ({
  page,
  request,
}) => {
  const signInPage = await request.get('/sign-in');
  expectSecurityHeaders(signInPage, '/sign-in');
  expect(await signInPage.text()).toMatch(/<script[^>]+nonce="[^"]{24}"/);
  const again = await request.get('/sign-in');
  expect(again.headers()['content-security-policy']).not.toBe(signInPage.headers()['content-security-policy']);
  expectSecurityHeaders(await request.get('/audit', { maxRedirects: 0 }), 'redirect to sign-in');
  expectSecurityHeaders(await request.get('/api/groups'), '401 API answer');
  expectSecurityHeaders(await request.get('/api/groups', { headers: bearer(VIEWER_TOKEN) }), '200 API answer');
  const icon = (await request.get('/icon.svg')).headers();
  expect([icon['x-content-type-options'], icon['x-frame-options'], icon['x-powered-by']]).toEqual([
    'nosniff',
    'DENY',
    undefined,
  ]);
  const https = await request.get('/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
  expect(https.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(https.headers()['content-security-policy']).toContain('upgrade-insecure-requests');

  await signIn(page, VIEWER, '/');
  const signedIn = await page.request.get('/');
  expectSecurityHeaders(signedIn, '/ signed in');
});

/** Every CSP violation the page reports, from the console and from securitypolicyviolation events. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}`);
    });
  });
  return violations;
}

test('every page works under the policy with no violation: React hydrates and the charts draw', async ({ page }) => {
  const violations = await watchCsp(page);
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in to Warden' })).toBeVisible();
  await signIn(page, OPERATOR, '/');
  await expect(page.getByRole('link', { name: groupId })).toBeVisible();

  await page.goto(groupPath(groupId));
  // The charts mount once their card nears the viewport (components/lag-charts-card.tsx).
  await page.getByTestId('lag-charts').scrollIntoViewIfNeeded();
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await expect(page.locator('.recharts-line-curve').first()).toBeVisible();
  await page.screenshot({ path: path.join(ARTIFACTS, 'group-under-csp.png'), fullPage: true });

  for (const [url, heading] of [
    ['/quarantine', 'Quarantined partitions'],
    ['/rebalances', 'Rebalances'],
    ['/audit', 'Audit log'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  // Client-side rendering runs: the kind filter refetches and redraws.
  await page.getByLabel('Kind of audit entries').selectOption('sign-in');
  await expect(page.getByTestId('access-row').first()).toHaveAttribute('data-kind', 'sign-in');
  // A client-side navigation (next/link) loads its chunks under 'strict-dynamic' too.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Rebalances/ })
    .click();
  await expect(page).toHaveURL(/\/rebalances$/);
  expect(violations).toEqual([]);
});

test('a session cookie copied before sign-out is refused after it; sign out everywhere ends the other browser', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  await signIn(page, OPERATOR, '/audit');
  const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'warden_session');
  const stolen = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: `warden_session=${cookie!.value}` },
  });
  expect((await (await stolen.get('/api/auth/session')).json()).name).toBe(OPERATOR.name);

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  const refused = await stolen.get('/api/auth/session');
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toMatch(/session ended/);
  const pageWithCopy = await stolen.get('/audit', { maxRedirects: 0 });
  expect([pageWithCopy.status(), pageWithCopy.headers()['location']]).toEqual([307, '/sign-in?next=%2Faudit']);
  await stolen.dispose();

  // Two browsers signed in as the viewer; "Sign out everywhere" in one ends the other.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, VIEWER, '/');
  await signIn(page, VIEWER, '/');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect((await otherPage.request.get('/api/auth/session')).status()).toBe(401);
  // Its next poll or reload lands on the sign-in page. A poll that answers 401 navigates to sign-in itself, and
  // a reload racing that navigation is aborted by it (Chromium's words for it depend on when the navigation
  // replaced the page: aborted, a detached frame, or no active page left to reload): then the URL below still
  // has to be the sign-in page.
  await otherPage.reload().catch((error: Error) => {
    if (!/ERR_ABORTED|frame was detached|Not attached to an active page/.test(error.message)) throw error;
  });
  await expect(otherPage).toHaveURL(/\/sign-in(\?next=%2F)?$/);
  await other.close();

  // The Audit page shows it all, filtered by kind, with address and browser, and no secret.
  await signIn(page, OPERATOR, '/audit');
  await page.getByLabel('Kind of audit entries').selectOption('sign-out-all');
  const row = page.getByTestId('access-row').first();
  await expect(row).toHaveAttribute('data-kind', 'sign-out-all');
  await expect(row).toContainText(VIEWER.name);
  // Both browsers' sessions at least (an earlier test may have left another viewer session open).
  const ended = Number(/(\d+) sessions ended/.exec((await row.textContent()) ?? '')?.[1]);
  expect(ended).toBeGreaterThanOrEqual(2);
  await expect(row).toContainText('127.0.0.1');
  await expect(row).toContainText('Mozilla');
  await page.getByLabel('Kind of audit entries').selectOption('access');
  await expect(page.getByTestId('access-row').filter({ hasText: 'signed out' }).first()).toBeVisible();
  const html = await page.content();
  for (const secret of [OPERATOR.password, VIEWER.password, cookie!.value]) expect(html).not.toContain(secret);
});

test('an oversize body is refused with 413 before it is parsed', async ({ request, baseURL }) => {
  const response = await request.post('/api/auth/sign-in', {
    headers: { origin: baseURL!, 'content-type': 'application/json' },
    data: JSON.stringify({ name: 'x', password: 'p'.repeat(40_000) }),
  });
  expect(response.status()).toBe(413);
  expect(await response.json()).toEqual({ error: 'body: must be at most 32768 bytes', field: 'body' });
});

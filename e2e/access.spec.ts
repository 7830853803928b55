import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ZSessionInfo } from '../lib/schemas/auth';
import { bearer, OPERATOR, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS } from './support';

// Signing in and out on the production server: pages send strangers to the sign-in page and back where they
// were going; the session cookie is HttpOnly and SameSite=Lax, out of reach of page scripts; failed sign-ins
// are limited; the API answers 401 without credentials. (Roles on actions: operator-actions.spec.ts.)

test('a page sends a stranger to sign in and back; a wrong password is refused; the session cookie is HttpOnly; signing out ends it', async ({
  page,
  context,
}) => {
  await page.goto('/audit');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Faudit$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Warden' })).toBeVisible();
  // No navigation and no data for strangers: the nav (with its live quarantine count) is not rendered.
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  await page.getByLabel('User name').fill(OPERATOR.name);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('sign-in-error')).toHaveText('wrong user name or password');
  await expect(page.getByLabel('Password')).toHaveValue('');
  await page.screenshot({ path: path.join(ARTIFACTS, 'sign-in.png'), fullPage: true });

  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByTestId('user-menu')).toContainText(`${OPERATOR.name} operator`);

  const [cookie] = (await context.cookies()).filter((c) => c.name === 'warden_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 3_600);
  expect(await page.evaluate(() => document.cookie)).not.toContain('warden_session');
  // Nothing secret reaches the page: no password, no cookie value, no configured token.
  const html = await page.content();
  for (const secret of [OPERATOR.password, VIEWER.password, cookie!.value, VIEWER_TOKEN])
    expect(html).not.toContain(secret);
  const me = ZSessionInfo.parse(await (await page.request.get('/api/auth/session')).json());
  expect(me).toEqual({ name: OPERATOR.name, role: 'operator', via: 'session' });

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect((await context.cookies()).filter((c) => c.name === 'warden_session')).toEqual([]);
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);
  expect((await page.request.get('/api/groups')).status()).toBe(401);
});

test('the API: 401 without credentials, bearer tokens for clients, sign-in refuses other origins, never redirects elsewhere, and limits failures', async ({
  request,
  baseURL,
}) => {
  for (const url of ['/api/groups', '/api/quarantine', '/api/audit', '/api/rebalances', '/api/auth/session']) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(401);
    expect(await response.json()).toEqual({ error: 'sign in first (or send a bearer token)', field: null });
  }
  expect(
    ZSessionInfo.parse(await (await request.get('/api/auth/session', { headers: bearer(VIEWER_TOKEN) })).json()),
  ).toEqual({
    name: 'token:e2e-ci',
    role: 'viewer',
    via: 'token',
  });

  const signIn = (name: string, password: string, origin = baseURL!, next?: string) =>
    request.post('/api/auth/sign-in', { data: { name, password, ...(next ? { next } : {}) }, headers: { origin } });
  expect((await signIn(VIEWER.name, VIEWER.password, 'https://evil.example')).status()).toBe(403);
  const missing = await request.post('/api/auth/sign-in', {
    data: { name: VIEWER.name },
    headers: { origin: baseURL! },
  });
  expect([missing.status(), (await missing.json()).error]).toEqual([400, 'password: is required']);
  const offsite = await signIn(VIEWER.name, VIEWER.password, baseURL!, 'https://evil.example/phish');
  expect(ZSessionInfo.parse(await offsite.json())).toEqual({
    name: VIEWER.name,
    role: 'viewer',
    via: 'session',
    next: '/',
  });

  // 5 failures per user name and address in 15 minutes; the 6th attempt is refused unchecked. A made-up name,
  // so no real user of the suite is locked out.
  for (let i = 0; i < 5; i++) expect((await signIn('e2e-locked-out', `wrong-${i}`)).status()).toBe(401);
  const locked = await signIn('e2e-locked-out', 'wrong-6');
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()['retry-after'])).toBeGreaterThan(800);
  expect((await locked.json()).error).toBe('too many failed sign-ins for e2e-locked-out: try again in 15 min');
});

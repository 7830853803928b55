import { describe, expect, it } from 'vitest';
import { checkOrigin, cookieIsSecure, decideAccess, safeNextPath, type AuthSettings } from './access';
import { parseTokens, parseUsers } from '../../auth/credentials';
import { proxyDecision } from './proxy-decision';
import { newSessionToken, type SessionPrincipal } from './session-token';

const now = new Date('2026-11-29T12:00:00Z');
const parsedUsers = parseUsers('olga:operator:olga-password-1,vic:viewer:vic-password-12');
const parsedTokens = parseTokens(`ci:viewer:${'c'.repeat(40)},bot:operator:${'b'.repeat(40)}`);
if (!parsedUsers.ok || !parsedTokens.ok) throw new Error('fixture');
const settings: AuthSettings = {
  users: parsedUsers.value,
  tokens: parsedTokens.value,
  sessionSecret: 's'.repeat(32),
  sessionMaxAgeSec: 3600,
  sessionIdleSec: 600,
  cookieSecure: 'auto',
  allowedOrigins: ['https://warden.example.com'],
};
// Stored sessions stand in as a map; the real store (Postgres) has its own integration test.
const stored = new Map<string, SessionPrincipal>();
const sessions = { find: async (token: string | undefined) => (token ? (stored.get(token) ?? null) : null) };
const sessionOf = (name: string) => {
  const user = settings.users.find((u) => u.name === name)!;
  const token = newSessionToken();
  stored.set(token, { name, role: user.role, via: 'session', expiresAt: new Date(now.getTime() + 3_600_000) });
  return token;
};
const request = (over: Partial<Parameters<typeof decideAccess>[2]> = {}) => ({
  method: 'GET',
  origin: null,
  host: '127.0.0.1:3000',
  authorization: null,
  sessionCookie: undefined,
  ...over,
});

describe('decideAccess', () => {
  it('401 without credentials, with a stale cookie or a bad token', async () => {
    expect(await decideAccess(settings, sessions, request(), 'viewer', now)).toEqual({
      ok: false,
      status: 401,
      message: 'sign in first (or send a bearer token)',
      who: null,
    });
    expect(
      await decideAccess(settings, sessions, request({ sessionCookie: 's1.not-a-session' }), 'viewer', now),
    ).toMatchObject({
      status: 401,
      message: /session ended/,
    });
    expect(
      await decideAccess(settings, sessions, request({ authorization: 'Bearer nope' }), 'viewer', now),
    ).toMatchObject({
      status: 401,
      message: 'the bearer token is not valid',
    });
    expect(
      await decideAccess(settings, sessions, request({ authorization: 'Basic abc' }), 'viewer', now),
    ).toMatchObject({
      status: 401,
    });
    // A bad token is refused even next to a valid cookie.
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ authorization: 'Bearer nope', sessionCookie: sessionOf('olga') }),
        'viewer',
        now,
      ),
    ).toMatchObject({ status: 401 });
  });

  it('reads need viewer, actions need operator (403 otherwise)', async () => {
    expect(await decideAccess(settings, sessions, request({ sessionCookie: sessionOf('vic') }), 'viewer', now)).toEqual(
      {
        ok: true,
        principal: { name: 'vic', role: 'viewer', via: 'session' },
      },
    );
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', origin: 'http://127.0.0.1:3000', sessionCookie: sessionOf('vic') }),
        'operator',
        now,
      ),
    ).toEqual({
      ok: false,
      status: 403,
      message: 'vic is a viewer: this needs the operator role',
      // Known, so the refused attempt can be audited under this name.
      who: 'vic',
    });
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', origin: 'http://127.0.0.1:3000', sessionCookie: sessionOf('olga') }),
        'operator',
        now,
      ),
    ).toMatchObject({
      ok: true,
      principal: { name: 'olga', role: 'operator' },
    });
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', authorization: `Bearer ${'b'.repeat(40)}` }),
        'operator',
        now,
      ),
    ).toMatchObject({
      ok: true,
      principal: { name: 'token:bot', role: 'operator', via: 'token' },
    });
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', authorization: `bearer ${'c'.repeat(40)}` }),
        'operator',
        now,
      ),
    ).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses a cross-origin or Origin-less POST riding on a valid cookie with 403; without credentials it is 401', async () => {
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', origin: 'https://evil.example', sessionCookie: sessionOf('olga') }),
        'operator',
        now,
      ),
    ).toMatchObject({
      ok: false,
      status: 403,
      message: /cross-origin POST refused: Origin https:\/\/evil.example/,
      who: 'olga',
    });
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', sessionCookie: sessionOf('olga') }),
        'operator',
        now,
      ),
    ).toMatchObject({ status: 403, message: /without an Origin header/ });
    expect(
      await decideAccess(
        settings,
        sessions,
        request({ method: 'POST', origin: 'https://evil.example' }),
        'operator',
        now,
      ),
    ).toMatchObject({ status: 401 });
  });
});

describe('checkOrigin', () => {
  const base = {
    method: 'POST',
    host: '127.0.0.1:3000',
    allowedOrigins: ['https://warden.example.com'],
    hasBearer: false,
  };
  it('passes safe methods, our own host and the allowed origins', async () => {
    expect(checkOrigin({ ...base, method: 'GET', origin: 'https://evil.example' })).toBeNull();
    expect(checkOrigin({ ...base, origin: 'http://127.0.0.1:3000' })).toBeNull();
    expect(checkOrigin({ ...base, origin: 'https://warden.example.com' })).toBeNull();
  });
  it('refuses other hosts, other ports, "null", and a missing Origin unless a bearer token is used', async () => {
    expect(checkOrigin({ ...base, origin: 'http://127.0.0.1:3001' })).toMatch(/cross-origin/);
    expect(checkOrigin({ ...base, origin: 'http://127.0.0.1:3000.evil.example' })).toMatch(/cross-origin/);
    expect(checkOrigin({ ...base, origin: 'null' })).toMatch(/cross-origin/);
    expect(checkOrigin({ ...base, origin: null })).toMatch(/without an Origin header/);
    expect(checkOrigin({ ...base, origin: null, hasBearer: true })).toBeNull();
    expect(checkOrigin({ ...base, method: 'DELETE', origin: 'https://evil.example' })).toMatch(/cross-origin DELETE/);
  });
});

describe('safeNextPath and cookieIsSecure', () => {
  it('keeps only paths on this site', async () => {
    expect(safeNextPath('/quarantine?x=1')).toBe('/quarantine?x=1');
    for (const bad of [
      null,
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      'quarantine',
      '/sign-in?next=/',
      '/api/groups',
      '/\u0000x',
    ]) {
      expect(safeNextPath(bad)).toBe('/');
    }
  });
  it('is Secure over https, per X-Forwarded-Proto, or when forced', async () => {
    expect(cookieIsSecure({ cookieSecure: 'auto' }, { url: 'http://127.0.0.1:3000/', forwardedProto: null })).toBe(
      false,
    );
    expect(cookieIsSecure({ cookieSecure: 'auto' }, { url: 'http://127.0.0.1:3000/', forwardedProto: 'https' })).toBe(
      true,
    );
    expect(cookieIsSecure({ cookieSecure: 'auto' }, { url: 'https://x/', forwardedProto: null })).toBe(true);
    expect(cookieIsSecure({ cookieSecure: 'true' }, { url: 'http://x/', forwardedProto: 'http' })).toBe(true);
    expect(cookieIsSecure({ cookieSecure: 'false' }, { url: 'https://x/', forwardedProto: null })).toBe(false);
  });
});

describe('proxyDecision', () => {
  const page = (pathname: string, over: Partial<Parameters<typeof proxyDecision>[2]> = {}) => ({
    ...request(),
    pathname,
    search: '',
    ...over,
  });
  it('redirects pages without a session to the sign-in page, remembering where to go', async () => {
    expect(await proxyDecision(settings, sessions, page('/quarantine', { search: '?g=1' }), now)).toEqual({
      kind: 'redirect',
      location: '/sign-in?next=%2Fquarantine%3Fg%3D1',
    });
    expect(await proxyDecision(settings, sessions, page('/'), now)).toEqual({ kind: 'redirect', location: '/sign-in' });
    // A bearer token does not open pages.
    expect(
      await proxyDecision(settings, sessions, page('/audit', { authorization: `Bearer ${'c'.repeat(40)}` }), now),
    ).toMatchObject({
      kind: 'redirect',
    });
    expect(await proxyDecision(settings, sessions, page('/audit', { sessionCookie: sessionOf('vic') }), now)).toEqual({
      kind: 'pass',
    });
    expect(await proxyDecision(settings, sessions, page('/sign-in'), now)).toEqual({ kind: 'pass' });
  });
  it('refuses a path whose percent-escapes do not decode with 400 naming the path, before any other check', async () => {
    for (const pathname of ['/api/groups/%zz', '/api/groups/%E0%A4%A/lag', '/api/auth/sign-in%', '/groups/a%zz']) {
      expect(await proxyDecision(settings, sessions, page(pathname, { sessionCookie: sessionOf('vic') }), now)).toEqual(
        {
          kind: 'refuse',
          status: 400,
          message: 'path: has a percent-escape that does not decode',
          field: 'path',
        },
      );
    }
    expect(
      await proxyDecision(settings, sessions, page('/api/groups/a%2Fb', { sessionCookie: sessionOf('vic') }), now),
    ).toEqual({
      kind: 'pass',
    });
  });
  it('answers the API with 401/403 and lets sign-in and sign-out through to their own checks', async () => {
    expect(await proxyDecision(settings, sessions, page('/api/groups'), now)).toMatchObject({
      kind: 'refuse',
      status: 401,
    });
    expect(
      await proxyDecision(settings, sessions, page('/api/groups', { authorization: `Bearer ${'c'.repeat(40)}` }), now),
    ).toEqual({
      kind: 'pass',
    });
    expect(
      await proxyDecision(
        settings,
        sessions,
        page('/api/groups/g/offsets/reset', {
          method: 'POST',
          origin: 'https://evil.example',
          sessionCookie: sessionOf('olga'),
        }),
        now,
      ),
    ).toMatchObject({
      kind: 'refuse',
      status: 403,
    });
    expect(await proxyDecision(settings, sessions, page('/api/auth/sign-in', { method: 'POST' }), now)).toEqual({
      kind: 'pass',
    });
    expect(await proxyDecision(settings, sessions, page('/api/auth/sign-out', { method: 'POST' }), now)).toEqual({
      kind: 'pass',
    });
  });
  it('refuses a known API path called with a method it does not answer with 405 and the methods it does, after access', async () => {
    const signedIn = { sessionCookie: sessionOf('olga'), origin: 'http://127.0.0.1:3000' };
    expect(
      await proxyDecision(settings, sessions, page('/api/groups', { ...signedIn, method: 'DELETE' }), now),
    ).toEqual({
      kind: 'refuse',
      status: 405,
      message: 'method: DELETE is not allowed on /api/groups; it answers GET, HEAD, OPTIONS',
      field: 'method',
      allow: ['GET', 'HEAD', 'OPTIONS'],
    });
    expect(
      await proxyDecision(
        settings,
        sessions,
        page('/api/groups/a%2Fb/offsets/reset', { ...signedIn, method: 'GET' }),
        now,
      ),
    ).toMatchObject({ status: 405, allow: ['POST', 'OPTIONS'] });
    // An open route too, without credentials; its own method still passes to its handler.
    expect(await proxyDecision(settings, sessions, page('/api/auth/sign-in'), now)).toMatchObject({
      status: 405,
      allow: ['POST', 'OPTIONS'],
    });
    // Access first: a stranger learns 401, not which methods a path answers.
    expect(await proxyDecision(settings, sessions, page('/api/groups', { method: 'DELETE' }), now)).toMatchObject({
      status: 401,
    });
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      expect(await proxyDecision(settings, sessions, page('/api/groups', { ...signedIn, method }), now)).toEqual({
        kind: 'pass',
      });
    }
    // An unknown path passes on to the route that answers 404 for it, whatever the method.
    expect(
      await proxyDecision(settings, sessions, page('/api/groups/g/nothing', { ...signedIn, method: 'DELETE' }), now),
    ).toEqual({ kind: 'pass' });
  });
});

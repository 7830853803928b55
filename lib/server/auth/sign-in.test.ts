import { describe, expect, it, vi } from 'vitest';
import type { AuthSettings } from './access';
import type { AccessEventInput, AccessLog } from './access-log';
import { parseUsers, type UserCredential } from '../../auth/credentials';
import { signIn, type SessionCreator } from './sign-in';
import { signOut, signOutEverywhere, type SessionEnder } from './sign-out';
import { SignInLimiter } from './sign-in-limiter';
import { refusal } from '../../../test-support/refusal';

const parsed = parseUsers('olga:operator:olga-password-1');
if (!parsed.ok) throw new Error('fixture');
const settings: AuthSettings = {
  users: parsed.value,
  tokens: [],
  sessionSecret: 's'.repeat(32),
  sessionMaxAgeSec: 600,
  sessionIdleSec: 300,
  cookieSecure: 'auto',
  allowedOrigins: [],
};
const now = new Date('2026-11-29T12:00:00Z');
const client = (address: string) => ({ address, userAgent: 'test-agent/1.0' });

/** Sessions and the access log in memory: enough to see what signIn and signOut ask of them. */
function fakes() {
  const events: AccessEventInput[] = [];
  const sessions = new Map<string, string>();
  const log: AccessLog = { record: async (event) => void events.push(event) };
  const store: SessionCreator & SessionEnder = {
    create: async (user: UserCredential) => {
      const token = `token-${sessions.size + 1}`;
      sessions.set(token, user.name);
      return token;
    },
    end: async (token) => {
      const name = token ? (sessions.get(token) ?? null) : null;
      if (token) sessions.delete(token);
      return name;
    },
    endAllOf: async (name) => {
      const mine = [...sessions].filter(([, n]) => n === name);
      for (const [token] of mine) sessions.delete(token);
      return mine.length;
    },
  };
  return { events, sessions, log, store };
}

describe('signIn', () => {
  it('stores a session for the right password, with a safe next path, and logs the sign-in', async () => {
    const { events, sessions, log, store } = fakes();
    const { session, token } = await signIn(
      settings,
      new SignInLimiter(),
      store,
      log,
      { name: 'olga', password: 'olga-password-1', next: '//evil.example' },
      client('10.0.0.1'),
      now,
    );
    expect(session).toEqual({ name: 'olga', role: 'operator', via: 'session', next: '/' });
    expect(sessions.get(token)).toBe('olga');
    expect(events).toEqual([{ kind: 'sign-in', userName: 'olga', client: client('10.0.0.1'), detail: 'operator' }]);
  });

  it('says only "wrong user name or password", then 429 after 5 failures, each logged, never with the password', async () => {
    const { events, sessions, log, store } = fakes();
    const limiter = new SignInLimiter();
    const attempt = (name: string, password: string, address = '10.0.0.1') =>
      signIn(settings, limiter, store, log, { name, password }, client(address), now);
    for (const name of ['olga', 'nobody']) {
      const error = await refusal(attempt(name, 'wrong-password-1'));
      expect([error.status, error.message]).toEqual([401, 'wrong user name or password']);
    }
    for (let i = 0; i < 4; i++) await refusal(attempt('olga', 'wrong-password-2'));
    const locked = await refusal(attempt('olga', 'olga-password-1'));
    expect(locked.status).toBe(429);
    expect(locked.message).toBe('too many failed sign-ins for olga: try again in 15 min');
    expect(locked.headers['retry-after']).toBe('900');
    expect(sessions.size).toBe(0);
    // Another address is still let in.
    expect((await attempt('olga', 'olga-password-1', '10.0.0.2')).session.name).toBe('olga');
    expect(events.map((e) => `${e.kind} ${e.userName} ${e.client.address}`)).toEqual([
      'sign-in-failed olga 10.0.0.1',
      'sign-in-failed nobody 10.0.0.1',
      ...Array.from({ length: 4 }, () => 'sign-in-failed olga 10.0.0.1'),
      'sign-in-rate-limited olga 10.0.0.1',
      'sign-in olga 10.0.0.2',
    ]);
    const logged = JSON.stringify(events);
    for (const secret of ['wrong-password', 'olga-password-1', 'token-1']) expect(logged).not.toContain(secret);
  });

  it('writes nothing to the console about a sign-in, so no password reaches the server log', async () => {
    const { log, store } = fakes();
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    try {
      const limiter = new SignInLimiter();
      const attempt = (password: string) =>
        signIn(settings, limiter, store, log, { name: 'olga', password }, client('10.0.0.9'), now);
      await refusal(attempt('a-wrong-password-7'));
      await attempt('olga-password-1');
      const written = spies.flatMap((spy) => spy.mock.calls).map((args) => JSON.stringify(args));
      expect(written.filter((line) => /password|token-/.test(line))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('signOut and signOutEverywhere', () => {
  it('ends the session of the cookie and logs it; a cookie that is no session logs nothing', async () => {
    const { events, sessions, log, store } = fakes();
    const first = await store.create(settings.users[0]!, client('a'), now);
    await store.create(settings.users[0]!, client('b'), now);
    expect(await signOut(store, log, first, client('a'), now)).toEqual({ signedOut: true });
    expect(sessions.has(first)).toBe(false);
    expect(await signOut(store, log, first, client('a'), now)).toEqual({ signedOut: false });
    expect(await signOut(store, log, undefined, client('a'), now)).toEqual({ signedOut: false });
    expect(events).toEqual([{ kind: 'sign-out', userName: 'olga', client: client('a') }]);
    expect(sessions.size).toBe(1);
  });

  it('ends every session of the user; a bearer token has none to end', async () => {
    const { events, sessions, log, store } = fakes();
    for (const address of ['a', 'b', 'c']) await store.create(settings.users[0]!, client(address), now);
    const olga = { name: 'olga', role: 'operator', via: 'session' } as const;
    expect(await signOutEverywhere(store, log, olga, client('a'), now)).toEqual({ sessionsEnded: 3 });
    expect(sessions.size).toBe(0);
    expect(events).toEqual([
      { kind: 'sign-out-all', userName: 'olga', client: client('a'), detail: '3 sessions ended' },
    ]);
    const refused = await refusal(signOutEverywhere(store, log, { ...olga, via: 'token' }, client('a'), now));
    expect(refused.status).toBe(400);
  });
});

import { describe, expect, it } from 'vitest';
import { parseUsers, type UserCredential } from '../../auth/credentials';
import {
  clearedSessionCookieHeader,
  cookieValue,
  checkStoredSession,
  credentialStamp,
  newSessionToken,
  sessionCookieHeader,
  sessionIdHash,
  type StoredSession,
} from './session-token';

const KEY = 'k'.repeat(32);
const list = (value: string): UserCredential[] => {
  const parsed = parseUsers(value);
  if (!parsed.ok) throw new Error(parsed.problems.join());
  return parsed.value;
};
const users = list('alice:operator:alice-password-1,bob:viewer:bob-password-12');
const alice = users[0]!;
const now = new Date('2026-11-29T12:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);

describe('session tokens', () => {
  it('are 256 random bits, never repeated, and hash to a 64-hex key; anything else is no token', () => {
    const tokens = new Set(Array.from({ length: 100 }, newSessionToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) {
      expect(token).toMatch(/^s1\.[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token.slice(3), 'base64url')).toHaveLength(32);
      expect(sessionIdHash(token)).toMatch(/^[0-9a-f]{64}$/);
      expect(sessionIdHash(token)).not.toContain(token.slice(3));
    }
    const token = newSessionToken();
    for (const junk of [undefined, '', 's1', 's1.', `${token}x`, `s2.${token.slice(3)}`, 'v1.a.b', 'a'.repeat(5000)])
      expect(sessionIdHash(junk)).toBeNull();
  });
});

describe('checkStoredSession', () => {
  const settings = { sessionSecret: KEY, users, sessionIdleSec: 600 };
  const stored = (over: Partial<StoredSession> = {}): StoredSession => ({
    userName: 'alice',
    role: 'operator',
    credentialStamp: credentialStamp(KEY, alice),
    lastSeenAt: now,
    expiresAt: later(3600),
    idleExpiresAt: later(600),
    ...over,
  });

  it('holds until the absolute or the idle expiry, whichever comes first', () => {
    expect(checkStoredSession(stored(), settings, later(599))).toMatchObject({
      ok: true,
      principal: { name: 'alice', role: 'operator', via: 'session', expiresAt: later(3600) },
    });
    expect(checkStoredSession(stored(), settings, later(600))).toEqual({ ok: false, reason: 'idle' });
    expect(checkStoredSession(stored({ idleExpiresAt: later(9999) }), settings, later(3600))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('writes last-seen at most once a minute, moving the idle expiry with it', () => {
    expect(checkStoredSession(stored(), settings, later(59))).toMatchObject({ ok: true, touch: null });
    expect(checkStoredSession(stored(), settings, later(60))).toMatchObject({
      ok: true,
      touch: { lastSeenAt: later(60), idleExpiresAt: later(660) },
    });
  });

  it('ends when the user is removed or their password or role changes, or under another secret', () => {
    const changed = (value: string) => ({ ...settings, users: list(value) });
    for (const config of [
      changed('bob:viewer:bob-password-12'),
      changed('alice:operator:another-password'),
      changed('alice:viewer:alice-password-1'),
      { ...settings, sessionSecret: 'x'.repeat(32) },
    ])
      expect(checkStoredSession(stored(), config, now)).toEqual({ ok: false, reason: 'credentials changed' });
    expect(checkStoredSession(stored({ role: 'viewer' }), settings, now)).toMatchObject({ ok: false });
  });
});

describe('cookies', () => {
  it('sets an HttpOnly SameSite=Lax cookie, Secure when asked, and deletes it', () => {
    expect(sessionCookieHeader('v1.a.b', { maxAgeSec: 60, secure: false })).toBe(
      'warden_session=v1.a.b; Path=/; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(sessionCookieHeader('v1.a.b', { maxAgeSec: 60, secure: true })).toMatch(/; Secure$/);
    expect(clearedSessionCookieHeader({ secure: false })).toBe(
      'warden_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(cookieValue('a=1; warden_session=v1.x.y; b=2', 'warden_session')).toBe('v1.x.y');
    expect(cookieValue('xwarden_session=1', 'warden_session')).toBeUndefined();
    expect(cookieValue(null, 'warden_session')).toBeUndefined();
  });
});

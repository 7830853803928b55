import { describe, expect, it } from 'vitest';
import { parseUsers, type UserCredential } from '../../auth/credentials';
import {
  clearedSessionCookieHeader,
  cookieValue,
  issueSessionToken,
  sessionCookieHeader,
  verifySessionToken,
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
  it('round-trips a signed session until it expires, with the role from the configuration', () => {
    const token = issueSessionToken(KEY, alice, now, 3600);
    expect(verifySessionToken(KEY, users, token, later(3599))).toEqual({
      name: 'alice',
      role: 'operator',
      via: 'session',
      expiresAt: later(3600),
    });
    expect(verifySessionToken(KEY, users, token, later(3600))).toBeNull();
  });

  it('refuses forged, altered, foreign-key and garbage tokens', () => {
    const token = issueSessionToken(KEY, alice, now, 3600);
    const [v, payload, sig] = token.split('.') as [string, string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ u: 'alice', iat: now.getTime() / 1000, exp: now.getTime() / 1000 + 99_999 }),
    ).toString('base64url');
    expect(verifySessionToken(KEY, users, `${v}.${forgedPayload}.${sig}`, now)).toBeNull();
    expect(verifySessionToken(KEY, users, `${v}.${payload}.${sig.slice(0, -2)}AA`, now)).toBeNull();
    expect(verifySessionToken('x'.repeat(32), users, token, now)).toBeNull();
    for (const junk of [undefined, '', 'v1', 'v1..', 'v2.a.b', `v1.${payload}`, 'v1.!!!.???', 'a'.repeat(5000)]) {
      expect(verifySessionToken(KEY, users, junk, now)).toBeNull();
    }
  });

  it('ends when the user is removed or their password or role changes', () => {
    const token = issueSessionToken(KEY, alice, now, 3600);
    expect(verifySessionToken(KEY, list('bob:viewer:bob-password-12'), token, now)).toBeNull();
    expect(verifySessionToken(KEY, list('alice:operator:another-password'), token, now)).toBeNull();
    expect(verifySessionToken(KEY, list('alice:viewer:alice-password-1'), token, now)).toBeNull();
  });

  it('refuses a token issued in the future', () => {
    const token = issueSessionToken(KEY, alice, later(600), 3600);
    expect(verifySessionToken(KEY, users, token, now)).toBeNull();
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

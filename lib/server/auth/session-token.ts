import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Role, UserCredential } from '../../auth/credentials';

// The session cookie and the rules for a stored session, pure apart from the token's randomness.
// - The cookie is `s1.<43 base64url characters>`: 256 random bits, opaque, carrying no name or expiry.
// - The server keeps the session in Postgres (dashboard_session, lib/server/auth/session-store.ts) under the
//   SHA-256 of the cookie value, so reading the table yields no usable cookie. Deleting the row (sign-out)
//   refuses every copy of the cookie at once.
// - The row keeps an HMAC (under WARDEN_SESSION_SECRET) of the user's configured entry at sign-in, and the
//   entry is looked up in the current configuration on every request: removing a user or changing their
//   password or role ends their sessions at once, as the stateless cookie did before.
// - A session ends at its absolute expiry (sign-in + WARDEN_SESSION_MAX_AGE_SEC, never extended) or when it
//   was not used for WARDEN_SESSION_IDLE_SEC. Last-seen is written at most once per LAST_SEEN_WRITE_INTERVAL_MS
//   per session, so the idle end is exact to that interval (it can come that much early, never late).

export const SESSION_COOKIE = 'warden_session';
const TOKEN_PATTERN = /^s1\.[A-Za-z0-9_-]{43}$/;

/** Last-seen (and so the idle expiry) moves at most this often per session: no write on every request. */
export const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

export interface SessionPrincipal {
  name: string;
  role: Role;
  via: 'session';
  expiresAt: Date;
}

/** A fresh cookie value. */
export function newSessionToken(): string {
  return `s1.${randomBytes(32).toString('base64url')}`;
}

/** The stored key of a cookie value (hex SHA-256), or null when the value cannot be one of ours. */
export function sessionIdHash(token: string | undefined): string | null {
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  return createHash('sha256').update(token).digest('hex');
}

/** Binds a session to the user's configured entry; a changed entry yields another stamp. */
export function credentialStamp(key: string, user: UserCredential): string {
  return createHmac('sha256', key).update('warden-session-credential.').update(user.fingerprint.reveal()).digest('hex');
}

/** What a stored session row holds that the rules read. */
export interface StoredSession {
  userName: string;
  role: string;
  credentialStamp: string;
  lastSeenAt: Date;
  expiresAt: Date;
  idleExpiresAt: Date;
}

export type SessionCheck =
  | { ok: true; principal: SessionPrincipal; touch: { lastSeenAt: Date; idleExpiresAt: Date } | null }
  | { ok: false; reason: 'expired' | 'idle' | 'credentials changed' };

/**
 * Whether a stored session still holds at `now`, and when it does whether to write last-seen (`touch`, at most
 * once per LAST_SEEN_WRITE_INTERVAL_MS). Refused sessions are deleted by the caller.
 */
export function checkStoredSession(
  session: StoredSession,
  settings: { sessionSecret: string; users: readonly UserCredential[]; sessionIdleSec: number },
  now: Date,
): SessionCheck {
  if (session.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (session.idleExpiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'idle' };
  const user = settings.users.find((u) => u.name === session.userName);
  if (!user || user.role !== session.role || credentialStamp(settings.sessionSecret, user) !== session.credentialStamp)
    return { ok: false, reason: 'credentials changed' };
  const due = now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_WRITE_INTERVAL_MS;
  return {
    ok: true,
    principal: { name: user.name, role: user.role, via: 'session', expiresAt: session.expiresAt },
    touch: due ? { lastSeenAt: now, idleExpiresAt: idleExpiry(now, settings.sessionIdleSec) } : null,
  };
}

export function idleExpiry(lastSeen: Date, idleSec: number): Date {
  return new Date(lastSeen.getTime() + idleSec * 1000);
}

export interface CookieOptions {
  maxAgeSec: number;
  secure: boolean;
}

/** Set-Cookie for a session: HttpOnly (no script reads it), SameSite=Lax, path /, and Secure over https. */
export function sessionCookieHeader(token: string, options: CookieOptions): string {
  return [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${options.maxAgeSec}`,
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie that deletes the session cookie. */
export function clearedSessionCookieHeader(options: { secure: boolean }): string {
  return [
    `${SESSION_COOKIE}=`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    'Max-Age=0',
    ...(options.secure ? ['Secure'] : []),
  ].join('; ');
}

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

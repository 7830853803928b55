import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Role, UserCredential } from '../../auth/credentials';

// The session cookie: `v1.<payload>.<signature>`, payload = base64url JSON { u: name, iat, exp } (seconds),
// signature = HMAC-SHA256 under WARDEN_SESSION_SECRET over "v1.<payload>." plus the user's credential
// fingerprint. Stateless: nothing is stored server-side. The role is not in the cookie; it is looked up in the
// current configuration on every request, so a removed user, a changed password or a changed role ends the
// session at once. A cookie is valid until `exp` (absolute, not sliding); signing out deletes it from the
// browser, but a copy taken before stays valid until it expires (there is no server-side revocation list).

export const SESSION_COOKIE = 'warden_session';
const VERSION = 'v1';

export interface SessionPrincipal {
  name: string;
  role: Role;
  via: 'session';
  expiresAt: Date;
}

function signature(key: string, payload: string, user: UserCredential): Buffer {
  return createHmac('sha256', key).update(`${VERSION}.${payload}.`).update(user.fingerprint.reveal()).digest();
}

export function issueSessionToken(key: string, user: UserCredential, now: Date, maxAgeSec: number): string {
  const iat = Math.floor(now.getTime() / 1000);
  const payload = Buffer.from(JSON.stringify({ u: user.name, iat, exp: iat + maxAgeSec })).toString('base64url');
  return `${VERSION}.${payload}.${signature(key, payload, user).toString('base64url')}`;
}

/** The signed-in user of a cookie value, or null when it is missing, malformed, forged, stale or expired. */
export function verifySessionToken(
  key: string,
  users: readonly UserCredential[],
  token: string | undefined,
  now: Date,
): SessionPrincipal | null {
  if (!token || token.length > 1024) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, payload, presented] = parts as [string, string, string];
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { u, iat, exp } = claims as { u?: unknown; iat?: unknown; exp?: unknown };
  if (typeof u !== 'string' || typeof iat !== 'number' || typeof exp !== 'number') return null;
  const user = users.find((candidate) => candidate.name === u);
  if (!user) return null;
  const expected = signature(key, payload, user);
  const given = Buffer.from(presented, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const nowSec = now.getTime() / 1000;
  // A cookie issued in the future (beyond a minute of clock skew) is refused too.
  if (exp <= nowSec || iat > nowSec + 60) return null;
  return { name: user.name, role: user.role, via: 'session', expiresAt: new Date(exp * 1000) };
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

import { roleAllows, verifyToken, type Role, type TokenCredential, type UserCredential } from '../../auth/credentials';
import { arrivedOverHttps } from '../security-headers';
import type { SessionPrincipal } from './session-token';

// Access decisions, pure apart from the session lookup they are given: who is asking (session cookie or bearer
// token), may they (role), and does an unsafe request come from our own pages (Origin).
// lib/server/auth/request-auth.ts applies them to a Request with the Postgres session store.

export interface AuthSettings {
  users: readonly UserCredential[];
  tokens: readonly TokenCredential[];
  sessionSecret: string;
  /** Absolute session length from sign-in. */
  sessionMaxAgeSec: number;
  /** A session not used for this long ends. */
  sessionIdleSec: number;
  /** 'auto': Secure when the request arrived over https (directly or per X-Forwarded-Proto). */
  cookieSecure: 'auto' | 'true' | 'false';
  /** Origins accepted on POSTs besides the request's own host (a reverse proxy's public origin). */
  allowedOrigins: readonly string[];
}

export interface Principal {
  /** Shown in the UI and recorded in the audit log; tokens as `token:<name>`. */
  name: string;
  role: Role;
  via: 'session' | 'token';
}

/** Finds the signed-in user of a session cookie value (Postgres in the dashboard: session-store.ts). */
export interface SessionLookup {
  find(token: string | undefined, now: Date): Promise<SessionPrincipal | null>;
}

/** A refusal names `who` was refused when the caller is known (a 403), so the attempt can be audited. */
export type AccessDecision =
  { ok: true; principal: Principal } | { ok: false; status: 401 | 403; message: string; who: string | null };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isUnsafeMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * Who the request is from. A bearer token, when present, decides alone (an invalid one is refused even if a
 * session cookie is present too); otherwise the session cookie.
 */
export async function authenticate(
  settings: AuthSettings,
  sessions: SessionLookup,
  credentials: { authorization: string | null; sessionCookie: string | undefined },
  now: Date,
): Promise<{ principal: Principal } | { problem: string }> {
  if (credentials.authorization !== null) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(credentials.authorization);
    if (!match) return { problem: 'Authorization must be "Bearer <token>"' };
    const token = verifyToken(settings.tokens, match[1]!);
    if (!token) return { problem: 'the bearer token is not valid' };
    return { principal: { name: `token:${token.name}`, role: token.role, via: 'token' } };
  }
  const session = credentials.sessionCookie ? await sessions.find(credentials.sessionCookie, now) : null;
  if (!session) {
    return {
      problem: credentials.sessionCookie
        ? 'your session ended (signed out, expired, idle or credentials changed): sign in again'
        : 'sign in first (or send a bearer token)',
    };
  }
  return { principal: { name: session.name, role: session.role, via: 'session' } };
}

/**
 * Whether an unsafe request (POST, …) may proceed on Origin grounds, as a CSRF defence next to SameSite=Lax:
 * - an Origin header must name this host (the Host header) or one of `allowedOrigins`; "null" never passes;
 * - without an Origin header (not a browser: browsers always send it on POST) only a bearer-token request
 *   passes, since a browser never adds a bearer token by itself.
 */
export function checkOrigin(input: {
  method: string;
  origin: string | null;
  host: string | null;
  allowedOrigins: readonly string[];
  hasBearer: boolean;
}): string | null {
  if (!isUnsafeMethod(input.method)) return null;
  if (input.origin === null) {
    return input.hasBearer
      ? null
      : `${input.method} without an Origin header is refused: send it from the dashboard, or authenticate with a bearer token`;
  }
  if (input.allowedOrigins.includes(input.origin)) return null;
  let host: string | null;
  try {
    host = input.origin === 'null' ? null : new URL(input.origin).host;
  } catch {
    host = null;
  }
  if (host !== null && input.host !== null && host === input.host.toLowerCase()) return null;
  return `cross-origin ${input.method} refused: Origin ${input.origin} is not this dashboard (set WARDEN_ALLOWED_ORIGINS when a proxy serves it under another name)`;
}

/**
 * The whole decision for one request needing `role`: identity (401), then Origin for unsafe methods (403, so a
 * cross-site request riding on a valid cookie is refused), then role (403).
 */
export async function decideAccess(
  settings: AuthSettings,
  sessions: SessionLookup,
  request: {
    method: string;
    origin: string | null;
    host: string | null;
    authorization: string | null;
    sessionCookie: string | undefined;
  },
  role: Role,
  now: Date,
): Promise<AccessDecision> {
  const identity = await authenticate(settings, sessions, request, now);
  if ('problem' in identity) return { ok: false, status: 401, message: identity.problem, who: null };
  const originProblem = checkOrigin({
    method: request.method,
    origin: request.origin,
    host: request.host,
    allowedOrigins: settings.allowedOrigins,
    hasBearer: request.authorization !== null,
  });
  if (originProblem) return { ok: false, status: 403, message: originProblem, who: identity.principal.name };
  if (!roleAllows(identity.principal.role, role)) {
    return {
      ok: false,
      status: 403,
      message: `${identity.principal.name} is a ${identity.principal.role}: this needs the ${role} role`,
      who: identity.principal.name,
    };
  }
  return { ok: true, principal: identity.principal };
}

/** Whether the session cookie should carry Secure for a request. */
export function cookieIsSecure(
  settings: Pick<AuthSettings, 'cookieSecure'>,
  request: { url: string; forwardedProto: string | null },
): boolean {
  if (settings.cookieSecure !== 'auto') return settings.cookieSecure === 'true';
  return arrivedOverHttps(request);
}

/**
 * Where to go after signing in: a path on this site only ("/quarantine?x=1"), never another origin
 * ("//evil.example", "https://…", "/\\evil"); anything else becomes "/".
 */
export function safeNextPath(next: string | null | undefined): string {
  if (
    !next ||
    next.length > 2000 ||
    !next.startsWith('/') ||
    next.startsWith('//') ||
    next.includes('\\') ||
    /\p{Cc}/u.test(next)
  )
    return '/';
  if (next === '/sign-in' || next.startsWith('/sign-in?') || next.startsWith('/api/')) return '/';
  return next;
}

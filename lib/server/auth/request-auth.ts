import { ApiError } from '../api-error';
import { serverDatabase } from '../database';
import { checkOrigin, cookieIsSecure, decideAccess, type Principal } from './access';
import { PostgresAccessLog, type AccessLog } from './access-log';
import { loadAuthSettings } from './auth-settings';
import type { Role } from '../../auth/credentials';
import { clearedSessionCookieHeader, cookieValue, sessionCookieHeader, SESSION_COOKIE } from './session-token';
import { SessionStore, userAgentOf, type ClientFacts } from './session-store';
import { clientAddress, SignInLimiter } from './sign-in-limiter';

// The access checks applied to a Request; route handlers call authorize() first, proxy.ts runs the same
// decision before a request reaches them. Refusals are ApiErrors: 401 not signed in, 403 wrong role or origin.

function requestFacts(request: Request) {
  return {
    method: request.method,
    origin: request.headers.get('origin'),
    host: request.headers.get('host'),
    authorization: request.headers.get('authorization'),
    sessionCookie: sessionCookieOf(request),
  };
}

/** The session cookie value of a request, if any. */
export function sessionCookieOf(request: Request): string | undefined {
  return cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
}

/** The caller, when they may do what needs `role`; otherwise throws ApiError 401 or 403. */
export async function authorize(request: Request, role: Role, now = new Date()): Promise<Principal> {
  const access = await checkAccess(request, role, now);
  if (!access.ok) throw access.refusal;
  return access.principal;
}

/** The same decision without throwing: a refusal carries the ApiError and who was refused (null for a 401). */
export async function checkAccess(
  request: Request,
  role: Role,
  now = new Date(),
): Promise<{ ok: true; principal: Principal } | { ok: false; refusal: ApiError; who: string | null }> {
  const decision = await decideAccess(loadAuthSettings(), processSessionStore(), requestFacts(request), role, now);
  if (!decision.ok) return { ok: false, refusal: new ApiError(decision.status, decision.message), who: decision.who };
  return { ok: true, principal: decision.principal };
}

/** For requests that need no identity (sign-in, sign-out): an unsafe method must still come from our pages. */
export function requireSameOrigin(request: Request): void {
  const facts = requestFacts(request);
  const problem = checkOrigin({ ...facts, allowedOrigins: loadAuthSettings().allowedOrigins, hasBearer: false });
  if (problem) throw new ApiError(403, problem);
}

/** Where a request came from, for the session row and the access log. */
export function clientOf(request: Request): ClientFacts {
  return { address: clientAddress(request.headers), userAgent: userAgentOf(request.headers) };
}

/** Whether Set-Cookie for this request should be Secure. */
export function secureCookieFor(request: Request): boolean {
  return cookieIsSecure(loadAuthSettings(), {
    url: request.url,
    forwardedProto: request.headers.get('x-forwarded-proto'),
  });
}

/** The signed-in user of a session cookie value (server components read it with next/headers). */
export async function principalOfSessionCookie(value: string | undefined, now = new Date()): Promise<Principal | null> {
  const session = value ? await processSessionStore().find(value, now) : null;
  return session ? { name: session.name, role: session.role, via: 'session' } : null;
}

/** Set-Cookie carrying a new session token. */
export function sessionSetCookie(request: Request, token: string): string {
  return sessionCookieHeader(token, {
    maxAgeSec: loadAuthSettings().sessionMaxAgeSec,
    secure: secureCookieFor(request),
  });
}

/** Set-Cookie deleting the session cookie. */
export function sessionClearCookie(request: Request): string {
  return clearedSessionCookieHeader({ secure: secureCookieFor(request) });
}

// One of each per server process (kept on globalThis so every route bundle and dev reload shares them).
const holder = globalThis as unknown as {
  wardenSignInLimiter?: SignInLimiter;
  wardenSessionStore?: SessionStore;
  wardenAccessLog?: AccessLog;
};

export function processSignInLimiter(): SignInLimiter {
  holder.wardenSignInLimiter ??= new SignInLimiter();
  return holder.wardenSignInLimiter;
}

export function processSessionStore(): SessionStore {
  holder.wardenSessionStore ??= new SessionStore(serverDatabase(), loadAuthSettings());
  return holder.wardenSessionStore;
}

export function processAccessLog(): AccessLog {
  holder.wardenAccessLog ??= new PostgresAccessLog(serverDatabase());
  return holder.wardenAccessLog;
}

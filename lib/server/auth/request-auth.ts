import { ApiError } from '../api-error';
import { checkOrigin, cookieIsSecure, decideAccess, type Principal } from './access';
import { loadAuthSettings } from './auth-settings';
import type { Role } from '../../auth/credentials';
import {
  clearedSessionCookieHeader,
  cookieValue,
  sessionCookieHeader,
  SESSION_COOKIE,
  verifySessionToken,
} from './session-token';
import { SignInLimiter } from './sign-in-limiter';

// The access checks applied to a Request; route handlers call authorize() first, proxy.ts runs the same
// decision before a request reaches them. Refusals are ApiErrors: 401 not signed in, 403 wrong role or origin.

function requestFacts(request: Request) {
  return {
    method: request.method,
    origin: request.headers.get('origin'),
    host: request.headers.get('host'),
    authorization: request.headers.get('authorization'),
    sessionCookie: cookieValue(request.headers.get('cookie'), SESSION_COOKIE),
  };
}

/** The caller, when they may do what needs `role`; otherwise throws ApiError 401 or 403. */
export function authorize(request: Request, role: Role, now = new Date()): Principal {
  const access = checkAccess(request, role, now);
  if (!access.ok) throw access.refusal;
  return access.principal;
}

/** The same decision without throwing: a refusal carries the ApiError and who was refused (null for a 401). */
export function checkAccess(
  request: Request,
  role: Role,
  now = new Date(),
): { ok: true; principal: Principal } | { ok: false; refusal: ApiError; who: string | null } {
  const decision = decideAccess(loadAuthSettings(), requestFacts(request), role, now);
  if (!decision.ok) return { ok: false, refusal: new ApiError(decision.status, decision.message), who: decision.who };
  return { ok: true, principal: decision.principal };
}

/** For requests that need no identity (sign-in, sign-out): an unsafe method must still come from our pages. */
export function requireSameOrigin(request: Request): void {
  const facts = requestFacts(request);
  const problem = checkOrigin({ ...facts, allowedOrigins: loadAuthSettings().allowedOrigins, hasBearer: false });
  if (problem) throw new ApiError(403, problem);
}

/** Whether Set-Cookie for this request should be Secure. */
export function secureCookieFor(request: Request): boolean {
  return cookieIsSecure(loadAuthSettings(), {
    url: request.url,
    forwardedProto: request.headers.get('x-forwarded-proto'),
  });
}

/** The signed-in user of a session cookie value (server components read it with next/headers). */
export function principalOfSessionCookie(value: string | undefined, now = new Date()): Principal | null {
  const settings = loadAuthSettings();
  const session = verifySessionToken(settings.sessionSecret, settings.users, value, now);
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

// One limiter per server process (kept on globalThis so every route bundle and dev reload shares it).
const holder = globalThis as unknown as { wardenSignInLimiter?: SignInLimiter };

export function processSignInLimiter(): SignInLimiter {
  holder.wardenSignInLimiter ??= new SignInLimiter();
  return holder.wardenSignInLimiter;
}

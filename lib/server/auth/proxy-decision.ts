import { methodsAt } from '../../openapi/route-methods';
import { decideAccess, safeNextPath, type AuthSettings, type SessionLookup } from './access';

// What proxy.ts does with a request before it reaches a page or a route handler (Next.js 16 Proxy, Node.js
// runtime). It is the first gate, not the only one: every API route handler checks again with authorize(),
// with the role it needs; this gate only requires that someone valid is asking.
// - /api/auth/sign-in and /api/auth/sign-out pass (their handlers check the Origin; nobody is signed in yet);
// - other /api/** need a valid session cookie or bearer token (401), then an unsafe method our own Origin (403);
// - then a known API path called with a method it does not answer is refused with 405 and the methods it does
//   (the route table, lib/openapi/route-methods.ts); an unknown path passes to the route that answers 404;
// - pages need a valid session; without one they redirect to /sign-in?next=<the page>; /sign-in itself passes.
// - before all of that, a path with a percent-escape that does not decode ("%zz", a cut UTF-8 sequence) is
//   refused with 400: Next.js's router would otherwise fail on it with a bare 500 while matching a dynamic
//   segment, before any route handler could answer.

export type ProxyDecision =
  | { kind: 'pass' }
  | { kind: 'refuse'; status: 400 | 401 | 403 | 405; message: string; field?: string; allow?: string[] }
  | { kind: 'redirect'; location: string };

const OPEN_API = new Set(['/api/auth/sign-in', '/api/auth/sign-out']);

export async function proxyDecision(
  settings: AuthSettings,
  sessions: SessionLookup,
  request: {
    pathname: string;
    search: string;
    method: string;
    origin: string | null;
    host: string | null;
    authorization: string | null;
    sessionCookie: string | undefined;
  },
  now: Date,
): Promise<ProxyDecision> {
  const { pathname } = request;
  if (!decodesCleanly(pathname)) {
    return { kind: 'refuse', status: 400, message: 'path: has a percent-escape that does not decode', field: 'path' };
  }
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    if (!OPEN_API.has(pathname)) {
      const decision = await decideAccess(settings, sessions, request, 'viewer', now);
      if (!decision.ok) return { kind: 'refuse', status: decision.status, message: decision.message };
    }
    const allow = methodsAt(pathname);
    if (allow && !allow.includes(request.method.toUpperCase() as (typeof allow)[number])) {
      return {
        kind: 'refuse',
        status: 405,
        message: `method: ${request.method} is not allowed on ${pathname}; it answers ${allow.join(', ')}`,
        field: 'method',
        allow,
      };
    }
    return { kind: 'pass' };
  }
  if (pathname === '/sign-in') return { kind: 'pass' };
  // Pages are for people: only the session cookie counts (a bearer token is for API clients).
  const decision = await decideAccess(settings, sessions, { ...request, authorization: null }, 'viewer', now);
  if (decision.ok) return { kind: 'pass' };
  const next = safeNextPath(`${pathname}${request.search}`);
  return { kind: 'redirect', location: next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}` };
}

function decodesCleanly(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

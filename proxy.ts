// Next.js 16 Proxy (formerly middleware; Node.js runtime): the first access gate for pages and the API, and
// the security headers of every response it sees. The access decision is lib/server/auth/proxy-decision.ts
// (API route handlers check access again themselves); the headers are lib/server/security-headers.ts.
import { NextResponse, type NextRequest } from 'next/server';
import { errorBody } from '@/lib/server/api-error';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { loadAuthSettings } from '@/lib/server/auth/auth-settings';
import { proxyDecision } from '@/lib/server/auth/proxy-decision';
import { processSessionStore } from '@/lib/server/auth/request-auth';
import { SESSION_COOKIE } from '@/lib/server/auth/session-token';
import { arrivedOverHttps, newNonce, securityHeaders } from '@/lib/server/security-headers';

export async function proxy(request: NextRequest) {
  const headers = securityHeaders({
    nonce: newNonce(),
    isDevelopment: loadDashboardConfig().NODE_ENV === 'development',
    isHttps: arrivedOverHttps({ url: request.url, forwardedProto: request.headers.get('x-forwarded-proto') }),
  });
  const decision = await proxyDecision(
    loadAuthSettings(),
    processSessionStore(),
    {
      pathname: request.nextUrl.pathname,
      search: request.nextUrl.search,
      method: request.method,
      origin: request.headers.get('origin'),
      host: request.headers.get('host'),
      authorization: request.headers.get('authorization'),
      sessionCookie: request.cookies.get(SESSION_COOKIE)?.value,
    },
    new Date(),
  );
  let response: Response;
  if (decision.kind === 'pass') {
    // Next.js takes the nonce for its own scripts from the policy on the request.
    const forwarded = new Headers(request.headers);
    forwarded.set('content-security-policy', headers['content-security-policy']!);
    response = NextResponse.next({ request: { headers: forwarded } });
  } else if (decision.kind === 'refuse') {
    response = Response.json(errorBody(decision.message, decision.field), {
      status: decision.status,
      headers: { 'cache-control': 'no-store', ...(decision.allow ? { allow: decision.allow.join(', ') } : {}) },
    });
  } else {
    response = NextResponse.redirect(new URL(decision.location, request.url));
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but build assets and the icon, which carry no data (next.config.ts gives them their headers).
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};

// Next.js 16 Proxy (formerly middleware; Node.js runtime): the first access gate for pages and the API.
// The decision is lib/server/auth/proxy-decision.ts; API route handlers check access again themselves.
import { NextResponse, type NextRequest } from 'next/server';
import { errorBody } from '@/lib/server/api-error';
import { loadAuthSettings } from '@/lib/server/auth/auth-settings';
import { proxyDecision } from '@/lib/server/auth/proxy-decision';
import { SESSION_COOKIE } from '@/lib/server/auth/session-token';

export function proxy(request: NextRequest) {
  const decision = proxyDecision(
    loadAuthSettings(),
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
  if (decision.kind === 'pass') return NextResponse.next();
  if (decision.kind === 'refuse')
    return Response.json(errorBody(decision.message), {
      status: decision.status,
      headers: { 'cache-control': 'no-store' },
    });
  return NextResponse.redirect(new URL(decision.location, request.url));
}

export const config = {
  // Everything but build assets and the icon, which carry no data.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|icon.svg).*)'],
};

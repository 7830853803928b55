import { cookies } from 'next/headers';
import { cache } from 'react';
import { principalOfSessionCookie } from '@/lib/server/auth/request-auth';
import { SESSION_COOKIE } from '@/lib/server/auth/session-token';

/**
 * Who the page being rendered is for, from its session cookie; null without a valid session. Read once per
 * request (React's per-request cache): the root layout and the page both ask, and each ask is a lookup in the
 * session store.
 */
export const requestPrincipal = cache(async () =>
  principalOfSessionCookie((await cookies()).get(SESSION_COOKIE)?.value),
);

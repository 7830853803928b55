// POST /api/auth/sign-out - ends the stored session (every copy of the cookie is refused after) and deletes the cookie.
import { errorResponse } from '@/lib/server/api-response';
import {
  clientOf,
  processAccessLog,
  processSessionStore,
  requireSameOrigin,
  sessionClearCookie,
  sessionCookieOf,
} from '@/lib/server/auth/request-auth';
import { signOut } from '@/lib/server/auth/sign-out';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  try {
    requireSameOrigin(request);
    const result = await signOut(
      processSessionStore(),
      processAccessLog(),
      sessionCookieOf(request),
      clientOf(request),
    );
    return Response.json(result, {
      headers: { 'set-cookie': sessionClearCookie(request), 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

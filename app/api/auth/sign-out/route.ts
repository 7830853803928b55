// POST /api/auth/sign-out - deletes the session cookie (a copy taken earlier stays valid until it expires).
import { errorResponse } from '@/lib/server/api-response';
import { requireSameOrigin, sessionClearCookie } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  try {
    requireSameOrigin(request);
    return Response.json(
      { signedOut: true },
      { headers: { 'set-cookie': sessionClearCookie(request), 'cache-control': 'no-store' } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

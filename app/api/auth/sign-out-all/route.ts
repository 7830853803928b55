// POST /api/auth/sign-out-all - ends every session of the signed-in user (other browsers, copied cookies, this one).
import { errorResponse } from '@/lib/server/api-response';
import {
  authorize,
  clientOf,
  processAccessLog,
  processSessionStore,
  sessionClearCookie,
} from '@/lib/server/auth/request-auth';
import { signOutEverywhere } from '@/lib/server/auth/sign-out';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  try {
    const principal = await authorize(request, 'viewer');
    const result = await signOutEverywhere(processSessionStore(), processAccessLog(), principal, clientOf(request));
    return Response.json(result, {
      headers: { 'set-cookie': sessionClearCookie(request), 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

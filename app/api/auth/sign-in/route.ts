// POST /api/auth/sign-in - { name, password } → the session cookie (HttpOnly, SameSite=Lax) and who signed in.
import { ZSignInRequest } from '@/lib/schemas/auth';
import { errorResponse, readJsonBody } from '@/lib/server/api-response';
import { loadAuthSettings } from '@/lib/server/auth/auth-settings';
import {
  clientOf,
  processAccessLog,
  processSessionStore,
  processSignInLimiter,
  requireSameOrigin,
  sessionSetCookie,
} from '@/lib/server/auth/request-auth';
import { signIn } from '@/lib/server/auth/sign-in';

export const dynamic = 'force-dynamic';

export async function POST(request: Request) {
  try {
    requireSameOrigin(request);
    const body = ZSignInRequest.parse(await readJsonBody(request));
    const { session, token } = await signIn(
      loadAuthSettings(),
      processSignInLimiter(),
      processSessionStore(),
      processAccessLog(),
      body,
      clientOf(request),
    );
    return Response.json(session, {
      headers: { 'set-cookie': sessionSetCookie(request, token), 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

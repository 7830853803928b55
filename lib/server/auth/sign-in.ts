import type { TSessionInfo, TSignInRequest } from '../../schemas/auth';
import { ApiError } from '../api-error';
import { safeNextPath, type AuthSettings } from './access';
import { verifyPassword } from '../../auth/credentials';
import { issueSessionToken } from './session-token';
import type { SignInLimiter } from './sign-in-limiter';

/**
 * POST /api/auth/sign-in: checks the rate limit for (name, address) before the password (a locked-out
 * attempt costs no scrypt and reveals nothing), then the password. 401 says only that the pair is wrong, never
 * which half; 429 says when to try again. On success: the session cookie value and who signed in.
 */
export async function signIn(
  settings: AuthSettings,
  limiter: SignInLimiter,
  request: TSignInRequest,
  address: string,
  now = new Date(),
): Promise<{ session: TSessionInfo; token: string }> {
  const decision = limiter.check(request.name, address, now.getTime());
  if (!decision.allowed) {
    const minutes = Math.ceil(decision.retryAfterMs / 60_000);
    throw new ApiError(429, `too many failed sign-ins for ${request.name}: try again in ${minutes} min`, null, {
      'retry-after': String(Math.ceil(decision.retryAfterMs / 1000)),
    });
  }
  const user = await verifyPassword(settings.users, request.name, request.password);
  if (!user) {
    limiter.recordFailure(request.name, address, now.getTime());
    throw new ApiError(401, 'wrong user name or password');
  }
  limiter.recordSuccess(request.name, address);
  return {
    session: { name: user.name, role: user.role, via: 'session', next: safeNextPath(request.next) },
    token: issueSessionToken(settings.sessionSecret, user, now, settings.sessionMaxAgeSec),
  };
}

import type { TSessionInfo, TSignInRequest } from '../../schemas/auth';
import { ApiError } from '../api-error';
import { safeNextPath, type AuthSettings } from './access';
import type { AccessLog } from './access-log';
import { verifyPassword, type UserCredential } from '../../auth/credentials';
import type { ClientFacts } from './session-store';
import type { SignInLimiter } from './sign-in-limiter';

/** Creates a stored session and returns its cookie value (session-store.ts in the dashboard). */
export interface SessionCreator {
  create(user: UserCredential, client: ClientFacts, now: Date): Promise<string>;
}

/**
 * POST /api/auth/sign-in: checks the rate limit for (name, address) before the password (a locked-out
 * attempt costs no scrypt and reveals nothing), then the password. 401 says only that the pair is wrong, never
 * which half; 429 says when to try again. Each outcome is one access-log event (the name as given, the
 * client's address and user agent; never the password). On success: the session cookie value and who signed in.
 */
export async function signIn(
  settings: AuthSettings,
  limiter: SignInLimiter,
  sessions: SessionCreator,
  log: AccessLog,
  request: TSignInRequest,
  client: ClientFacts,
  now = new Date(),
): Promise<{ session: TSessionInfo; token: string }> {
  const decision = limiter.check(request.name, client.address, now.getTime());
  if (!decision.allowed) {
    const minutes = Math.ceil(decision.retryAfterMs / 60_000);
    await log.record({ kind: 'sign-in-rate-limited', userName: request.name, client }, now);
    throw new ApiError(429, `too many failed sign-ins for ${request.name}: try again in ${minutes} min`, null, {
      'retry-after': String(Math.ceil(decision.retryAfterMs / 1000)),
    });
  }
  const user = await verifyPassword(settings.users, request.name, request.password);
  if (!user) {
    limiter.recordFailure(request.name, client.address, now.getTime());
    await log.record({ kind: 'sign-in-failed', userName: request.name, client }, now);
    throw new ApiError(401, 'wrong user name or password');
  }
  limiter.recordSuccess(request.name, client.address);
  const token = await sessions.create(user, client, now);
  await log.record({ kind: 'sign-in', userName: user.name, client, detail: user.role }, now);
  return {
    session: { name: user.name, role: user.role, via: 'session', next: safeNextPath(request.next) },
    token,
  };
}

import type { TSignOutAllResult, TSignOutResult } from '../../schemas/auth';
import { ApiError } from '../api-error';
import type { Principal } from './access';
import type { AccessLog } from './access-log';
import type { ClientFacts } from './session-store';

/** Ends stored sessions (session-store.ts in the dashboard). */
export interface SessionEnder {
  /** The user whose session the cookie value was, or null when it was none. */
  end(token: string | undefined): Promise<string | null>;
  endAllOf(userName: string): Promise<number>;
}

/**
 * POST /api/auth/sign-out: deletes the stored session, so every copy of the cookie is refused from now on.
 * A cookie that is no session (already ended, forged) signs nobody out and records nothing.
 */
export async function signOut(
  sessions: SessionEnder,
  log: AccessLog,
  token: string | undefined,
  client: ClientFacts,
  now = new Date(),
): Promise<TSignOutResult> {
  const userName = await sessions.end(token);
  if (userName !== null) await log.record({ kind: 'sign-out', userName, client }, now);
  return { signedOut: userName !== null };
}

/** POST /api/auth/sign-out-all: ends every session of the signed-in user, this one included. */
export async function signOutEverywhere(
  sessions: SessionEnder,
  log: AccessLog,
  principal: Principal,
  client: ClientFacts,
  now = new Date(),
): Promise<TSignOutAllResult> {
  if (principal.via !== 'session') throw new ApiError(400, 'a bearer token has no sessions to end; sign in first');
  const sessionsEnded = await sessions.endAllOf(principal.name);
  await log.record(
    { kind: 'sign-out-all', userName: principal.name, client, detail: `${sessionsEnded} sessions ended` },
    now,
  );
  return { sessionsEnded };
}

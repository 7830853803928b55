import type { Database } from '../../db';
import type { UserCredential } from '../../auth/credentials';
import type { AuthSettings, SessionLookup } from './access';
import {
  checkStoredSession,
  credentialStamp,
  idleExpiry,
  newSessionToken,
  sessionIdHash,
  type SessionPrincipal,
} from './session-token';

// Dashboard sessions in Postgres (dashboard_session); the rules are in session-token.ts. The cookie value
// never reaches the database or a log, only its SHA-256. A refused session (expired, idle, credentials
// changed) is deleted when it is next presented; expired rows of anyone are swept at each sign-in.

/** Where a sign-in came from, as recorded with the session and in the access log. */
export interface ClientFacts {
  address: string;
  userAgent: string;
}

const MAX_USER_AGENT_CHARS = 512;

/** The User-Agent header, capped (it is attacker-chosen text) and never absent. */
export function userAgentOf(headers: Headers): string {
  return (headers.get('user-agent') ?? '').slice(0, MAX_USER_AGENT_CHARS);
}

export class SessionStore implements SessionLookup {
  constructor(
    private readonly db: Database,
    private readonly settings: Pick<AuthSettings, 'sessionSecret' | 'users' | 'sessionMaxAgeSec' | 'sessionIdleSec'>,
  ) {}

  /** Stores a new session for `user` and returns its cookie value. */
  async create(user: UserCredential, client: ClientFacts, now: Date): Promise<string> {
    const token = newSessionToken();
    await this.db.dashboardSession.deleteMany({
      where: { OR: [{ expiresAt: { lte: now } }, { idleExpiresAt: { lte: now } }] },
    });
    await this.db.dashboardSession.create({
      data: {
        idHash: sessionIdHash(token)!,
        userName: user.name,
        role: user.role,
        credentialStamp: credentialStamp(this.settings.sessionSecret, user),
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + this.settings.sessionMaxAgeSec * 1000),
        idleExpiresAt: idleExpiry(now, this.settings.sessionIdleSec),
        clientAddress: client.address,
        userAgent: client.userAgent,
      },
    });
    return token;
  }

  /** The signed-in user of a cookie value, or null; moves last-seen at most once a minute. */
  async find(token: string | undefined, now: Date): Promise<SessionPrincipal | null> {
    const idHash = sessionIdHash(token);
    if (idHash === null) return null;
    const row = await this.db.dashboardSession.findUnique({ where: { idHash } });
    if (!row) return null;
    const check = checkStoredSession(row, this.settings, now);
    if (!check.ok) {
      await this.db.dashboardSession.deleteMany({ where: { idHash } });
      return null;
    }
    if (check.touch) await this.db.dashboardSession.updateMany({ where: { idHash }, data: check.touch });
    return check.principal;
  }

  /** Ends the session of a cookie value; the user it belonged to, or null when it was no session. */
  async end(token: string | undefined): Promise<string | null> {
    const idHash = sessionIdHash(token);
    if (idHash === null) return null;
    const deleted = await this.db.$queryRaw<{ user_name: string }[]>`
      DELETE FROM dashboard_session WHERE id_hash = ${idHash} RETURNING user_name`;
    return deleted[0]?.user_name ?? null;
  }

  /** Ends every session of `userName`; how many there were. */
  async endAllOf(userName: string): Promise<number> {
    return (await this.db.dashboardSession.deleteMany({ where: { userName } })).count;
  }
}

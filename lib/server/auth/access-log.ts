import type { Database } from '../../db';
import type { TAccessEventKind } from '../../schemas/access-events';
import type { ClientFacts } from './session-store';

// The access log (access_event): every sign-in, failed or not, and every sign-out, with who and from where.
// Invariant: an event carries a user name, the client's address and user agent, and a short detail written
// by this code, never a password, a cookie value or a token (the callers have none of them to give).

export interface AccessEventInput {
  kind: TAccessEventKind;
  userName: string;
  client: ClientFacts;
  detail?: string;
}

/** Where access events go; Postgres in the dashboard, an array in unit tests. */
export interface AccessLog {
  record(event: AccessEventInput, now: Date): Promise<void>;
}

const MAX_NAME_CHARS = 64;

export class PostgresAccessLog implements AccessLog {
  constructor(private readonly db: Database) {}

  async record(event: AccessEventInput, now: Date): Promise<void> {
    await this.db.accessEvent.create({
      data: {
        kind: event.kind,
        userName: event.userName.slice(0, MAX_NAME_CHARS),
        clientAddress: event.client.address,
        userAgent: event.client.userAgent,
        detail: event.detail ?? null,
        at: now,
      },
    });
  }
}

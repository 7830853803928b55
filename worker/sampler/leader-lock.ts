import { createHash } from 'node:crypto';
import { Client } from 'pg';

// Exactly one sampler among several worker instances: a Postgres session-level advisory lock, taken with
// pg_try_advisory_lock on a dedicated connection (not the Prisma pool: a pooled connection would hand the
// lock to whatever query runs on it next) and held for as long as that session lives.
// - Another instance takes over once the leader's session ends: the process died (the OS closes its socket
//   and Postgres frees the lock at once), it released the lock, or Postgres restarted. Followers retry every
//   interval, so takeover happens within one interval of the session ending.
// - A leader whose connection errors stops leading immediately (onLost) and must win the lock again.
// - A leader that is alive but hung keeps the lock: that is the price of never having two samplers.

export const SAMPLER_LOCK_NAME = 'warden:lag-sampler';

/** The advisory lock key (a signed int64, as a decimal string) for a name. */
export function advisoryLockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

export type LockAttempt = 'leader' | 'follower' | 'unavailable';

export interface LeaderLockOptions {
  connectionString: string;
  /** Lock name; instances contend only with instances using the same name and database. */
  name?: string;
  connectTimeoutMs?: number;
  onLost?: (error: Error) => void;
}

export class LeaderLock {
  private client: Client | null = null;
  private held = false;
  private readonly key: string;
  lastError: Error | null = null;

  constructor(private readonly options: LeaderLockOptions) {
    this.key = advisoryLockKey(options.name ?? SAMPLER_LOCK_NAME);
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Takes the lock if free. Never throws: 'unavailable' means Postgres could not be asked (see lastError). */
  async tryAcquire(): Promise<LockAttempt> {
    if (this.held) return (await this.confirm()) ? 'leader' : this.tryAcquire();
    try {
      const client = this.client ?? (await this.connect());
      const result = await client.query<{ acquired: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS acquired', [
        this.key,
      ]);
      this.held = result.rows[0]?.acquired === true;
      return this.held ? 'leader' : 'follower';
    } catch (error) {
      this.lastError = error as Error;
      await this.dropConnection();
      return 'unavailable';
    }
  }

  /** Whether the lock is still held: the session that holds it answers. A dead session means it is lost. */
  async confirm(): Promise<boolean> {
    if (!this.held || !this.client) return false;
    try {
      await this.client.query('SELECT 1');
      return true;
    } catch (error) {
      this.lose(error as Error);
      return false;
    }
  }

  /** Gives the lock up (a graceful stop) so another instance can take over at its next attempt. */
  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    const wasHeld = this.held;
    this.held = false;
    if (!client) return;
    try {
      if (wasHeld) await client.query('SELECT pg_advisory_unlock($1::bigint)', [this.key]);
    } catch {
      // Ending the session below frees the lock anyway.
    }
    await client.end().catch(() => undefined);
  }

  /** The backend pid of the lock session, for tests that kill it. */
  async backendPid(): Promise<number | null> {
    if (!this.client) return null;
    const result = await this.client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return result.rows[0]?.pid ?? null;
  }

  private async connect(): Promise<Client> {
    const client = new Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
      application_name: 'warden-sampler-lock',
    });
    client.on('error', (error) => {
      if (this.client === client) this.lose(error);
    });
    await client.connect();
    this.client = client;
    return client;
  }

  private lose(error: Error): void {
    const wasHeld = this.held;
    this.held = false;
    this.lastError = error;
    void this.dropConnection();
    if (wasHeld) this.options.onLost?.(error);
  }

  private async dropConnection(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { advisoryLockKey } from './leader-lock';
import type { ShardLockSession } from './shard-leases';
import type { ShardView } from './sampler-shards';

// The shard locks of one cluster's sampler on Postgres: session-level advisory locks on a dedicated
// connection (never a pooled one, which would hand a lock to whatever query runs on it next), so every lock
// is freed at once when the process dies or its connection ends.
// - Membership: a shared lock (membersKey, shardCount), held by every live instance for its session's life;
//   pg_locks lists the holders, which are the members (their backend pids are their ids, their lock's second
//   key their shard count).
// - Shard s: the exclusive lock (shardsKey, s).
// - The unsharded sampler's leader lock (leader-lock.ts, one bigint key) is read too, so sharded instances
//   stand down while an unsharded one leads the cluster.
// The keys are 31-bit hashes of the cluster's lock name, so they never collide with the bigint leader locks'
// (pg_locks tells the two forms apart by objsubid: 1 for a bigint key, 2 for two int4 keys).

/** A positive int4 key for `name`. */
function int4Key(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0) & 0x7fffffff;
}

export interface PgShardLocksOptions {
  connectionString: string;
  /** The cluster's sampler lock name (samplerLockName): instances contend only with the same name. */
  lockName: string;
  connectTimeoutMs?: number;
}

export class PgShardLocks implements ShardLockSession {
  private client: Client | null = null;
  private pid: string | null = null;
  private readonly membersKey: number;
  private readonly shardsKey: number;
  private readonly leaderClassId: string;
  private readonly leaderObjId: string;

  constructor(private readonly options: PgShardLocksOptions) {
    this.membersKey = int4Key(`${options.lockName}:shard-members`);
    this.shardsKey = int4Key(`${options.lockName}:shards`);
    const leader = BigInt.asUintN(64, BigInt(advisoryLockKey(options.lockName)));
    this.leaderClassId = (leader >> 32n).toString();
    this.leaderObjId = (leader & 0xffffffffn).toString();
  }

  get alive(): boolean {
    return this.client !== null;
  }

  /** The backend pid of the lock session (tests kill it to kill an instance). */
  get sessionId(): string | null {
    return this.pid;
  }

  async view(shardCount: number): Promise<ShardView & { legacyLeaderHeld: boolean }> {
    const client = await this.session(shardCount);
    try {
      const result = await client.query<{ classid: string; objid: string; objsubid: number; pid: number }>(
        `SELECT classid::int8::text AS classid, objid::int8::text AS objid, objsubid, pid
           FROM pg_locks
          WHERE locktype = 'advisory' AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND ((objsubid = 2 AND classid::int8 IN ($1::int8, $2::int8))
              OR (objsubid = 1 AND classid::int8 = $3::int8 AND objid::int8 = $4::int8))`,
        [this.membersKey, this.shardsKey, this.leaderClassId, this.leaderObjId],
      );
      const members: Array<{ id: string; shardCount: number }> = [];
      const holders = new Map<number, string>();
      let legacyLeaderHeld = false;
      for (const row of result.rows) {
        const id = String(row.pid);
        if (row.objsubid === 1) legacyLeaderHeld = true;
        else if (row.classid === String(this.membersKey)) members.push({ id, shardCount: Number(row.objid) });
        else holders.set(Number(row.objid), id);
      }
      return { self: this.pid!, members, holders, legacyLeaderHeld };
    } catch (error) {
      await this.drop();
      throw error;
    }
  }

  async tryLock(shard: number): Promise<boolean> {
    const client = this.requireClient();
    const result = await client.query<{ acquired: boolean }>(
      'SELECT pg_try_advisory_lock($1::int4, $2::int4) AS acquired',
      [this.shardsKey, shard],
    );
    return result.rows[0]?.acquired === true;
  }

  async unlock(shard: number): Promise<void> {
    const client = this.requireClient();
    await client.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', [this.shardsKey, shard]);
  }

  async close(): Promise<void> {
    await this.drop();
  }

  private requireClient(): Client {
    if (!this.client) throw new Error('the shard lock session is closed');
    return this.client;
  }

  /** The live session, or a new one that joined as a member with `shardCount`. */
  private async session(shardCount: number): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5_000,
      application_name: 'warden-sampler-shards',
    });
    const lost = () => {
      if (this.client === client) void this.drop();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      const joined = await client.query<{ pid: number }>(
        'SELECT pg_backend_pid() AS pid, pg_try_advisory_lock_shared($1::int4, $2::int4) AS joined',
        [this.membersKey, shardCount],
      );
      this.pid = String(joined.rows[0]!.pid);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.pid = null;
    await client?.end().catch(() => undefined);
  }
}

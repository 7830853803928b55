import type { ShardLockSession } from '../shard-leases';
import type { ShardView } from '../sampler-shards';

/**
 * An in-memory stand-in for Postgres's advisory locks (pg-shard-locks.ts) for unit tests: one table shared by
 * several sessions, exclusive shard locks, a member list, and sessions that can die (freeing all their
 * locks at once, as Postgres does when a connection ends) or find Postgres unreachable.
 */
export class FakeShardLockTable {
  readonly holders = new Map<number, string>();
  readonly members = new Map<string, number>();
  legacyLeaderHeld = false;
  private nextId = 1;

  session(): FakeShardLockSession {
    return new FakeShardLockSession(this, () => String(this.nextId++));
  }

  /** Every lock `id` held goes, as when Postgres ends its session. */
  endSession(id: string): void {
    this.members.delete(id);
    for (const [shard, holder] of [...this.holders]) if (holder === id) this.holders.delete(shard);
  }
}

export class FakeShardLockSession implements ShardLockSession {
  id: string | null = null;
  /** Postgres cannot be reached: every call throws and the session is gone. */
  unreachable = false;

  constructor(
    private readonly table: FakeShardLockTable,
    private readonly newId: () => string,
  ) {}

  get alive(): boolean {
    return this.id !== null;
  }

  /** The process dies or its connection breaks: Postgres frees every lock of the session. */
  kill(): void {
    if (this.id !== null) this.table.endSession(this.id);
    this.id = null;
  }

  async view(shardCount: number): Promise<ShardView & { legacyLeaderHeld: boolean }> {
    this.failIfUnreachable();
    if (this.id === null) {
      this.id = this.newId();
      this.table.members.set(this.id, shardCount);
    }
    return {
      self: this.id,
      members: [...this.table.members].map(([id, count]) => ({ id, shardCount: count })),
      holders: new Map(this.table.holders),
      legacyLeaderHeld: this.table.legacyLeaderHeld,
    };
  }

  async tryLock(shard: number): Promise<boolean> {
    this.failIfUnreachable();
    const holder = this.table.holders.get(shard);
    if (holder !== undefined && holder !== this.id) return false;
    if (holder === this.id) throw new Error(`shard ${shard} locked twice by one session (Postgres would count it)`);
    this.table.holders.set(shard, this.id!);
    return true;
  }

  async unlock(shard: number): Promise<void> {
    this.failIfUnreachable();
    if (this.table.holders.get(shard) !== this.id) throw new Error(`shard ${shard} is not held by ${this.id}`);
    this.table.holders.delete(shard);
  }

  async close(): Promise<void> {
    this.kill();
  }

  private failIfUnreachable(): void {
    if (!this.unreachable) return;
    this.kill();
    throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
  }
}

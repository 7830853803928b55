import type { LockAttempt } from './leader-lock';
import type { LeaderLockPort } from './lag-sampler';
import { planShardShare, shardOfGroup, type ShardView } from './sampler-shards';

/**
 * One lock session with the shard locks of one cluster (pg-shard-locks.ts on Postgres; a fake in unit tests).
 * Every lock is the session's: when the session ends (process death, connection lost) all are freed at once.
 */
export interface ShardLockSession {
  /**
   * Joins as a member with `shardCount` (once per session) and returns the current view. Throws when
   * Postgres cannot be asked; `legacyLeaderHeld` is whether an unsharded sampler (SAMPLER_SHARDS=1) holds
   * the cluster's leader lock.
   */
  view(shardCount: number): Promise<ShardView & { legacyLeaderHeld: boolean }>;
  /** Takes a free shard; false when another session holds it. Throws when Postgres cannot be asked. */
  tryLock(shard: number): Promise<boolean>;
  unlock(shard: number): Promise<void>;
  /** False once the session died; the session reconnects (as a new member) at the next view. */
  readonly alive: boolean;
  close(): Promise<void>;
}

export interface ShardLeasesOptions {
  session: ShardLockSession;
  shardCount: number;
  /** Told when this instance stands down or its session dies while holding shards. */
  onChange?: (event: { kind: 'stand-down' | 'lost'; message: string }) => void;
}

/**
 * The sampler's "lock" in sharded mode: the instance holds its fair share of the cluster's shards
 * (sampler-shards.ts) and samples only their groups.
 *
 * Per round (the sampler's tick): `tryAcquire` gives back the excess found one tick ago, reads the view,
 * takes free shards up to the fair share and notes the excess; the round samples the groups of every shard
 * held at its start (`groupFilter`). Failover: an instance that dies frees its shards with its session, and
 * the others take them at their next tick (within one interval), their shares grown by its absence.
 *
 * Failure behaviour: Postgres unreachable → 'unavailable', nothing is held (the session is gone or
 * unusable, so whatever it held is freed for the others); a session that dies mid-round makes `isHeld` false,
 * so the round writes nothing. Never throws.
 */
export class ShardLeases implements LeaderLockPort {
  private held = new Set<number>();
  private pendingRelease: number[] = [];
  private standingDown: string | null = null;
  private lastError: Error | null = null;
  private gained = 0;

  constructor(private readonly options: ShardLeasesOptions) {}

  get isHeld(): boolean {
    return this.options.session.alive && this.held.size > 0;
  }

  /** The shards held now, ascending. */
  get shards(): number[] {
    return [...this.held].sort((a, b) => a - b);
  }

  /** Grows whenever a shard was taken (the sampler then reloads the log-end points of its topics). */
  get generation(): number {
    return this.gained;
  }

  get error(): Error | null {
    return this.lastError;
  }

  /** Whether this instance runs the cluster-wide maintenance: the holder of shard 0. */
  get runsMaintenance(): boolean {
    return this.isHeld && this.held.has(0);
  }

  async tryAcquire(): Promise<LockAttempt> {
    const { session, shardCount } = this.options;
    if (this.held.size > 0 && !session.alive) this.lose('the shard lock session died');
    try {
      await this.releasePending();
      const view = await session.view(shardCount);
      this.held = new Set([...view.holders].filter(([, holder]) => holder === view.self).map(([shard]) => shard));
      const plan = view.legacyLeaderHeld
        ? ({ kind: 'stand-down', reason: 'an unsharded sampler (SAMPLER_SHARDS=1) holds the leader lock' } as const)
        : planShardShare(view, shardCount);
      if (plan.kind === 'stand-down') {
        await this.releaseAll();
        if (this.standingDown !== plan.reason) this.options.onChange?.({ kind: 'stand-down', message: plan.reason });
        this.standingDown = plan.reason;
        return 'follower';
      }
      this.standingDown = null;
      for (const shard of plan.candidates) {
        if (this.held.size >= plan.target) break;
        if (await session.tryLock(shard)) {
          this.held.add(shard);
          this.gained += 1;
        }
      }
      this.pendingRelease = plan.release;
      return this.held.size > 0 ? 'leader' : 'follower';
    } catch (error) {
      this.lastError = error as Error;
      this.held.clear();
      this.pendingRelease = [];
      return 'unavailable';
    }
  }

  /** Which groups the round samples: those of the shards held when it starts. */
  groupFilter(): (groupId: string) => boolean {
    const held = new Set(this.held);
    const { shardCount } = this.options;
    return (groupId) => held.has(shardOfGroup(groupId, shardCount));
  }

  /**
   * Gives back the shards found above the fair share one tick ago. Their last round ran an interval ago, and
   * the next holder takes them within one interval from now: a shard changing hands is never sampled twice
   * within an interval, nor skipped for more than one. A failed unlock throws (Postgres unreachable).
   */
  private async releasePending(): Promise<void> {
    const release = this.pendingRelease;
    this.pendingRelease = [];
    for (const shard of release) {
      if (!this.held.has(shard) || !this.options.session.alive) continue;
      await this.options.session.unlock(shard);
      this.held.delete(shard);
    }
  }

  async release(): Promise<void> {
    this.held.clear();
    this.pendingRelease = [];
    await this.options.session.close();
  }

  private async releaseAll(): Promise<void> {
    for (const shard of [...this.held]) {
      await this.options.session.unlock(shard);
      this.held.delete(shard);
    }
    this.pendingRelease = [];
  }

  private lose(message: string): void {
    this.held.clear();
    this.pendingRelease = [];
    this.options.onChange?.({ kind: 'lost', message });
  }
}

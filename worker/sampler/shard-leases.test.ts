import { describe, expect, it } from 'vitest';
import { ShardLeases } from './shard-leases';
import { shardOfGroup } from './sampler-shards';
import { FakeShardLockTable, type FakeShardLockSession } from './testing/fake-shard-locks';

const INTERVAL_MS = 5_000;
const SHARDS = 8;

interface Instance {
  name: string;
  session: FakeShardLockSession;
  leases: ShardLeases;
  nextTickMs: number;
  dead: boolean;
}

interface Sample {
  atMs: number;
  by: string;
}

/**
 * Instances ticking every interval on a manual clock (each with its own phase), as LagSampler's loop does:
 * tryAcquire, then a round over groupFilter's groups. Every round checks that each shard it samples is
 * locked by its own session at that moment, and records when each shard was sampled and by whom.
 */
class Fleet {
  readonly table = new FakeShardLockTable();
  readonly instances: Instance[] = [];
  readonly samples = new Map<number, Sample[]>();
  nowMs = 0;

  add(name: string, phaseMs: number, shardCount = SHARDS): Instance {
    const session = this.table.session();
    const instance = {
      name,
      session,
      leases: new ShardLeases({ session, shardCount }),
      nextTickMs: this.nowMs + phaseMs,
      dead: false,
    };
    this.instances.push(instance);
    return instance;
  }

  kill(instance: Instance): void {
    instance.session.kill();
    instance.dead = true;
  }

  async runUntil(endMs: number): Promise<void> {
    for (; this.nowMs <= endMs; this.nowMs += 100) {
      for (const instance of this.instances) {
        if (instance.dead || this.nowMs < instance.nextTickMs) continue;
        instance.nextTickMs += INTERVAL_MS;
        if ((await instance.leases.tryAcquire()) !== 'leader') continue;
        const owns = instance.leases.groupFilter();
        for (let shard = 0; shard < SHARDS; shard++) {
          if (!owns(groupInShard(shard))) continue;
          expect(this.table.holders.get(shard), `shard ${shard} sampled by ${instance.name}`).toBe(instance.session.id);
          const list = this.samples.get(shard) ?? [];
          list.push({ atMs: this.nowMs, by: instance.name });
          this.samples.set(shard, list);
        }
      }
    }
  }

  heldBy(instance: Instance): number {
    return [...this.table.holders.values()].filter((id) => id === instance.session.id).length;
  }
}

/** A group id that hashes into `shard`. */
const groupsByShard = new Map<number, string>();
function groupInShard(shard: number): string {
  for (let g = 0; !groupsByShard.has(shard); g++) {
    const id = `group-${g}`;
    if (!groupsByShard.has(shardOfGroup(id, SHARDS))) groupsByShard.set(shardOfGroup(id, SHARDS), id);
  }
  return groupsByShard.get(shard)!;
}

describe('ShardLeases on fake time', () => {
  it('splits shards fairly as instances join, re-covers a dead one within one interval, never samples a shard twice in an interval', async () => {
    const fleet = new Fleet();
    const a = fleet.add('a', 0);
    await fleet.runUntil(12_000);
    expect(fleet.heldBy(a)).toBe(8);

    const b = fleet.add('b', 1_300);
    const c = fleet.add('c', 2_700);
    await fleet.runUntil(40_000);
    expect([a, b, c].map((i) => fleet.heldBy(i)).sort()).toEqual([2, 3, 3]);
    expect(fleet.table.holders.size).toBe(8);

    const killedAtMs = fleet.nowMs;
    fleet.kill(b);
    // Within one interval of its death every shard is held again, by the two survivors, fairly.
    await fleet.runUntil(killedAtMs + INTERVAL_MS);
    expect(fleet.table.holders.size).toBe(8);
    expect([a, c].map((i) => fleet.heldBy(i))).toEqual([4, 4]);
    await fleet.runUntil(80_000);

    for (let shard = 0; shard < SHARDS; shard++) {
      const samples = fleet.samples.get(shard)!;
      expect(samples[0]!.atMs).toBe(0);
      for (let i = 1; i < samples.length; i++) {
        const gap = samples[i]!.atMs - samples[i - 1]!.atMs;
        // Never more than one interval skipped.
        expect(gap, `shard ${shard} at ${samples[i]!.atMs}`).toBeLessThanOrEqual(2 * INTERVAL_MS);
        // Never twice within an interval: a handover waits a tick; only the dead instance's last round is closer.
        if (samples[i - 1]!.by !== 'b' || samples[i - 1]!.atMs < killedAtMs - INTERVAL_MS)
          expect(gap, `shard ${shard} at ${samples[i]!.atMs}`).toBeGreaterThanOrEqual(INTERVAL_MS);
      }
    }
    // The handovers did happen: some shards were sampled by all three.
    const samplers = new Set([...fleet.samples.values()].flatMap((list) => list.map((s) => s.by)));
    expect(samplers).toEqual(new Set(['a', 'b', 'c']));
  });

  it('holds nothing and says unavailable while Postgres cannot be asked, and takes its share again after', async () => {
    const fleet = new Fleet();
    const a = fleet.add('a', 0);
    expect(await a.leases.tryAcquire()).toBe('leader');
    expect(a.leases.shards).toHaveLength(8);
    a.session.unreachable = true;
    expect(await a.leases.tryAcquire()).toBe('unavailable');
    expect(a.leases.isHeld).toBe(false);
    expect(a.leases.shards).toEqual([]);
    expect(a.leases.error?.message).toContain('ECONNREFUSED');
    expect(fleet.table.holders.size).toBe(0); // its session is gone, so are its locks
    a.session.unreachable = false;
    expect(await a.leases.tryAcquire()).toBe('leader');
    expect(a.leases.shards).toHaveLength(8);
  });

  it('stops holding the moment its session dies, and tells', async () => {
    const table = new FakeShardLockTable();
    const session = table.session();
    const events: string[] = [];
    const leases = new ShardLeases({ session, shardCount: 4, onChange: (e) => events.push(e.kind) });
    expect(await leases.tryAcquire()).toBe('leader');
    expect(leases.isHeld).toBe(true);
    session.kill();
    expect(leases.isHeld).toBe(false); // a round running now writes nothing
    expect(await leases.tryAcquire()).toBe('leader'); // a new session joins and takes the free shards again
    expect(events).toEqual(['lost']);
  });

  it('stands down while an unsharded sampler holds the leader lock', async () => {
    const table = new FakeShardLockTable();
    const events: string[] = [];
    const leases = new ShardLeases({
      session: table.session(),
      shardCount: 4,
      onChange: (e) => events.push(e.message),
    });
    expect(await leases.tryAcquire()).toBe('leader');
    table.legacyLeaderHeld = true;
    expect(await leases.tryAcquire()).toBe('follower');
    expect(leases.shards).toEqual([]);
    expect(table.holders.size).toBe(0);
    expect(events).toEqual(['an unsharded sampler (SAMPLER_SHARDS=1) holds the leader lock']);
    table.legacyLeaderHeld = false;
    expect(await leases.tryAcquire()).toBe('leader');
  });

  it('runs the maintenance only on the holder of shard 0, and counts every shard it gains', async () => {
    const fleet = new Fleet();
    const a = fleet.add('a', 0);
    const b = fleet.add('b', 0);
    expect(await a.leases.tryAcquire()).toBe('leader');
    expect(await b.leases.tryAcquire()).toBe('follower'); // a holds all eight
    expect(await a.leases.tryAcquire()).toBe('leader'); // finds 4 above its share: they are sampled once more
    expect(a.leases.shards).toHaveLength(8);
    expect(await a.leases.tryAcquire()).toBe('leader'); // and given back
    expect(a.leases.shards).toEqual([0, 1, 2, 3]);
    expect(await b.leases.tryAcquire()).toBe('leader');
    expect(b.leases.shards).toEqual([4, 5, 6, 7]);
    expect(a.leases.generation).toBe(8);
    expect(b.leases.generation).toBe(4);
    expect(a.leases.runsMaintenance).toBe(true);
    expect(b.leases.runsMaintenance).toBe(false);
  });
});

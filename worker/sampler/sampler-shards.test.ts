import { describe, expect, it } from 'vitest';
import { planShardShare, shardOfGroup, type ShardView } from './sampler-shards';

function view(self: string, members: string[], holders: Record<number, string> = {}, shardCount = 8): ShardView {
  return {
    self,
    members: members.map((id) => ({ id, shardCount })),
    holders: new Map(Object.entries(holders).map(([shard, holder]) => [Number(shard), holder])),
  };
}

describe('shardOfGroup', () => {
  it('puts a group in the same shard every time and spreads many groups evenly', () => {
    expect(shardOfGroup('orders-eu', 8)).toBe(shardOfGroup('orders-eu', 8));
    const counts = new Array<number>(8).fill(0);
    for (let g = 0; g < 8_000; g++) counts[shardOfGroup(`group-${g}`, 8)]! += 1;
    for (const count of counts) {
      expect(count).toBeGreaterThan(850);
      expect(count).toBeLessThan(1_150);
    }
  });

  it('is always a shard in range', () => {
    for (const id of ['', 'a', 'ü-unicode-群組', 'x'.repeat(300)]) {
      const shard = shardOfGroup(id, 7);
      expect(Number.isInteger(shard) && shard >= 0 && shard < 7).toBe(true);
    }
    expect(shardOfGroup('anything', 1)).toBe(0);
  });
});

describe('planShardShare', () => {
  it('gives a lone instance every shard', () => {
    const plan = planShardShare(view('10', ['10']), 8);
    expect(plan).toEqual({ kind: 'share', target: 8, candidates: [0, 1, 2, 3, 4, 5, 6, 7], release: [] });
  });

  it('splits shards into shares that differ by at most one and add up to the count', () => {
    const members = ['3', '11', '7'];
    const targets = members.map((self) => {
      const plan = planShardShare(view(self, members), 8);
      if (plan.kind !== 'share') throw new Error('expected a share');
      return plan.target;
    });
    // Ranked by id numerically: 3, 7, 11; the first 8 mod 3 = 2 take one more.
    expect(targets).toEqual([3, 2, 3]);
  });

  it('offers only free shards, starting where its rank begins, and none while at its share', () => {
    const members = ['1', '2'];
    const plan = planShardShare(view('2', members, { 0: '1', 4: '1', 5: '1' }), 8);
    expect(plan).toEqual({ kind: 'share', target: 4, candidates: [6, 7, 1, 2, 3], release: [] });
    const full = planShardShare(view('2', members, { 0: '2', 1: '2', 2: '2', 3: '2' }), 8);
    expect(full).toMatchObject({ target: 4, release: [] });
  });

  it('gives back the highest shards above its share when an instance joined', () => {
    const all = Object.fromEntries([0, 1, 2, 3, 4, 5, 6, 7].map((s) => [s, '1']));
    const plan = planShardShare(view('1', ['1', '2'], all), 8);
    expect(plan).toEqual({ kind: 'share', target: 4, candidates: [], release: [7, 6, 5, 4] });
  });

  it('counts itself when the view does not list it yet', () => {
    const plan = planShardShare(view('5', ['1'], {}, 4), 4);
    expect(plan).toMatchObject({ kind: 'share', target: 2 });
  });

  it('stands down while a lower-ranked instance runs with another shard count, and outranks a higher one', () => {
    const mixed: ShardView = {
      self: '9',
      members: [
        { id: '4', shardCount: 16 },
        { id: '9', shardCount: 8 },
      ],
      holders: new Map(),
    };
    const plan = planShardShare(mixed, 8);
    expect(plan.kind).toBe('stand-down');
    if (plan.kind === 'stand-down') expect(plan.reason).toContain('16 shards');

    const leading = planShardShare({ ...mixed, self: '4' }, 16);
    // The instance with 8 shards is not a peer: the one with 16 takes them all.
    expect(leading).toMatchObject({ kind: 'share', target: 16 });
  });
});

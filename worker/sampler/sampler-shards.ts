// Sharded sampling: which shard a group belongs to, and which shards one worker instance should hold.
// Pure (no Postgres, no clock): `ShardLeases` (shard-leases.ts) asks Postgres for the view each round and
// applies the plan.
//
// Invariants:
// - A group's shard depends on its id and the shard count only (FNV-1a of the id, modulo the count), so
//   every instance configured with the same SAMPLER_SHARDS puts a group in the same shard, whatever the
//   number of instances. Instances hold whole shards; a group is sampled by the holder of its shard.
// - The fair shares of the live instances add up to the shard count exactly: with N shards and M instances
//   ranked by id, the first N mod M take floor(N/M) + 1 and the rest floor(N/M). Every instance computes the
//   same shares from the same view, so once each has acted on it every shard is held and none twice (the
//   exclusive locks make "twice" impossible at any moment; the shares make "unheld" last at most one round).
// - An instance above its share gives the excess back one tick after it found it (having sampled it in that
//   tick's round), so a shard changing hands is sampled by the old holder and then, between one and two
//   intervals later, by the new one: never twice within an interval, never more than one interval skipped.

/** The shard of `groupId` among `shardCount` shards. */
export function shardOfGroup(groupId: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < groupId.length; i++) hash = Math.imul(hash ^ groupId.charCodeAt(i), 0x01000193) >>> 0;
  return hash % shardCount;
}

/** What Postgres says about one cluster's shards at one moment. */
export interface ShardView {
  /** This instance's id among `members` (its lock session). */
  self: string;
  /** Every live instance (its id and the shard count it is configured with), this one included. */
  members: ReadonlyArray<{ id: string; shardCount: number }>;
  /** The holder of every held shard. */
  holders: ReadonlyMap<number, string>;
}

export type ShardPlan =
  | {
      kind: 'share';
      /** This instance's fair share. */
      target: number;
      /** Free shards to try, best first; stop once `target` are held. */
      candidates: number[];
      /** Held shards above the share, to give back after the round. */
      release: number[];
    }
  /** Another live instance runs with a different shard count and outranks this one: hold nothing. */
  | { kind: 'stand-down'; reason: string };

/**
 * This instance's fair share of `shardCount` shards given `view`.
 *
 * Members configured with another shard count would split groups differently, so two counts must never
 * sample at once: the count of the lowest-ranked member wins and the others stand down (they hold nothing
 * until it is gone or the configuration agrees).
 */
export function planShardShare(view: ShardView, shardCount: number): ShardPlan {
  const ranked = [...view.members].sort((a, b) => compareIds(a.id, b.id));
  const leading = ranked[0];
  if (leading && leading.shardCount !== shardCount) {
    return {
      kind: 'stand-down',
      reason: `instance ${leading.id} samples with ${leading.shardCount} shards, this one is configured with ${shardCount}`,
    };
  }
  const peers = ranked.filter((m) => m.shardCount === shardCount);
  if (!peers.some((m) => m.id === view.self)) peers.push({ id: view.self, shardCount });
  peers.sort((a, b) => compareIds(a.id, b.id));
  const rank = peers.findIndex((m) => m.id === view.self);
  const base = Math.floor(shardCount / peers.length);
  const target = base + (rank < shardCount % peers.length ? 1 : 0);

  const held: number[] = [];
  for (const [shard, holder] of view.holders) if (holder === view.self) held.push(shard);
  held.sort((a, b) => a - b);
  if (held.length > target) return { kind: 'share', target, candidates: [], release: held.slice(target).reverse() };

  // Free shards, starting where this rank's share would begin, so instances that start together try
  // different shards first instead of racing for the same ones.
  const start = Math.floor((rank * shardCount) / peers.length);
  const candidates: number[] = [];
  for (let i = 0; i < shardCount; i++) {
    const shard = (start + i) % shardCount;
    if (!view.holders.has(shard)) candidates.push(shard);
  }
  return { kind: 'share', target, candidates, release: [] };
}

/** Ids are lock-session ids (Postgres backend pids): numeric order when both are numbers. */
function compareIds(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y) && x !== y) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

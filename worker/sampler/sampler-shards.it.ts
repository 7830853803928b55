import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { DEFAULT_CLUSTER } from '../../lib/schemas/values';
import { terminateBackend, testDatabase } from '../../test-support/database';
import { commitOffsets } from '../../test-support/commit-offsets';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { LagSampler } from './lag-sampler';
import { PgShardLocks } from './pg-shard-locks';
import { ShardLeases } from './shard-leases';
import { shardOfGroup } from './sampler-shards';

// Sharded sampling on the real broker and Postgres: two sampler instances split the shards of one
// cluster's groups (Postgres advisory locks), each samples only its own groups, and when one dies (its lock
// session is terminated, as when its process is killed) the other takes its shards and samples its groups.

const databaseUrl = loadTestConfig().DATABASE_URL;
const kafka = testKafka('warden-shards-it');
const INTERVAL_MS = 1_000;
const SHARDS = 4;
const GROUPS = 12;

describe('two sampler instances share the shards', () => {
  const prefix = uniqueName('shards');
  const topic = `${prefix}-in`;
  const groupIds = Array.from({ length: GROUPS }, (_, g) => `${prefix}-g${String(g).padStart(2, '0')}`);
  const lockName = uniqueName('warden:lag-sampler:shards-it');
  let admin: Admin;
  let db: Database;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, 1);
    for (const groupId of groupIds) await commitOffsets(kafka, groupId, topic, [{ partition: 0, offset: '0' }]);
  });

  afterAll(async () => {
    await admin?.disconnect();
    await db?.$disconnect();
  });

  function instance(name: string): { sampler: LagSampler; leases: ShardLeases; locks: PgShardLocks } {
    const locks = new PgShardLocks({ connectionString: databaseUrl, lockName });
    const leases = new ShardLeases({ session: locks, shardCount: SHARDS });
    const sampler = new LagSampler({
      cluster: DEFAULT_CLUSTER,
      reader: new ClusterReader({
        kafka,
        ownGroupId: 'warden-unrelated',
        include: new RegExp(`^${prefix}-g`),
        exclude: null,
      }),
      db,
      lock: leases,
      instanceId: `${prefix}-${name}`,
      intervalMs: INTERVAL_MS,
      maxBackoffMs: 2_000,
      state: {
        timeLagPoints: 10,
        timeLagSpacingMs: 0,
        rateWindowMs: 10_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 0,
      },
      retention: { rawDays: 7, rollupDays: 90 },
      runsMaintenance: false,
    });
    return { sampler, leases, locks };
  }

  /** The groups with a lag_sample row at or after `since`. */
  async function sampledSince(since: Date): Promise<Map<string, Date[]>> {
    const rows = await db.$queryRaw<Array<{ group_id: string; sampled_at: Date }>>`
      SELECT group_id, sampled_at FROM lag_sample
       WHERE cluster = ${DEFAULT_CLUSTER} AND group_id = ANY(${groupIds}::text[]) AND sampled_at >= ${since}
       ORDER BY sampled_at`;
    const byGroup = new Map<string, Date[]>();
    for (const row of rows) byGroup.set(row.group_id, [...(byGroup.get(row.group_id) ?? []), row.sampled_at]);
    return byGroup;
  }

  it('split the shards evenly, sample disjoint groups, and one re-covers the other within an interval of its death', async () => {
    const a = instance('a');
    const b = instance('b');
    try {
      a.sampler.start();
      b.sampler.start();
      await eventually('both to hold two shards', async () =>
        a.leases.shards.length === 2 && b.leases.shards.length === 2 ? true : undefined,
      );
      expect([...a.leases.shards, ...b.leases.shards].sort()).toEqual([0, 1, 2, 3]);

      // Every group is sampled by the holder of its shard and by no one else: over a few rounds, each group's
      // rows are about an interval apart (one sampler's cadence), never two in one round.
      const settled = new Date();
      await new Promise((resolve) => setTimeout(resolve, 4 * INTERVAL_MS));
      const steady = await sampledSince(settled);
      expect([...steady.keys()].sort()).toEqual(groupIds);
      for (const [groupId, times] of steady) {
        for (let i = 1; i < times.length; i++) {
          expect(times[i]!.getTime() - times[i - 1]!.getTime(), groupId).toBeGreaterThan(INTERVAL_MS / 2);
        }
      }

      // b dies: its lock session ends (as when the process is killed) and its loop stops.
      const victimShards = b.leases.shards;
      const victimGroups = groupIds.filter((g) => victimShards.includes(shardOfGroup(g, SHARDS)));
      expect(victimGroups.length).toBeGreaterThan(0);
      const killedAt = Date.now();
      await terminateBackend(databaseUrl, b.locks.sessionId!);
      await b.sampler.stop();
      const takenOverMs = await eventually(
        'a to hold every shard',
        async () => (a.leases.shards.length === SHARDS ? Date.now() - killedAt : undefined),
        10_000,
      );
      // Within one interval, plus the round a may have been in when b died (this machine is shared and busy).
      expect(takenOverMs).toBeLessThan(2 * INTERVAL_MS + 1_000);
      await eventually('a to sample b’s groups', async () => {
        const after = await sampledSince(new Date(killedAt));
        return victimGroups.every((g) => after.has(g)) ? true : undefined;
      });
    } finally {
      await a.sampler.stop();
      await b.sampler.stop();
    }
  });
});

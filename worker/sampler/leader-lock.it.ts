import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestConfig } from '../../test-support/test-config';
import type { Database } from '../../lib/db';
import { terminateBackend, testDatabase } from '../../test-support/database';
import { eventually, testKafka, uniqueName } from '../../test-support/integration';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { LagSampler } from './lag-sampler';
import { LeaderLock } from './leader-lock';

// Exactly one sampler among several instances, on the real Postgres: the advisory lock, a takeover when
// the leader's session dies, and what a sampler does when Postgres cannot be asked at all.

const databaseUrl = loadTestConfig().DATABASE_URL;
const unreachableDatabaseUrl = 'postgresql://postgres@127.0.0.1:1/nowhere';

describe('LeaderLock on the real Postgres', () => {
  it('grants the lock to one instance; the other takes over once the leader session dies', async () => {
    const name = uniqueName('lock');
    const lost: Error[] = [];
    const first = new LeaderLock({ connectionString: databaseUrl, name, onLost: (e) => lost.push(e) });
    const second = new LeaderLock({ connectionString: databaseUrl, name });
    try {
      expect(await first.tryAcquire()).toBe('leader');
      expect(await second.tryAcquire()).toBe('follower');
      expect(await first.tryAcquire()).toBe('leader'); // re-confirming keeps it

      await terminateBackend(databaseUrl, (await first.backendPid())!); // the leader's process or connection dies
      expect(
        await eventually('the old leader to notice', async () => ((await first.confirm()) ? undefined : true)),
      ).toBe(true);
      expect(first.isHeld).toBe(false);
      expect(lost).toHaveLength(1);
      expect(await second.tryAcquire()).toBe('leader');
      expect(await first.tryAcquire()).toBe('follower'); // it competes again and loses
    } finally {
      await first.release();
      await second.release();
    }
  });

  it('hands the lock over at once on a graceful release', async () => {
    const name = uniqueName('lock');
    const first = new LeaderLock({ connectionString: databaseUrl, name });
    const second = new LeaderLock({ connectionString: databaseUrl, name });
    try {
      expect(await first.tryAcquire()).toBe('leader');
      await first.release();
      expect(await second.tryAcquire()).toBe('leader');
    } finally {
      await second.release();
    }
  });

  it('reports unavailable, without throwing, when Postgres cannot be reached', async () => {
    const lock = new LeaderLock({
      connectionString: unreachableDatabaseUrl,
      name: uniqueName('lock'),
      connectTimeoutMs: 1_000,
    });
    expect(await lock.tryAcquire()).toBe('unavailable');
    expect(lock.lastError).not.toBeNull();
    await lock.release();
  });
});

describe('several samplers', () => {
  const kafka = testKafka('warden-leader-it');
  let db: Database;

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  function sampler(lock: LeaderLock): LagSampler {
    return new LagSampler({
      cluster: 'default',
      // No group matches: the rounds are real but cheap.
      reader: new ClusterReader({ kafka, ownGroupId: uniqueName('none'), include: /^$/, exclude: null }),
      db,
      lock,
      instanceId: uniqueName('instance'),
      intervalMs: 200,
      maxBackoffMs: 1_000,
      state: {
        timeLagPoints: 10,
        timeLagSpacingMs: 0,
        rateWindowMs: 10_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 0,
      },
      retention: { rawDays: 7, rollupDays: 90 },
    });
  }

  it('run exactly one round loop at a time, and another takes over when the leader dies', async () => {
    const name = uniqueName('lock');
    let lostSessions = 0;
    const locks = [0, 1, 2].map(
      () => new LeaderLock({ connectionString: databaseUrl, name, onLost: () => (lostSessions += 1) }),
    );
    const samplers = locks.map(sampler);
    let overlaps = 0;
    const watch = setInterval(() => {
      if (samplers.filter((s) => s.isLeader).length > 1) overlaps += 1;
    }, 20);
    try {
      samplers.forEach((s) => s.start());
      const leader = await eventually('one leader', async () => {
        const leaders = samplers.filter((s) => s.isLeader);
        return leaders.length === 1 && leaders[0]!.stats().rounds >= 2 ? leaders[0] : undefined;
      });
      expect(samplers.filter((s) => s !== leader).every((s) => s.stats().rounds === 0)).toBe(true);

      // The leader's lock session dies while its process lives: it stops leading at once; whoever wins the
      // lock next (it may be the same instance) leads alone.
      await terminateBackend(databaseUrl, (await locks[samplers.indexOf(leader)]!.backendPid())!);
      await eventually('the leader to notice', async () => (lostSessions === 1 ? true : undefined));
      await eventually('one leader again', async () =>
        samplers.filter((s) => s.isLeader).length === 1 ? true : undefined,
      );

      // The leader's process exits (its session ends, as with a kill): another instance takes over.
      const current = samplers.find((s) => s.isLeader)!;
      const roundsBefore = new Map(samplers.map((s) => [s, s.stats().rounds]));
      await current.stop();
      const successor = await eventually('a new leader', async () =>
        samplers.find((s) => s !== current && s.isLeader && s.stats().rounds > roundsBefore.get(s)!),
      );
      expect(samplers.filter((s) => s.isLeader)).toEqual([successor]);
      expect(overlaps).toBe(0);
    } finally {
      clearInterval(watch);
      await Promise.all(samplers.map((s) => s.stop()));
    }
  });

  it('skips and counts rounds while Postgres cannot be asked for the lock, and never throws', async () => {
    const lock = new LeaderLock({
      connectionString: unreachableDatabaseUrl,
      name: uniqueName('lock'),
      connectTimeoutMs: 500,
    });
    const lonely = sampler(lock);
    try {
      expect(await lonely.tick()).toBe(200);
      expect(await lonely.tick()).toBe(200);
      expect(lonely.stats()).toMatchObject({ leader: false, rounds: 0, skippedRounds: 2 });
    } finally {
      await lonely.stop();
    }
  });
});

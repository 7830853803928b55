import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { getGroupAdvice } from './get-group-advice';

// Scaling efficiency and the track record through the advice read on real Postgres, from seeded samples: a
// group goes from one member to two while a shared limit holds it at 100 records/s, then catches up.

let db: Database;
const EVERY_MS = 5_000;
const PARTITIONS = 4;
const LOG_END = 100_000;
const options = { timeLagObjectiveMs: null, rateWindowMs: 20_000, targetCatchUpSec: 60 };

beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

/** Rounds at `atMs`: every partition committed at `committed`, owned as `owners` says. */
function round(groupId: string, atMs: number, committed: number, owners: (partition: number) => string) {
  return Array.from({ length: PARTITIONS }, (_, partition) => ({
    sampledAt: new Date(atMs),
    groupId,
    topic: `${groupId}-in`,
    partition,
    committedOffset: BigInt(committed),
    logStartOffset: 0n,
    logEndOffset: BigInt(LOG_END),
    lag: BigInt(LOG_END - committed),
    groupState: 'Stable',
    memberId: owners(partition),
    memberClientId: owners(partition),
    memberHost: '/10.0.0.9',
    groupProtocol: 'RoundRobinAssigner',
  }));
}

describe('scaling efficiency and track record from stored samples', () => {
  const groupId = `track-${randomUUID().slice(0, 8)}`;
  const startMs = Date.now() - 120_000;
  // 13 rounds: 7 with one member, 6 with two; 25 records/s per partition throughout (100/s for the group).
  const committedAt = (i: number) => 50_000 + i * 25 * (EVERY_MS / 1000);
  const lastRoundMs = startMs + 12 * EVERY_MS;

  beforeAll(async () => {
    const data = Array.from({ length: 13 }, (_, i) =>
      round(groupId, startMs + i * EVERY_MS, committedAt(i), (p) => (i < 7 ? 'm1' : p < 2 ? 'm1' : 'm2')),
    ).flat();
    await db.lagSample.createMany({ data });
  });

  it('states the measured scale-out, plans with it and records the plan it shows', async () => {
    const advice = await getGroupAdvice(db, 'default', groupId, options);
    expect(advice.scaling.basis).toBe('measured');
    expect(advice.scaling.sampleSize).toBe(1);
    expect(advice.scaling.latest).toMatchObject({ fromConsumers: 1, toConsumers: 2, linearSpeedup: 2 });
    expect(advice.scaling.latest!.speedup).toBeCloseTo(1, 6);
    expect(advice.scaling.efficiency).toBe(0);
    expect(advice.scaling.statement).toMatch(/^Scaling measured: 1 → 2 consumers gave 1x, not 2x/);
    // 4 x (100,000 - 50,750) records at the group's 100/s, however many consumers run.
    const backlog = PARTITIONS * (LOG_END - committedAt(12));
    const curve = advice.plan!.catchUpSecByConsumers.map((p) => p.catchUpSec!);
    // 3 consumers: one carries two partitions at a third of the group's 100/s. Every count but the current 2
    // costs the rebalance pause first (nothing arrives, so the pause adds only itself).
    const pause = advice.rebalancePause.sec;
    expect(advice.rebalancePause.basis).toBe('default');
    [backlog / 100 + pause, backlog / 100, backlog / 2 / (100 / 3) + pause, backlog / 100 + pause].forEach(
      (expected, i) => expect(curve[i]).toBeCloseTo(expected, 6),
    );
    expect(advice.plan!.summary).toContain('the measured scaling says added consumers bring little throughput');

    expect(advice.trackRecord).toHaveLength(1);
    expect(advice.trackRecord[0]).toMatchObject({
      predictedAt: new Date(lastRoundMs).toISOString(),
      consumersThen: 2,
      backlog,
      thresholdLag: Math.ceil(backlog * 0.02),
      outcome: 'not-yet',
      actualCatchUpSec: null,
    });
    // Read again with no new round: the same plan is not recorded twice.
    expect((await getGroupAdvice(db, 'default', groupId, options)).trackRecord).toHaveLength(1);
  });

  it('resolves the outcome from later rounds and keeps it', async () => {
    const caughtUpMs = lastRoundMs + 40_000;
    await db.lagSample.createMany({
      data: round(groupId, caughtUpMs, LOG_END - 100, (p) => (p < 2 ? 'm1' : 'm2')),
    });
    const advice = await getGroupAdvice(db, 'default', groupId, options);
    const first = advice.trackRecord.find((e) => e.predictedAt === new Date(lastRoundMs).toISOString());
    // The measured scaling (1 → 2 gave 1x) makes more consumers useless: the plan recommended the knee, one
    // consumer, and the two the group kept are at least that, so the plan counts as followed.
    expect(first).toMatchObject({ outcome: 'caught-up', actualCatchUpSec: 40, planFollowed: true });
    const stored = await db.advicePrediction.findFirstOrThrow({
      where: { groupId, predictedAt: new Date(lastRoundMs) },
    });
    expect(stored.predictedConsumers).toBe(1);
    expect(stored.caughtUpAt?.getTime()).toBe(caughtUpMs);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
import { ClusterReader } from '../../lib/kafka/cluster-reader';
import { DEFAULT_CLUSTER } from '../../lib/schemas/values';
import { getLagSeries } from '../../lib/server/get-lag-series';
import { loadGroupRounds } from '../../lib/groups/load-group-rounds';
import { testDatabase } from '../../test-support/database';
import { createTopic, testKafka, uniqueName } from '../../test-support/integration';
import { commitOffsets } from '../../test-support/commit-offsets';
import { LagSampler } from './lag-sampler';

// Idle groups on the real broker and Postgres: the sampler stores a caught-up, unchanged group only every
// idleStoreMs, stores it at once when it moves, and the reads treat the skipped rounds as unchanged. The
// sampler's clock is stepped by hand (5 s per round) so the skips do not wait on real time.

const kafka = testKafka('warden-idle-store-it');
const ROUND_MS = 5_000;
const IDLE_STORE_MS = 20_000;

describe('idle groups: stored every idleStoreMs, read as unchanged', () => {
  const prefix = uniqueName('idle');
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  let admin: Admin;
  let db: Database;
  let sampler: LagSampler;
  // A whole second, so sampled_at (millisecond precision) equals it exactly.
  const startMs = Math.floor(Date.now() / 1000) * 1000;
  let nowMs = startMs;

  beforeAll(async () => {
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, 2);
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [0, 1].map((partition) => ({ partition, value: 'v' })) });
    await producer.disconnect();
    // Caught up: committed at the log end (lag 0), so nothing but time moves.
    const ends = await admin.fetchTopicOffsets(topic);
    await commitOffsets(
      kafka,
      groupId,
      topic,
      ends.map((end) => ({ partition: end.partition, offset: end.high })),
    );
    sampler = new LagSampler({
      cluster: DEFAULT_CLUSTER,
      reader: new ClusterReader({
        kafka,
        ownGroupId: 'warden-unrelated',
        include: new RegExp(`^${groupId}$`),
        exclude: null,
      }),
      db,
      lock: null,
      instanceId: 'idle-store-it',
      intervalMs: ROUND_MS,
      idleStoreMs: IDLE_STORE_MS,
      maxBackoffMs: 2_000,
      state: {
        timeLagPoints: 60,
        timeLagSpacingMs: 0,
        rateWindowMs: 10_000,
        exactTimeLagIntervalMs: 0,
        exactTimeLagMaxPartitions: 100,
      },
      retention: { rawDays: 7, rollupDays: 90 },
      now: () => nowMs,
    });
  });

  afterAll(async () => {
    await sampler?.stop();
    await admin?.disconnect();
    await db?.$disconnect();
  });

  /** One round at the next 5-second step; how many rows it stored. */
  async function round(): Promise<number> {
    nowMs += ROUND_MS;
    const result = await sampler.sampleOnce();
    expect(result.written).toBe(true);
    expect(result.rows).toHaveLength(2);
    return result.storedRows;
  }

  const storedTimes = async () =>
    (await db.lagSample.findMany({ where: { groupId, partition: 0 }, orderBy: { sampledAt: 'asc' } })).map(
      (r) => (r.sampledAt.getTime() - startMs) / 1000,
    );

  it('skips the unchanged rounds, stores one every idleStoreMs, and stores a change at once', async () => {
    const stored: number[] = [];
    // Until the rates settle (the first rounds have no rate history yet), then unchanged.
    for (let i = 0; i < 12; i++) stored.push(await round());
    expect(stored.slice(0, 1)).toEqual([2]);
    const skipped = stored.filter((n) => n === 0).length;
    expect(skipped).toBeGreaterThanOrEqual(6);
    const times = await storedTimes();
    // Once idle, stored rounds are exactly idleStoreMs apart (4 rounds): 20 s.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.at(-1)).toBe(IDLE_STORE_MS / 1000);
    expect(Math.max(...gaps)).toBe(IDLE_STORE_MS / 1000);

    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ partition: 1, value: 'moved' }] });
    await producer.disconnect();
    expect(await round()).toBe(2); // the whole group, both partitions
  });

  it('reads the skipped rounds as unchanged: every 5-second step of the chart has its value, rates 0', async () => {
    const series = await getLagSeries(
      db,
      DEFAULT_CLUSTER,
      groupId,
      {
        fromMs: startMs + ROUND_MS,
        toMs: nowMs + 1,
        stepMs: ROUND_MS,
      },
      7,
    );
    const p0 = series.partitions.find((p) => p.partition === 0)!;
    expect(p0.lag).toHaveLength(13);
    expect(p0.lag.every((v) => v === 0)).toBe(true);
    expect(p0.timeLagMs.every((v) => v === 0)).toBe(true);
    // Stored steps say 'exact' (the sampler read the record), the steps between 'caught-up': never unknown.
    expect(p0.timeLagKind.every((k) => k === 'exact' || k === 'caught-up')).toBe(true);
    expect(p0.timeLagKind).toContain('caught-up');
    const p1 = series.partitions.find((p) => p.partition === 1)!;
    expect(p1.lag.at(-1)).toBe(1);
    expect(p1.lag.slice(0, -1).every((v) => v === 0)).toBe(true);
    // Steps between stored rounds: nothing arrived.
    expect(p0.arrivalRatePerSec.slice(-6, -1)).toEqual([0, 0, 0, 0, 0]);
    expect(series.totals.lag.every((v) => v !== null)).toBe(true);
  });

  it('reads a silence longer than a minute as a gap, not as unchanged', async () => {
    nowMs += 70_000;
    await sampler.sampleOnce();
    const series = await getLagSeries(
      db,
      DEFAULT_CLUSTER,
      groupId,
      {
        fromMs: nowMs - 80_000,
        toMs: nowMs + 1,
        stepMs: ROUND_MS,
      },
      7,
    );
    const p0 = series.partitions.find((p) => p.partition === 0)!;
    const nulls = p0.lag.filter((v) => v === null).length;
    // 70 s without a round: the steps more than a minute after the last stored round are empty.
    expect(nulls).toBeGreaterThanOrEqual(1);
    expect(p0.lag.at(-1)).toBe(0);
  });

  it("the group page's newest round is a whole stored round", async () => {
    const [group] = await loadGroupRounds(db, {
      cluster: DEFAULT_CLUSTER,
      groupIds: [groupId],
      historyMs: 600_000,
      nowMs,
    });
    expect(group?.rows.map((r) => r.partition)).toEqual([0, 1]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { runMaintenance } from './retention';
import { listSamplePartitions, samplePartitionName } from './sample-partitions';

// Rollups and retention on the real Postgres, with an explicit `now`; only this test's rows are old enough
// to be deleted, so the other files' rows are left alone.

const DAY = 86_400_000;

describe('runMaintenance', () => {
  let db: Database;

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  it('rolls complete minutes up, keeps raw rows for the retention, then deletes them and old history', async () => {
    const groupId = uniqueName('ret');
    const topic = `${groupId}-t`;
    // hh:m5:30: the minutes below (m3, m4, m5) share one ten minutes, [m0, m10).
    const now = new Date(Math.floor(Date.now() / 600_000) * 600_000 + 5 * 60_000 + 30_000);
    const tenMinutes = (row: {
      bucket: Date;
      lastMinute: Date;
      maxLag: bigint | null;
      avgLag: number | null;
      maxTimeLagMs: bigint | null;
      lastCommitted: bigint | null;
      lastLogEnd: bigint;
      samples: number;
    }) => [
      row.bucket.getTime(),
      row.lastMinute.getTime(),
      row.maxLag,
      row.avgLag,
      row.maxTimeLagMs,
      row.lastCommitted,
      row.lastLogEnd,
      row.samples,
    ];
    const minute = (offsetMinutes: number, seconds: number) =>
      new Date(now.getTime() - 30_000 + offsetMinutes * 60_000 + seconds * 1_000);
    const sample = (
      sampledAt: Date,
      committed: bigint | null,
      logEnd: bigint,
      timeLagMs: bigint | null,
      exactTimeLagMs: bigint | null = null,
    ) => ({
      sampledAt,
      groupId,
      topic,
      partition: 0,
      committedOffset: committed,
      logStartOffset: 0n,
      logEndOffset: logEnd,
      lag: committed === null ? null : logEnd - committed,
      groupState: 'Stable',
      timeLagMs,
      timeLagKind: 'interpolated',
      exactTimeLagMs,
    });
    await db.lagSample.createMany({
      data: [
        sample(minute(-2, 5), 10n, 30n, 1_000n), // lag 20
        sample(minute(-2, 35), 25n, 35n, 4_000n, 2_500n), // lag 10, exact time lag preferred
        sample(minute(-1, 10), null, 40n, null), // no commit: no lag
        sample(minute(0, 0), 40n, 40n, 0n), // the current minute: not rolled up yet
        sample(new Date(now.getTime() - 8 * DAY), 1n, 2n, 0n), // beyond the 7-day raw retention
      ],
    });
    await db.lagRollup.create({
      data: { groupId, topic, partition: 0, bucket: new Date(now.getTime() - 91 * DAY), lastLogEnd: 1n, samples: 1 },
    });
    const old = new Date(Math.floor((now.getTime() - 91 * DAY) / 600_000) * 600_000);
    await db.lagRollup10m.create({
      data: { groupId, topic, partition: 0, bucket: old, lastMinute: old, lastLogEnd: 1n, samples: 1 },
    });
    await db.rebalanceEvent.create({
      data: {
        groupId,
        source: 'describe-groups',
        startedAt: new Date(now.getTime() - 91 * DAY),
        membersBefore: [],
        membersAfter: [],
        trigger: 'join',
      },
    });
    await db.logEndPoint.createMany({
      data: [
        { topic: `${topic}-gone`, partition: 0, offset: 1n, at: new Date(now.getTime() - 8 * DAY) },
        { topic, partition: 0, offset: 1n, at: new Date(now.getTime() - 8 * DAY) }, // old, but its partition is still observed:
        { topic, partition: 0, offset: 40n, at: minute(0, 0) }, //                        a flat run's first point is history
      ],
    });
    await db.consumerPartitionState.create({
      data: {
        groupId,
        topic,
        partition: 0,
        instanceId: 'gone',
        sampledAt: new Date(now.getTime() - 2 * 3_600_000),
        inFlight: 0,
        completedUncommitted: 0,
        buffered: 0,
        bufferedBytes: 0,
        paused: false,
      },
    });

    // A bucket in the future (a clock that jumped back) must not stop the rollups.
    await db.lagRollup.create({
      data: {
        groupId: `${groupId}-future`,
        topic,
        partition: 0,
        bucket: new Date(now.getTime() + 30 * DAY),
        lastLogEnd: 1n,
        samples: 1,
      },
    });

    const result = await runMaintenance(db, { now, rawRetentionDays: 7, rollupRetentionDays: 90 });

    const rollups = await db.lagRollup.findMany({ where: { groupId }, orderBy: { bucket: 'asc' } });
    expect(
      rollups.map((r) => [
        r.bucket.getTime(),
        r.maxLag,
        r.avgLag,
        r.maxTimeLagMs,
        r.lastCommitted,
        r.lastLogEnd,
        r.samples,
      ]),
    ).toEqual([
      [minute(-2, 0).getTime(), 20n, 15, 2_500n, 25n, 35n, 2],
      [minute(-1, 0).getTime(), null, null, null, null, 40n, 1],
    ]);
    // Ten minutes from those minutes (and none from the future bucket, nor the 91-day-old one, deleted): the
    // newest minute's offsets (no commit), the average weighted by sample counts over minutes with a lag.
    const tenMinuteStart = minute(-5, 0).getTime();
    expect((await db.lagRollup10m.findMany({ where: { groupId } })).map(tenMinutes)).toEqual([
      [tenMinuteStart, minute(-1, 0).getTime(), 20n, 15, 2_500n, null, 40n, 3],
    ]);
    expect(await db.lagSample.count({ where: { groupId } })).toBe(4); // only the 8-day-old row went
    expect(await db.rebalanceEvent.count({ where: { groupId } })).toBe(0);
    expect(
      (await db.logEndPoint.findMany({ where: { topic: { startsWith: topic } } })).map((p) => [p.topic, p.offset]),
    ).toEqual([
      [topic, 1n],
      [topic, 40n],
    ]);
    expect(await db.consumerPartitionState.count({ where: { groupId } })).toBe(0);
    expect(result.deletedSamples).toBeGreaterThanOrEqual(1); // from the default partition: no day of its own
    // The raw retention's days and two ahead have their partitions (made by this run or an earlier one).
    const days = new Set((await listSamplePartitions(db)).map((p) => p.name));
    for (let day = -7; day <= 2; day++) expect(days).toContain(samplePartitionName(now.getTime() + day * DAY));

    // Idempotent: a second run recomputes the newest bucket without double counting.
    await runMaintenance(db, { now, rawRetentionDays: 7, rollupRetentionDays: 90 });
    const again = await db.lagRollup.findMany({ where: { groupId }, orderBy: { bucket: 'asc' } });
    expect(again.map((r) => r.samples)).toEqual([2, 1]);
    expect((await db.lagRollup10m.findMany({ where: { groupId } })).map((r) => r.samples)).toEqual([3]);

    // The next minute completes: its row joins the rollups.
    await runMaintenance(db, { now: new Date(now.getTime() + 60_000), rawRetentionDays: 7, rollupRetentionDays: 90 });
    expect(
      (await db.lagRollup.findMany({ where: { groupId }, orderBy: { bucket: 'asc' } })).map((r) => [
        r.maxLag,
        r.samples,
      ]),
    ).toEqual([
      [20n, 2],
      [null, 1],
      [0n, 1],
    ]);
    // ...and brings the partial ten minutes up to date.
    expect((await db.lagRollup10m.findMany({ where: { groupId } })).map(tenMinutes)).toEqual([
      [tenMinuteStart, minute(0, 0).getTime(), 20n, 10, 2_500n, 40n, 40n, 4],
    ]);
    await db.lagRollup.deleteMany({ where: { groupId: { startsWith: groupId } } });
    await db.lagRollup10m.deleteMany({ where: { groupId: { startsWith: groupId } } });
  });

  it('keeps record losses 90 days after they end (open ones always), and topic settings no sampler read for the raw retention go', async () => {
    const groupId = uniqueName('ret-loss');
    const cluster = uniqueName('ret-cluster');
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const loss = (partition: number, detectedDaysAgo: number, endedDaysAgo: number | null) => ({
      cluster,
      groupId,
      topic: 't',
      partition,
      fromOffset: 0n,
      toOffset: 9n,
      count: 10n,
      basis: 'below-log-start',
      detectedAt: ago(detectedDaysAgo),
      updatedAt: ago(detectedDaysAgo),
      endedAt: endedDaysAgo === null ? null : ago(endedDaysAgo),
    });
    await db.recordLoss.createMany({
      data: [loss(0, 120, 91), loss(1, 120, 89), loss(2, 200, null)],
    });
    const settings = (topic: string, readDaysAgo: number) => ({
      cluster,
      topic,
      cleanupPolicy: 'delete',
      retentionMs: 1n,
      readAt: ago(readDaysAgo),
      changedAt: ago(30),
    });
    await db.topicRetention.createMany({ data: [settings('gone', 8), settings('read', 0)] });

    const result = await runMaintenance(db, { now, rawRetentionDays: 7, rollupRetentionDays: 90 });

    expect(
      (await db.recordLoss.findMany({ where: { cluster }, orderBy: { partition: 'asc' } })).map((r) => r.partition),
    ).toEqual([1, 2]);
    expect(result.deletedLosses).toBeGreaterThanOrEqual(1);
    expect((await db.topicRetention.findMany({ where: { cluster } })).map((r) => r.topic)).toEqual(['read']);
    expect(result.deletedTopicRetention).toBeGreaterThanOrEqual(1);
    await db.recordLoss.deleteMany({ where: { cluster } });
    await db.topicRetention.deleteMany({ where: { cluster } });
  });
});

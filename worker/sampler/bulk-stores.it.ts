import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePostgresPool, type Database } from '../../lib/db';
import { testDatabase } from '../../test-support/database';
import { uniqueName } from '../../test-support/integration';
import { insertLagSamples } from './lag-sample-store';
import { LogEndPointStore } from './log-end-point-store';
import { LogEndPointTables } from './log-end-point-tables';
import type { LagSampleRow } from './sampler-state';

// The sampler's COPY writes on the real Postgres: what goes in comes back unchanged (text that COPY's format
// must escape, nulls, large offsets, fractional rates), a duplicate key is kept once, a failing batch stores
// nothing, and the log-end points get ids the tables can delete them by.

const AT = new Date('2026-12-01T10:00:00.123Z');

describe('COPY writes of lag_sample and log_end_point', () => {
  let db: Database;
  const cluster = uniqueName('copy-cluster');
  const groupId = uniqueName('copy\tgroup\\with "quotes"\nand é');

  beforeAll(() => {
    db = testDatabase();
  });

  afterAll(async () => {
    await db.lagSample.deleteMany({ where: { cluster } });
    await db.logEndPoint.deleteMany({ where: { cluster } });
    await db?.$disconnect();
  });

  const row = (partition: number, overrides: Partial<LagSampleRow> = {}): LagSampleRow => ({
    sampledAt: AT,
    groupId,
    topic: 'orders\r\\N',
    partition,
    committedOffset: 9_007_199_254_740_993n,
    logStartOffset: 0n,
    logEndOffset: 9_007_199_254_740_999n,
    lag: 6n,
    groupState: 'Stable',
    memberId: 'member-\\t-1',
    memberClientId: null,
    memberHost: '/10.0.0.1',
    groupProtocol: null,
    timeLagMs: 1_234n,
    timeLagKind: 'interpolated',
    exactTimeLagMs: null,
    arrivalRatePerSec: 0.1 + 0.2,
    consumptionRatePerSec: null,
    ...overrides,
  });

  const stored = () =>
    db.lagSample.findMany({
      where: { cluster },
      orderBy: { partition: 'asc' },
      select: {
        sampledAt: true,
        groupId: true,
        topic: true,
        partition: true,
        committedOffset: true,
        logStartOffset: true,
        logEndOffset: true,
        lag: true,
        groupState: true,
        memberId: true,
        memberClientId: true,
        memberHost: true,
        groupProtocol: true,
        timeLagMs: true,
        timeLagKind: true,
        exactTimeLagMs: true,
        arrivalRatePerSec: true,
        consumptionRatePerSec: true,
      },
    });

  it('stores every column as given, escapes included, and keeps a duplicate key once', async () => {
    const pool = nodePostgresPool(db);
    const rows = [row(0), row(1, { committedOffset: null, lag: null, memberId: null, timeLagMs: null })];
    expect(await insertLagSamples(pool, cluster, rows)).toBe(2);
    expect(await stored()).toEqual(rows);

    // The same key again (and one new row): the stored row stays, the new one is added.
    const again = [row(1, { groupState: 'Empty' }), row(2)];
    expect(await insertLagSamples(pool, cluster, again)).toBe(1);
    expect((await stored()).map((r) => [r.partition, r.groupState])).toEqual([
      [0, 'Stable'],
      [1, 'Stable'],
      [2, 'Stable'],
    ]);
  });

  it('stores nothing of a batch Postgres refuses, and the next batch on the same pool is stored', async () => {
    const pool = nodePostgresPool(db);
    const before = (await stored()).length;
    // partition is an int column: 2^31 is out of range, so the whole COPY fails.
    await expect(insertLagSamples(pool, cluster, [row(10), row(2 ** 31)])).rejects.toThrow(/out of range/);
    expect(await stored()).toHaveLength(before);
    // Every connection of the pool (the failed one included) still writes.
    await Promise.all([insertLagSamples(pool, cluster, [row(11)]), insertLagSamples(pool, cluster, [row(12)])]);
    expect((await stored()).map((r) => r.partition)).toEqual([0, 1, 2, 11, 12]);
  });

  it('saves log-end points with ids that load and delete them', async () => {
    const pool = nodePostgresPool(db);
    const store = new LogEndPointStore(pool, cluster);
    const tables = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    tables.observe('t\tab', 0, 10, 1_000);
    tables.observe('t\tab', 0, 20, 2_000);
    tables.observe('t\tab', 1, 5, 1_000);
    expect(await store.save(tables)).toEqual({ inserted: 3, deleted: 0 });
    expect(await store.save(tables)).toEqual({ inserted: 0, deleted: 0 });

    // A third point drops the oldest of partition 0: its row goes by the id the save gave it.
    tables.observe('t\tab', 0, 30, 3_000);
    expect(await store.save(tables)).toEqual({ inserted: 1, deleted: 1 });
    const rows = await db.logEndPoint.findMany({ where: { cluster }, orderBy: [{ partition: 'asc' }, { at: 'asc' }] });
    expect(rows.map((r) => [r.topic, r.partition, Number(r.offset), r.at.getTime()])).toEqual([
      ['t\tab', 0, 20, 2_000],
      ['t\tab', 0, 30, 3_000],
      ['t\tab', 1, 5, 1_000],
    ]);

    const loaded = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    expect(await store.load(loaded, 2)).toBe(3);
    expect(loaded.pointsOf('t\tab', 0)).toEqual([
      { offset: 20, atMs: 2_000 },
      { offset: 30, atMs: 3_000 },
    ]);
    // The loaded ids are the stored ones: dropping a loaded point deletes its row.
    loaded.observe('t\tab', 1, 2, 4_000); // the log end moved backwards: the partition restarts
    expect(await store.save(loaded)).toEqual({ inserted: 1, deleted: 1 });
    expect(await db.logEndPoint.count({ where: { cluster, partition: 1 } })).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { LogEndPointTables } from './log-end-point-tables';

const T = 'orders';

/** Persists every pending change with made-up ids, as the store would. */
function persist(tables: LogEndPointTables, nextId: { value: bigint }) {
  const changes = tables.takeChanges();
  tables.confirmInserted(changes.inserts.map((i) => ({ point: i.point, id: (nextId.value += 1n) })));
  return changes;
}

describe('LogEndPointTables', () => {
  it('rejects a window without a pair of points and a negative spacing', () => {
    expect(() => new LogEndPointTables({ maxPoints: 1, spacingMs: 0 })).toThrow(/maxPoints/);
    expect(() => new LogEndPointTables({ maxPoints: 2, spacingMs: -1 })).toThrow(/spacingMs/);
  });

  it('persists at most one point per spacing, but estimates with the current log end', () => {
    const tables = new LogEndPointTables({ maxPoints: 10, spacingMs: 30_000 });
    tables.observe(T, 0, 100, 0);
    tables.observe(T, 0, 110, 5_000); // within the spacing: not stored
    tables.observe(T, 0, 160, 30_000);
    expect(tables.pointsOf(T, 0)).toEqual([
      { offset: 100, atMs: 0 },
      { offset: 160, atMs: 30_000 },
    ]);
    // Committed 130 lies between the stored points: produced at 15 s; at 40 s it waited 25 s.
    expect(tables.estimate(T, 0, 130, 170, 40_000)).toEqual({ ms: 25_000, kind: 'interpolated' });
    // Between the newest stored point and the current log end (transient point at now).
    expect(tables.estimate(T, 0, 165, 170, 40_000)).toEqual({ ms: 5_000, kind: 'interpolated' });
  });

  it('reports an idle, caught-up partition as 0 ms caught-up, never NaN', () => {
    const tables = new LogEndPointTables({ maxPoints: 5, spacingMs: 0 });
    for (let t = 0; t <= 60_000; t += 5_000) tables.observe(T, 0, 42, t);
    expect(tables.pointsOf(T, 0)).toEqual([
      { offset: 42, atMs: 0 },
      { offset: 42, atMs: 60_000 },
    ]);
    expect(tables.estimate(T, 0, 42, 42, 65_000)).toEqual({ ms: 0, kind: 'caught-up' });
  });

  it('reports unknown for a partition never committed, even with points', () => {
    const tables = new LogEndPointTables({ maxPoints: 5, spacingMs: 0 });
    tables.observe(T, 0, 10, 0);
    expect(tables.estimate(T, 0, null, 10, 1_000)).toEqual({ ms: null, kind: 'unknown' });
  });

  it('gives a lower bound, not an extrapolation, for a consumer rewound before the window', () => {
    const tables = new LogEndPointTables({ maxPoints: 3, spacingMs: 0 });
    tables.observe(T, 0, 1_000, 10_000);
    tables.observe(T, 0, 2_000, 20_000);
    expect(tables.estimate(T, 0, 0, 2_000, 25_000)).toEqual({ ms: 15_000, kind: 'lower-bound' });
  });

  it('hands out inserts and deletes so the database mirrors memory, including a moving flat run', () => {
    const tables = new LogEndPointTables({ maxPoints: 3, spacingMs: 0 });
    const ids = { value: 0n };
    tables.observe(T, 0, 5, 1_000);
    tables.observe(T, 0, 5, 2_000);
    expect(persist(tables, ids)).toMatchObject({
      inserts: [{ point: { offset: 5, atMs: 1_000 } }, { point: { offset: 5, atMs: 2_000 } }],
      deletes: [],
    });
    tables.observe(T, 0, 5, 3_000); // the flat run's last point moves: row 2 replaced
    const moved = persist(tables, ids);
    expect(moved.deletes).toEqual([2n]);
    expect(moved.inserts.map((i) => i.point)).toEqual([{ offset: 5, atMs: 3_000 }]);
    tables.observe(T, 0, 9, 4_000);
    tables.observe(T, 0, 12, 5_000); // window of 3: the oldest (row 1) goes
    const trimmed = persist(tables, ids);
    expect(trimmed.deletes).toEqual([1n]);
    expect(tables.pointsOf(T, 0).map((p) => p.offset)).toEqual([5, 9, 12]);
  });

  it('never writes a point that was dropped before it was stored', () => {
    const tables = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    tables.observe(T, 0, 1, 1_000);
    tables.observe(T, 0, 2, 2_000);
    tables.observe(T, 0, 3, 3_000);
    const changes = tables.takeChanges();
    expect(changes.inserts.map((i) => i.point.offset)).toEqual([2, 3]);
    expect(changes.deletes).toEqual([]);
  });

  it('retries failed writes: unconfirmed inserts stay pending and restored deletes come back', () => {
    const tables = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    const ids = { value: 0n };
    tables.observe(T, 0, 1, 1_000);
    persist(tables, ids);
    tables.observe(T, 0, 2, 2_000);
    tables.observe(T, 0, 3, 3_000);
    const failed = tables.takeChanges(); // the write fails
    tables.restoreDeletes(failed.deletes);
    const retried = tables.takeChanges();
    expect(retried.deletes).toEqual([1n]);
    expect(retried.inserts.map((i) => i.point.offset)).toEqual([2, 3]);
  });

  it('queues the late row of a point dropped while its insert was in flight', () => {
    const tables = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    tables.observe(T, 0, 1, 1_000);
    const inFlight = tables.takeChanges();
    tables.observe(T, 0, 2, 2_000);
    tables.observe(T, 0, 3, 3_000); // offset 1 leaves the window before its insert is confirmed
    tables.confirmInserted(inFlight.inserts.map((i) => ({ point: i.point, id: 7n })));
    expect(tables.takeChanges().deletes).toEqual([7n]);
  });

  it('restarts a table whose log end moved backwards (topic recreated), immediately', () => {
    const tables = new LogEndPointTables({ maxPoints: 5, spacingMs: 60_000 });
    const ids = { value: 0n };
    tables.observe(T, 0, 500, 0);
    persist(tables, ids);
    tables.observe(T, 0, 3, 1_000);
    expect(tables.pointsOf(T, 0)).toEqual([{ offset: 3, atMs: 1_000 }]);
    expect(tables.takeChanges().deletes).toEqual([1n]);
  });

  it('forgets partitions it no longer observes and deletes their rows (topic deleted)', () => {
    const tables = new LogEndPointTables({ maxPoints: 5, spacingMs: 0 });
    const ids = { value: 0n };
    tables.observe('gone', 0, 4, 0);
    tables.observe(T, 0, 4, 0);
    persist(tables, ids);
    tables.retainWhere((topic, partition) => topic === T && partition === 0);
    expect(tables.pointsOf('gone', 0)).toEqual([]);
    expect(tables.partitionCount).toBe(1);
    expect(tables.takeChanges().deletes).toEqual([1n]);
  });

  it('loads stored rows in any order, normalising them and deleting rows that do not fit', () => {
    const tables = new LogEndPointTables({ maxPoints: 2, spacingMs: 0 });
    tables.load([
      { id: 3n, topic: T, partition: 0, offset: 30, atMs: 3_000 },
      { id: 1n, topic: T, partition: 0, offset: 10, atMs: 1_000 },
      { id: 2n, topic: T, partition: 0, offset: 20, atMs: 2_000 },
      { id: 4n, topic: T, partition: 1, offset: 7, atMs: 1_000 },
      { id: 5n, topic: T, partition: 1, offset: 7, atMs: 1_000 }, // duplicate time: ignored
    ]);
    expect(tables.pointsOf(T, 0)).toEqual([
      { offset: 20, atMs: 2_000 },
      { offset: 30, atMs: 3_000 },
    ]);
    expect(tables.pointsOf(T, 1)).toEqual([{ offset: 7, atMs: 1_000 }]);
    const changes = tables.takeChanges();
    expect(changes.inserts).toEqual([]);
    expect([...changes.deletes].sort()).toEqual([1n, 5n]);
  });
});

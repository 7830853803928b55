import type { Database } from '../../lib/db';
import type { LogEndPointTables } from './log-end-point-tables';

/**
 * Mirrors the in-memory log-end tables to log_end_point. Loading happens once per leadership; saving once
 * per round with one delete and one insert statement (array parameters) whatever the number of partitions. A failed save
 * leaves the changes queued in the tables (retried with the next round) and rethrows. One store per cluster:
 * it reads and writes only that cluster's points (topics of two clusters may share names).
 */
export class LogEndPointStore {
  constructor(
    private readonly db: Database,
    private readonly cluster: string,
  ) {}

  /**
   * Loads the newest `maxPoints` points of every partition into `tables` (replacing what they held); with
   * `topics`, of those topics only (a sharded holder's, so it never prunes points other holders keep).
   */
  async load(tables: LogEndPointTables, maxPoints: number, topics?: readonly string[]): Promise<number> {
    const everyTopic = topics === undefined;
    const rows = await this.db.$queryRaw<
      Array<{ id: bigint; topic: string; partition: number; offset: bigint; at: Date }>
    >`
      SELECT id, topic, partition, "offset", at FROM (
        SELECT id, topic, partition, "offset", at,
               row_number() OVER (PARTITION BY topic, partition ORDER BY at DESC, id DESC) AS newest_first
        FROM log_end_point
        WHERE cluster = ${this.cluster} AND (${everyTopic} OR topic = ANY(${[...(topics ?? [])]}::text[]))
      ) ranked
      WHERE newest_first <= ${maxPoints}`;
    tables.load(
      rows.map((r) => ({
        id: r.id,
        topic: r.topic,
        partition: r.partition,
        offset: Number(r.offset),
        atMs: r.at.getTime(),
      })),
    );
    return rows.length;
  }

  async save(tables: LogEndPointTables): Promise<{ inserted: number; deleted: number }> {
    const { inserts, deletes } = tables.takeChanges();
    try {
      if (deletes.length > 0) await this.db.$executeRaw`DELETE FROM log_end_point WHERE id = ANY(${deletes}::bigint[])`;
    } catch (error) {
      tables.restoreDeletes(deletes);
      throw error;
    }
    if (inserts.length === 0) return { inserted: 0, deleted: deletes.length };
    const stored = await this.db.$queryRaw<
      Array<{ id: bigint; topic: string; partition: number; offset: bigint; at: Date }>
    >`
      INSERT INTO log_end_point (cluster, topic, partition, "offset", at)
      SELECT ${this.cluster}, * FROM unnest(
        ${inserts.map((i) => i.topic)}::text[], ${inserts.map((i) => i.partition)}::int[],
        ${inserts.map((i) => BigInt(i.point.offset))}::bigint[], ${inserts.map((i) => new Date(i.point.atMs))}::timestamptz[])
      RETURNING id, topic, partition, "offset", at`;
    // Rows come back in insert order in practice, but matching by value does not rely on it (a partition
    // never holds two points with the same time).
    const byValue = new Map(
      inserts.map((i) => [
        `${i.topic}\u0000${i.partition}\u0000${BigInt(i.point.offset)}\u0000${i.point.atMs}`,
        i.point,
      ]),
    );
    tables.confirmInserted(
      stored.flatMap((row) => {
        const point = byValue.get(`${row.topic}\u0000${row.partition}\u0000${row.offset}\u0000${row.at.getTime()}`);
        return point ? [{ point, id: row.id }] : [];
      }),
    );
    return { inserted: stored.length, deleted: deletes.length };
  }
}

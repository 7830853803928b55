import type pg from 'pg';
import { copyLines, copyText, inTransaction } from './copy-text';
import type { LogEndPointTables, PointInsert } from './log-end-point-tables';

/**
 * Mirrors the in-memory log-end tables to log_end_point. Loading happens once per leadership; saving once
 * per round with one delete (an array parameter) and, for the new points, ids drawn from the table's sequence
 * and one COPY, whatever the number of partitions. A failed save leaves the changes queued in the tables
 * (retried with the next round) and rethrows. One store per cluster: it reads and writes only that cluster's
 * points (topics of two clusters may share names).
 */
export class LogEndPointStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly cluster: string,
  ) {}

  /**
   * Loads the newest `maxPoints` points of every partition into `tables` (replacing what they held); with
   * `topics`, of those topics only (a sharded holder's, so it never prunes points other holders keep).
   */
  async load(tables: LogEndPointTables, maxPoints: number, topics?: readonly string[]): Promise<number> {
    const { rows } = await this.pool.query<{ id: string; topic: string; partition: number; offset: string; at: Date }>(
      `SELECT id, topic, partition, "offset", at FROM (
         SELECT id, topic, partition, "offset", at,
                row_number() OVER (PARTITION BY topic, partition ORDER BY at DESC, id DESC) AS newest_first
         FROM log_end_point WHERE cluster = $1 AND ($3::text[] IS NULL OR topic = ANY($3::text[]))
       ) ranked
       WHERE newest_first <= $2`,
      [this.cluster, maxPoints, topics === undefined ? null : [...topics]],
    );
    tables.load(
      rows.map((r) => ({
        id: BigInt(r.id),
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
      if (deletes.length > 0) {
        await this.pool.query('DELETE FROM log_end_point WHERE id = ANY($1::bigint[])', [deletes.map(String)]);
      }
    } catch (error) {
      tables.restoreDeletes(deletes);
      throw error;
    }
    if (inserts.length === 0) return { inserted: 0, deleted: deletes.length };
    const clusterText = copyText(this.cluster);
    const ids = await inTransaction(this.pool, async (client) => {
      const drawn = await client.query<{ id: string }>(
        `SELECT nextval(pg_get_serial_sequence('log_end_point', 'id'))::text AS id FROM generate_series(1, $1::int)`,
        [inserts.length],
      );
      const ids = drawn.rows.map((r) => r.id);
      let index = 0;
      await copyLines(
        client,
        'log_end_point (id, cluster, topic, partition, "offset", at)',
        inserts,
        (insert: PointInsert) =>
          `${ids[index++]}\t${clusterText}\t${copyText(insert.topic)}\t${insert.partition}\t${insert.point.offset}\t${new Date(insert.point.atMs).toISOString()}`,
      );
      return ids;
    });
    tables.confirmInserted(inserts.map((insert, i) => ({ point: insert.point, id: BigInt(ids[i]!) })));
    return { inserted: inserts.length, deleted: deletes.length };
  }
}

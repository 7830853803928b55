import type pg from 'pg';
import { inTransaction } from './copy-text';
import {
  isBelowLogStart,
  lossKey,
  planLossChanges,
  type LossIncrement,
  type LossPosition,
  type OpenLoss,
} from './record-loss';

/**
 * Applies one round's record losses (record-loss.ts) to record_loss. Each write reads the open episodes of
 * the round's groups first, inside one transaction under an advisory lock per cluster, so a new leader (or an
 * old one finishing its last round) extends or ends the episode another instance opened, never a second one.
 * A round touches Postgres only when it has something to look at: a position below its log start, a
 * partition with an episode this store knows is open, or the first round after leadership (reset()), which
 * learns the open episodes. A failed write rejects and changes nothing; the next round plans again from
 * Postgres, so nothing is lost or counted twice.
 */
export class RecordLossStore {
  /** Keys of the open episodes of the groups rounds showed; null until the first write learns them. */
  private openKeys: Set<string> | null = null;

  constructor(
    private readonly pool: pg.Pool,
    private readonly cluster: string,
  ) {}

  /** Forgets what it knew of the open episodes (a new leadership: another instance may have written since). */
  reset(): void {
    this.openKeys = null;
  }

  /** Writes the round's changes; returns the records newly found lost (for the counter). */
  async apply(positions: readonly LossPosition[], nowMs: number): Promise<LossIncrement[]> {
    const known = this.openKeys;
    const relevant =
      known === null
        ? positions
        : positions.filter((p) => isBelowLogStart(p) || known.has(lossKey(p.groupId, p.topic, p.partition)));
    if (relevant.length === 0) return [];
    const groups = [...new Set(relevant.map((p) => p.groupId))];
    const { changes, stillOpen } = await inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`record_loss:${this.cluster}`]);
      const open = await client.query<{
        id: string;
        group_id: string;
        topic: string;
        partition: number;
        from_offset: string;
        to_offset: string;
      }>(
        `SELECT id, group_id, topic, partition, from_offset, to_offset FROM record_loss
         WHERE cluster = $1 AND ended_at IS NULL AND group_id = ANY($2::text[])`,
        [this.cluster, groups],
      );
      const episodes: OpenLoss[] = open.rows.map((r) => ({
        id: BigInt(r.id),
        groupId: r.group_id,
        topic: r.topic,
        partition: r.partition,
        fromOffset: BigInt(r.from_offset),
        toOffset: BigInt(r.to_offset),
      }));
      const planned = planLossChanges(episodes, relevant, nowMs);
      for (const loss of planned.opened) {
        await client.query(
          `INSERT INTO record_loss (cluster, group_id, topic, partition, from_offset, to_offset, count, basis, detected_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            this.cluster,
            loss.groupId,
            loss.topic,
            loss.partition,
            loss.fromOffset.toString(),
            loss.toOffset.toString(),
            loss.count.toString(),
            loss.basis,
            loss.detectedAt,
            loss.updatedAt,
          ],
        );
      }
      for (const extension of planned.extended) {
        await client.query('UPDATE record_loss SET to_offset = $2, count = $3, updated_at = $4 WHERE id = $1', [
          extension.id.toString(),
          extension.toOffset.toString(),
          extension.count.toString(),
          extension.updatedAt,
        ]);
      }
      if (planned.ended.length > 0) {
        await client.query('UPDATE record_loss SET ended_at = $2 WHERE id = ANY($1::bigint[]) AND ended_at IS NULL', [
          planned.ended.map((e) => e.id.toString()),
          planned.ended[0]!.endedAt,
        ]);
      }
      const ended = new Set(planned.ended.map((e) => e.id));
      const stillOpen = [
        ...episodes.filter((e) => !ended.has(e.id)).map((e) => lossKey(e.groupId, e.topic, e.partition)),
        ...planned.opened.map((o) => lossKey(o.groupId, o.topic, o.partition)),
      ];
      return { changes: planned, stillOpen };
    });
    // The open episodes of the groups just read are now known exactly; other groups' stay as they were.
    const keys = new Set([...(known ?? [])].filter((key) => !groups.some((g) => key.startsWith(`${g}\u0000`))));
    for (const key of stillOpen) keys.add(key);
    this.openKeys = keys;
    return changes.increments;
  }
}

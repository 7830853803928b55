import type { Database } from '../../lib/db';
import { WINDOW_CAPACITY } from '../../lib/lag/partition-status';

export interface CommitObservationRow {
  groupId: string;
  topic: string;
  partition: number;
  committedOffset: bigint;
  committedAt: Date;
  sourcePartition: number;
  sourceOffset: bigint;
}

/** A deleted commit (tombstone) at a position in __consumer_offsets: older rows of its partition go. */
export interface CommitDeletion {
  groupId: string;
  topic: string;
  partition: number;
  sourcePartition: number;
  sourceOffset: bigint;
}

/**
 * Writes commit observations and keeps only the newest `keep` per partition (by commit time, then position in
 * the topic). Idempotent: a record read again (a restart, a rebalance of the reader) is stored once.
 */
export async function saveCommitObservations(
  db: Database,
  rows: readonly CommitObservationRow[],
  deletions: readonly CommitDeletion[],
  keep = WINDOW_CAPACITY,
): Promise<void> {
  if (rows.length > 0) await db.commitObservation.createMany({ data: [...rows], skipDuplicates: true });
  for (const d of deletions) {
    await db.commitObservation.deleteMany({
      where: {
        groupId: d.groupId,
        topic: d.topic,
        partition: d.partition,
        sourcePartition: d.sourcePartition,
        sourceOffset: { lt: d.sourceOffset },
      },
    });
  }
  const groups = [...new Set(rows.map((r) => r.groupId))];
  if (groups.length === 0) return;
  await db.$executeRaw`
    DELETE FROM commit_observation c
    USING (
      SELECT id, row_number() OVER (
        PARTITION BY group_id, topic, partition ORDER BY committed_at DESC, source_offset DESC
      ) AS rank
      FROM commit_observation WHERE group_id = ANY(${groups}::text[])
    ) ranked
    WHERE c.id = ranked.id AND ranked.rank > ${keep}`;
}

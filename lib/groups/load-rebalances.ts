import type { Database } from '../db';
import {
  clusterStoredRows,
  describeClusters,
  endOf,
  isCompleteAfter,
  type MergedRebalance,
  type StoredRebalanceRow,
} from '../rebalances/merge-rebalances';

// Merged rebalances (lib/rebalances/merge-rebalances.ts) read from rebalance_event, newest first. Rows are read
// by their end, newest first: the merge matches rows by their ends, so a rebalance is complete once every row
// ending near it was read (isCompleteAfter), and one cut through a page of rows never shows half a rebalance.
// Rows without an end are never written by Warden (both writers set it) and are not read.

/** A rebalance usually leaves one row per Warden member plus one inferred row: the first read's size. */
const ROWS_PER_REBALANCE = 8;
/** The most rows one history request reads, however many Warden members measured each rebalance. */
const MAX_ROWS = 20_000;
/** Rows per group read for its latest rebalance. */
const LATEST_ROWS = 32;

interface StoredRowFields {
  id: bigint;
  groupId: string;
  source: string;
  startedAt: Date;
  endedAt: Date | null;
  trigger: string;
  membersBefore: unknown;
  membersAfter: unknown;
  partitionsMoved: number;
}

export const toStored = (row: StoredRowFields): StoredRebalanceRow => ({
  id: row.id.toString(),
  groupId: row.groupId,
  source: row.source,
  startedAtMs: row.startedAt.getTime(),
  endedAtMs: row.endedAt?.getTime() ?? null,
  trigger: row.trigger,
  membersBefore: row.membersBefore,
  membersAfter: row.membersAfter,
  partitionsMoved: row.partitionsMoved,
});

/**
 * The newest `limit` rebalances of one cluster (of one group, or of all), each complete. One cluster at a time:
 * the merge matches rows by group id, and the same id on two clusters is two groups.
 */
export async function loadRebalances(
  db: Database,
  options: { cluster: string; groupId?: string; limit: number },
): Promise<MergedRebalance[]> {
  const where = {
    cluster: options.cluster,
    ...(options.groupId ? { groupId: options.groupId } : {}),
    endedAt: { not: null },
  };
  for (let take = options.limit * ROWS_PER_REBALANCE; ; take = Math.min(MAX_ROWS, take * 4)) {
    const rows = (
      await db.rebalanceEvent.findMany({ where, orderBy: [{ endedAt: 'desc' }, { id: 'desc' }], take })
    ).map(toStored);
    const clusters = clusterStoredRows(rows);
    const readAll = rows.length < take;
    const cutMs = Math.min(...rows.map(endOf));
    const complete = readAll ? clusters : clusters.filter((c) => isCompleteAfter(c, cutMs));
    if (readAll || complete.length >= options.limit || take >= MAX_ROWS)
      return describeClusters(complete).slice(0, options.limit);
  }
}

/** Each group's newest rebalance in `cluster` (groups without any are absent). */
export async function loadLatestRebalances(
  db: Database,
  cluster: string,
  groupIds: readonly string[],
): Promise<Map<string, MergedRebalance>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db.$queryRaw<
    Array<{
      id: bigint;
      group_id: string;
      source: string;
      started_at: Date;
      ended_at: Date;
      trigger: string;
      members_before: unknown;
      members_after: unknown;
      partitions_moved: number;
    }>
  >`
    SELECT r.id, r.group_id, r.source, r.started_at, r.ended_at, r.trigger, r.members_before, r.members_after,
      r.partitions_moved
    FROM unnest(${[...groupIds]}::text[]) AS g(group_id)
    CROSS JOIN LATERAL (
      SELECT * FROM rebalance_event e
      WHERE e.cluster = ${cluster} AND e.group_id = g.group_id AND e.ended_at IS NOT NULL
      ORDER BY e.ended_at DESC LIMIT ${LATEST_ROWS}
    ) r`;
  const latest = new Map<string, MergedRebalance>();
  // The newest rebalance of a group is complete unless all its rows end within the tolerance of one another
  // and there are more than LATEST_ROWS of them (as many Warden members): then its oldest stops are missing,
  // which only shortens the shown duration.
  for (const rebalance of describeClusters(
    clusterStoredRows(
      rows.map((r) =>
        toStored({
          id: r.id,
          groupId: r.group_id,
          source: r.source,
          startedAt: r.started_at,
          endedAt: r.ended_at,
          trigger: r.trigger,
          membersBefore: r.members_before,
          membersAfter: r.members_after,
          partitionsMoved: r.partitions_moved,
        }),
      ),
    ),
  )) {
    if (!latest.has(rebalance.groupId)) latest.set(rebalance.groupId, rebalance);
  }
  return latest;
}

/** The group summary's "last rebalance". */
export function lastRebalanceSummary(rebalance: MergedRebalance | undefined) {
  return rebalance
    ? {
        startedAt: new Date(rebalance.startedAtMs),
        durationMs: rebalance.durationMs,
        durationIsBound: rebalance.durationIsBound,
      }
    : null;
}

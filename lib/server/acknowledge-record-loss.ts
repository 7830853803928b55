import type { Database } from '../db';
import type { RecordLoss } from '../generated/prisma/client';
import { isAcknowledged, recordLossJson } from '../analysis/retention';
import { lossFromRow } from '../groups/load-retention';
import type { TRecordLossOfGroup } from '../schemas/record-losses';
import { DEFAULT_CLUSTER } from '../schemas/values';
import { ApiError, notFound } from './api-error';

export interface LossTarget {
  cluster: string;
  groupId: string;
  lossId: bigint;
}

/**
 * POST /api/groups/{groupId}/losses/{lossId}/acknowledge: an operator says they know these records are gone,
 * and why that is settled (replayed from the producer, not needed, ...). The row keeps who, when, why and the
 * episode's last offset then; the partition is no longer LOST and the records-lost alert resolves at the next
 * evaluation. Should the sampler extend the episode past that offset later (more records lost), it is
 * unacknowledged again. Under the row's lock, so two operators cannot both acknowledge it:
 * - 404: no such episode of this group in this cluster;
 * - 409: it is acknowledged as it stands (the answer names who and when).
 * Nothing is written unless every check passes; the acknowledgement is the audit row (GET /api/audit).
 */
export async function acknowledgeRecordLoss(
  db: Database,
  target: LossTarget,
  reason: string,
  operator: string,
  now = new Date(),
): Promise<TRecordLossOfGroup> {
  const { cluster, groupId, lossId } = target;
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<RecordLoss[]>`
      SELECT id, cluster, group_id AS "groupId", topic, partition, from_offset AS "fromOffset", to_offset AS "toOffset",
        count, basis, detected_at AS "detectedAt", updated_at AS "updatedAt", ended_at AS "endedAt",
        acknowledged_at AS "acknowledgedAt", acknowledged_by AS "acknowledgedBy",
        acknowledge_reason AS "acknowledgeReason", acknowledged_to_offset AS "acknowledgedToOffset"
      FROM record_loss WHERE id = ${lossId} AND cluster = ${cluster} AND group_id = ${groupId}
      FOR UPDATE`;
    if (!row)
      throw notFound(
        `record loss #${lossId} of group "${groupId}" not found${cluster === DEFAULT_CLUSTER ? '' : ` in cluster "${cluster}"`}`,
      );
    const loss = lossFromRow(row);
    if (isAcknowledged(loss))
      throw new ApiError(
        409,
        `record loss #${lossId} is already acknowledged by ${loss.acknowledgedBy} at ${loss.acknowledgedAt!.toISOString()}`,
      );
    const updated = await tx.recordLoss.update({
      where: { id: lossId },
      data: {
        acknowledgedAt: now,
        acknowledgedBy: operator,
        acknowledgeReason: reason,
        acknowledgedToOffset: loss.toOffset,
      },
    });
    return { cluster, groupId, ...recordLossJson(lossFromRow(updated), now.getTime()) };
  });
}

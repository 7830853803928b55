import type { RedriveJob } from '../../generated/prisma/client';
import { ZRedriveSelection, ZRedriveStatus, type TRedriveJob } from '../../schemas/dead-letters';

/** A stored redrive_job row as the API shows it. */
export function redriveJobJson(row: RedriveJob): TRedriveJob {
  return {
    id: row.id.toString(),
    cluster: row.cluster,
    dlqTopic: row.dlqTopic,
    selection: ZRedriveSelection.parse(row.selection),
    targetTopic: row.targetTopic,
    reason: row.reason,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    force: row.force,
    status: ZRedriveStatus.parse(row.status),
    ratePerSec: row.ratePerSec,
    total: row.total,
    sent: row.sent,
    skipped: row.skipped,
    failed: row.failed,
    outcome: row.outcome,
    executedBy: row.executedBy,
    updatedAt: row.updatedAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

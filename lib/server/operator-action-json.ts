import type { OperatorAction } from '../generated/prisma/client';
import { ZActionStatus, ZAuditActionKind, type TOperatorAction } from '../schemas/operator-actions';

/** A stored operator_action row as the API shows it (offsets as strings, times as ISO). */
export function operatorActionJson(row: OperatorAction): TOperatorAction {
  return {
    id: row.id.toString(),
    commandId: row.commandId,
    cluster: row.cluster,
    groupId: row.groupId,
    topic: row.topic,
    partition: row.partition,
    action: ZAuditActionKind.parse(row.action),
    seekOffset: row.seekOffset?.toString() ?? null,
    seekTimestamp: row.seekTimestamp?.toISOString() ?? null,
    quarantineOffset: row.quarantineOffset?.toString() ?? null,
    reason: row.reason,
    requestedBy: row.requestedBy,
    requestedAt: row.requestedAt.toISOString(),
    status: ZActionStatus.parse(row.status),
    outcome: row.outcome,
    executedBy: row.executedBy,
    completedAt: row.completedAt?.toISOString() ?? null,
    relayedAt: row.relayedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  };
}

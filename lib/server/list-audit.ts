import type { Database } from '../db';
import { ZAuditResponse, type TAuditResponse } from '../schemas/operator-actions';
import { operatorActionJson } from './operator-action-json';

/** GET /api/audit: every operator action, newest first (who, what, target, reason, when, outcome). */
export async function listAudit(
  db: Database,
  options: { groupId?: string; limit?: number } = {},
): Promise<TAuditResponse> {
  const rows = await db.operatorAction.findMany({
    where: options.groupId ? { groupId: options.groupId } : {},
    orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }],
    take: options.limit ?? 200,
  });
  return ZAuditResponse.parse({ actions: rows.map(operatorActionJson) });
}

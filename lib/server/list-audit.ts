import type { Database } from '../db';
import type { AccessEvent } from '../generated/prisma/client';
import {
  ACCESS_EVENT_KINDS,
  ZAccessEventKind,
  type TAccessEvent,
  type TAuditKindFilter,
} from '../schemas/access-events';
import { ZAuditResponse, type TAuditResponse } from '../schemas/operator-actions';
import { redriveJobJson } from './dead-letters/redrive-job-json';
import { operatorActionJson } from './operator-action-json';

/**
 * GET /api/audit: operator actions (who, what, target, reason, when, outcome) and access events (sign-ins and
 * sign-outs), each newest first, filtered by `kind` (absent: both) and `groupId` (actions only; access events
 * belong to no group, so a group filter leaves none).
 */
export async function listAudit(
  db: Database,
  options: { groupId?: string; kind?: TAuditKindFilter; limit?: number } = {},
): Promise<TAuditResponse> {
  const take = options.limit ?? 200;
  const kind = options.kind;
  const wantsActions = kind === undefined || kind === 'actions';
  const accessKinds = kind === undefined || kind === 'access' ? ACCESS_EVENT_KINDS : kind === 'actions' ? [] : [kind];
  const [rows, access, redrives] = await Promise.all([
    wantsActions
      ? db.operatorAction.findMany({
          where: options.groupId ? { groupId: options.groupId } : {},
          orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }],
          take,
        })
      : [],
    options.groupId || accessKinds.length === 0
      ? []
      : db.accessEvent.findMany({
          where: { kind: { in: [...accessKinds] } },
          orderBy: [{ at: 'desc' }, { id: 'desc' }],
          take,
        }),
    // Redrives belong to the dead-letter topic, not a group: listed with the actions when no group is asked for.
    wantsActions && !options.groupId
      ? db.redriveJob.findMany({ orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }], take })
      : [],
  ]);
  return ZAuditResponse.parse({
    actions: rows.map(operatorActionJson),
    access: access.map(accessEventJson),
    redrives: redrives.map(redriveJobJson),
  });
}

function accessEventJson(row: AccessEvent): TAccessEvent {
  return {
    id: row.id.toString(),
    kind: ZAccessEventKind.parse(row.kind),
    userName: row.userName,
    clientAddress: row.clientAddress,
    userAgent: row.userAgent,
    detail: row.detail,
    at: row.at.toISOString(),
  };
}

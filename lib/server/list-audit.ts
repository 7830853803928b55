import type { Database } from '../db';
import type { AccessEvent } from '../generated/prisma/client';
import { ZAccessEventKind, type TAccessEvent, type TAuditKindFilter } from '../schemas/access-events';
import { ACCESS_EVENT_KINDS } from '../schemas/values';
import { ZAuditResponse, type TAuditResponse } from '../schemas/operator-actions';
import { recordLossJson } from '../analysis/retention';
import { lossFromRow } from '../groups/load-retention';
import { redriveJobJson } from './dead-letters/redrive-job-json';
import { operatorActionJson } from './operator-action-json';

/**
 * GET /api/audit: operator actions (who, what, target, reason, when, outcome), acknowledged record losses and
 * access events (sign-ins and sign-outs), each newest first, filtered by `kind` (absent: all; `actions`
 * includes the acknowledgements), `cluster` (null or absent: every cluster) and `groupId` (actions, redrives
 * and losses carry a cluster, actions and losses a group; access events belong to neither, so either filter
 * leaves none, and a group filter leaves no redrives).
 */
export async function listAudit(
  db: Database,
  options: { cluster?: string | null; groupId?: string; kind?: TAuditKindFilter; limit?: number } = {},
): Promise<TAuditResponse> {
  const take = options.limit ?? 200;
  const kind = options.kind;
  const wantsActions = kind === undefined || kind === 'actions';
  const cluster = options.cluster ?? undefined;
  const accessKinds = kind === undefined || kind === 'access' ? ACCESS_EVENT_KINDS : kind === 'actions' ? [] : [kind];
  const now = new Date();
  const [rows, access, redrives, acknowledgements] = await Promise.all([
    wantsActions
      ? db.operatorAction.findMany({
          where: { cluster, groupId: options.groupId },
          orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }],
          take,
        })
      : [],
    options.groupId || cluster !== undefined || accessKinds.length === 0
      ? []
      : db.accessEvent.findMany({
          where: { kind: { in: [...accessKinds] } },
          orderBy: [{ at: 'desc' }, { id: 'desc' }],
          take,
        }),
    // Redrives belong to the dead-letter topic, not a group: listed with the actions when no group is asked for.
    wantsActions && !options.groupId
      ? db.redriveJob.findMany({ where: { cluster }, orderBy: [{ requestedAt: 'desc' }, { id: 'desc' }], take })
      : [],
    wantsActions
      ? db.recordLoss.findMany({
          where: { cluster, groupId: options.groupId, acknowledgedAt: { not: null } },
          orderBy: [{ acknowledgedAt: 'desc' }, { id: 'desc' }],
          take,
        })
      : [],
  ]);
  return ZAuditResponse.parse({
    actions: rows.map(operatorActionJson),
    access: access.map(accessEventJson),
    redrives: redrives.map(redriveJobJson),
    lossAcknowledgements: acknowledgements.map((row) => ({
      cluster: row.cluster,
      groupId: row.groupId,
      ...recordLossJson(lossFromRow(row), now.getTime()),
    })),
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

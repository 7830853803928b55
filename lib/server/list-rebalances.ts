import type { Database } from '../db';
import { ZRebalancesResponse, type TRebalancesResponse } from '../schemas/rebalances';

/** GET /api/rebalances: rebalance history across groups (or of one), newest first. */
export async function listRebalances(
  db: Database,
  options: { groupId?: string; limit?: number } = {},
): Promise<TRebalancesResponse> {
  const rows = await db.rebalanceEvent.findMany({
    where: options.groupId ? { groupId: options.groupId } : {},
    orderBy: [{ startedAt: 'desc' }, { id: 'desc' }],
    take: options.limit ?? 200,
  });
  return ZRebalancesResponse.parse({
    rebalances: rows.map((r) => ({
      id: r.id.toString(),
      groupId: r.groupId,
      source: r.source,
      startedAt: r.startedAt.toISOString(),
      endedAt: r.endedAt?.toISOString() ?? null,
      durationMs: r.durationMs,
      durationIsBound: r.durationIsBound,
      membersBefore: memberNames(r.membersBefore),
      membersAfter: memberNames(r.membersAfter),
      partitionsMoved: r.partitionsMoved,
      trigger: r.trigger,
    })),
  });
}

/**
 * Display names of a stored member list, whatever shape the recorder chose: strings as they are; objects by
 * client id and host (or member id); anything else as compact JSON. Never throws on odd data.
 */
export function memberNames(json: unknown): string[] {
  if (!Array.isArray(json)) return [];
  return json.map((member) => {
    if (typeof member === 'string') return member;
    if (member !== null && typeof member === 'object') {
      const m = member as Record<string, unknown>;
      const memberId = typeof m.memberId === 'string' ? m.memberId : null;
      const client = typeof m.clientId === 'string' ? m.clientId : memberId;
      const host = typeof m.clientHost === 'string' ? m.clientHost : typeof m.host === 'string' ? m.host : null;
      // Instances often share a client id: the member id's tail tells them apart.
      const instance = memberId && client !== memberId ? ` #${memberId.slice(-6)}` : '';
      if (client) return `${client}${host ? ` ${host}` : ''}${instance}`;
    }
    return JSON.stringify(member);
  });
}

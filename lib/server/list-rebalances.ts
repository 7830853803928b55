import type { Database } from '../db';
import type { MergedRebalance } from '../rebalances/merge-rebalances';
import { ZRebalancesResponse, type TRebalance, type TRebalancesResponse } from '../schemas/rebalances';
import { loadRebalances } from '../groups/load-rebalances';

/**
 * GET /api/rebalances: one cluster's rebalance history across groups (or of one), newest first, one entry per
 * rebalance however many rows observed it (lib/rebalances/merge-rebalances.ts).
 */
export async function listRebalances(
  db: Database,
  cluster: string,
  options: { groupId?: string; limit?: number } = {},
): Promise<TRebalancesResponse> {
  const rebalances = await loadRebalances(db, { cluster, groupId: options.groupId, limit: options.limit ?? 200 });
  return ZRebalancesResponse.parse({ cluster, rebalances: rebalances.map(rebalanceJson) });
}

const iso = (ms: number) => new Date(ms).toISOString();

function rebalanceJson(r: MergedRebalance): TRebalance {
  return {
    id: r.id,
    groupId: r.groupId,
    startedAt: iso(r.startedAtMs),
    endedAt: iso(r.endedAtMs),
    durationMs: r.durationMs,
    durationIsBound: r.durationIsBound,
    stops: r.stops.map((s) => ({
      name: s.name,
      memberId: s.memberId,
      startedAt: iso(s.startedAtMs),
      endedAt: iso(s.endedAtMs),
      durationMs: s.durationMs,
      joining: s.joining,
    })),
    sampledBetween: r.sampledBetween ? { from: iso(r.sampledBetween.fromMs), to: iso(r.sampledBetween.toMs) } : null,
    trigger: r.trigger,
    membersSeenBy: r.membersSeenBy,
    membersBefore: r.membersBefore,
    membersAfter: r.membersAfter,
    partitionsMoved: r.partitionsMoved,
    rowIds: r.rowIds,
  };
}

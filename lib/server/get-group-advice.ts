import type { Database } from '../db';
import { ZGroupAdvice, type TGroupAdvice } from '../schemas/advice';
import { buildGroupAdvice } from './analysis/group-advice';
import { analyzeGroup } from './analysis/group-analysis';
import { notFound } from './api-error';
import { loadGroupRounds } from './load-group-rounds';

export interface GroupAdviceOptions {
  rateWindowMs: number;
  targetCatchUpSec: number;
  timeLagObjectiveMs: number | null;
}

/**
 * GET /api/groups/{groupId}/advice: the capacity plan with its what-if curve and the advice list, from the
 * group's stored samples over the rate window (lib/server/analysis/group-advice.ts says how each input is
 * measured). A group never sampled is 404.
 */
export async function getGroupAdvice(db: Database, groupId: string, options: GroupAdviceOptions): Promise<TGroupAdvice> {
  const [round] = await loadGroupRounds(db, { groupIds: [groupId], historyMs: options.rateWindowMs, nowMs: Date.now() });
  if (!round) throw notFound(`consumer group "${groupId}" has never been sampled`);
  const hourBefore = new Date(round.sampledAt.getTime() - 3_600_000);
  const [quarantines, ownState, rebalancesInHour, anyRebalanceRecorded] = await Promise.all([
    db.partitionQuarantine.findMany({ where: { groupId } }),
    db.consumerPartitionState.findFirst({ where: { groupId }, select: { instanceId: true } }),
    db.rebalanceEvent.count({ where: { groupId, startedAt: { gte: hourBefore, lte: round.sampledAt } } }),
    db.rebalanceEvent.findFirst({ select: { id: true } }),
  ]);
  const analysis = analyzeGroup({
    rows: round.rows,
    history: round.history,
    quarantined: quarantines,
    timeLagObjectiveMs: options.timeLagObjectiveMs,
    rateWindowMs: options.rateWindowMs,
    nowMs: round.sampledAt.getTime(),
  });
  return ZGroupAdvice.parse(
    buildGroupAdvice({
      groupId,
      sampledAt: round.sampledAt,
      protocol: round.protocol,
      analysis,
      windowMs: options.rateWindowMs,
      targetCatchUpSec: options.targetCatchUpSec,
      isWardenConsumer: ownState !== null || quarantines.length > 0,
      // With no rebalance row anywhere, nothing records rebalances yet: unknown, not zero.
      rebalancesPerHour: anyRebalanceRecorded ? rebalancesInHour : null,
      quarantines,
    }),
  );
}

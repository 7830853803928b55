import { EMPTY_CLIENT_SETTINGS, resolveClientSettings, type ClientSettingsTable } from '../advisor/client-settings';
import { countMemberRestarts, DEFAULT_REJOIN_WITHIN_MS, parseStoredMembers } from '../advisor/member-restarts';
import { countRebalances } from '../advisor/rebalance-count';
import { findConsumerCountChanges, summarizeScaling } from '../advisor/scaling-efficiency';
import type { RoundLag } from '../advisor/track-record';
import { estimateRebalancePause, PAUSE_HISTORY_REBALANCES } from '../advisor/rebalance-pause';
import { measuringMemberId, mergeRebalanceRows } from '../rebalances/merge-rebalances';
import type { Database } from '../db';
import { ZGroupAdvice, type TGroupAdvice } from '../schemas/advice';
import { buildGroupAdvice } from '../analysis/group-advice';
import { analyzeRound } from '../analysis/group-analysis';
import { notFound } from './api-error';
import { neverSampled } from './request-cluster';
import { loadTrackRecord, recordPrediction } from './advice-track-record';
import { loadGroupRoundTotals } from './load-group-round-totals';
import { loadGroupRounds } from '../groups/load-group-rounds';
import { toStored } from '../groups/load-rebalances';

export interface GroupAdviceOptions {
  rateWindowMs: number;
  targetCatchUpSec: number;
  timeLagObjectiveMs: number | null;
  /** ADVISOR_CLIENT_SETTINGS: the poll settings assumed per group; absent: the Java client's defaults. */
  clientSettings?: ClientSettingsTable;
}

/**
 * Member restarts are counted over the same hour as the rebalance rate: restarts are rare events (a deploy, a
 * crash), so the rate window (minutes) would almost never hold the two the advice needs.
 */
export const RESTART_WINDOW_MS = 3_600_000;

/**
 * Consumer-count changes are looked for over six hours of rounds: scale-outs are rarer than restarts, and the
 * efficiency of the newest ones says most about the group as it runs now. It also bounds how late a
 * prediction's outcome can still be resolved from the samples.
 */
export const SCALING_HISTORY_MS = 6 * 3_600_000;

/**
 * GET /api/groups/{groupId}/advice: the capacity plan with its what-if curve and the advice list, from the
 * group's stored samples over the rate window (lib/analysis/group-advice.ts says how each input is
 * measured), the group's measured scaling and its track record. Serving a plan records it (see
 * recordPrediction): the track record judges the plans people were shown. A group never sampled is 404.
 */
export async function getGroupAdvice(
  db: Database,
  cluster: string,
  groupId: string,
  options: GroupAdviceOptions,
): Promise<TGroupAdvice> {
  const [round] = await loadGroupRounds(db, {
    cluster,
    groupIds: [groupId],
    historyMs: options.rateWindowMs,
    nowMs: Date.now(),
  });
  if (!round) throw notFound(neverSampled(cluster, groupId));
  const hourBefore = new Date(round.sampledAt.getTime() - 3_600_000);
  const restartsFrom = round.sampledAt.getTime() - RESTART_WINDOW_MS;
  // Every read below needs only the newest round's time, so they run side by side (the round totals, six hours
  // of rounds, are the longest).
  const [quarantines, ownState, rebalanceRowsInHour, anyRebalanceRecorded, membership, pauseRows, roundTotals] =
    await Promise.all([
      db.partitionQuarantine.findMany({ where: { cluster, groupId } }),
      db.consumerPartitionState.findFirst({ where: { cluster, groupId }, select: { instanceId: true } }),
      // Rows, not rebalances: each Warden member measures the same rebalance (countRebalances merges them).
      db.rebalanceEvent.findMany({
        where: { cluster, groupId, startedAt: { gte: hourBefore, lte: round.sampledAt } },
        select: { source: true, startedAt: true, endedAt: true, membersBefore: true, membersAfter: true },
      }),
      db.rebalanceEvent.findFirst({ where: { cluster }, select: { id: true } }),
      // The whole-group view (inferred rows); a measured 'own-consumer' row shows one member and never its leave.
      // From a rejoin window before the count window, so a departure just before it pairs with a rejoin inside.
      db.rebalanceEvent.findMany({
        where: {
          cluster,
          groupId,
          source: 'describe-groups',
          startedAt: { gte: new Date(restartsFrom - DEFAULT_REJOIN_WITHIN_MS), lte: round.sampledAt },
        },
        select: { startedAt: true, endedAt: true, membersBefore: true, membersAfter: true },
        orderBy: { startedAt: 'asc' },
      }),
      // The newest rebalances of the scaling history, for the pause a change of the count costs: rows of one
      // rebalance end together, so a few rows per rebalance (every Warden member's plus the sampler's) suffice.
      db.rebalanceEvent.findMany({
        where: {
          cluster,
          groupId,
          endedAt: { gte: new Date(round.sampledAt.getTime() - SCALING_HISTORY_MS), lte: round.sampledAt },
        },
        orderBy: [{ endedAt: 'desc' }, { id: 'desc' }],
        take: PAUSE_HISTORY_REBALANCES * 8,
      }),
      loadGroupRoundTotals(db, cluster, groupId, {
        fromMs: round.sampledAt.getTime() - SCALING_HISTORY_MS,
        toMs: round.sampledAt.getTime(),
      }),
    ]);
  const restarts = countMemberRestarts(
    membership.map((r) => ({
      startedAtMs: r.startedAt.getTime(),
      endedAtMs: (r.endedAt ?? r.startedAt).getTime(),
      membersBefore: parseStoredMembers(r.membersBefore),
      membersAfter: parseStoredMembers(r.membersAfter),
    })),
    { fromMs: restartsFrom, toMs: round.sampledAt.getTime(), rejoinWithinMs: DEFAULT_REJOIN_WITHIN_MS },
  );
  const analysis = analyzeRound(round, quarantines, options);
  return withTrackRecord(
    db,
    roundTotals,
    buildGroupAdvice({
      cluster,
      groupId,
      sampledAt: round.sampledAt,
      protocol: round.protocol,
      groupState: round.state,
      analysis,
      windowMs: options.rateWindowMs,
      targetCatchUpSec: options.targetCatchUpSec,
      isWardenConsumer: ownState !== null || quarantines.length > 0,
      // With no rebalance row anywhere, nothing records rebalances yet: unknown, not zero.
      rebalancesPerHour: anyRebalanceRecorded
        ? countRebalances(
            rebalanceRowsInHour.map((r) => ({
              source: r.source,
              startedAtMs: r.startedAt.getTime(),
              endedAtMs: r.endedAt?.getTime() ?? null,
              measuredBy: measuringMemberId(r),
            })),
          )
        : null,
      memberRestarts: anyRebalanceRecorded
        ? { ...restarts, windowMs: RESTART_WINDOW_MS, rejoinWithinMs: DEFAULT_REJOIN_WITHIN_MS }
        : null,
      clientSettings: resolveClientSettings(options.clientSettings ?? EMPTY_CLIENT_SETTINGS, groupId),
      quarantines,
      scaling: summarizeScaling(findConsumerCountChanges(roundTotals), round.sampledAt.getTime()),
      rebalancePause: estimateRebalancePause(mergeRebalanceRows(pauseRows.map(toStored))),
    }),
  );
}

/**
 * Records the plan when shown (the track record judges the advice people saw, not every sampler round) and
 * adds the group's track record, resolved from its round totals.
 */
async function withTrackRecord(
  db: Database,
  rounds: readonly RoundLag[],
  built: Omit<TGroupAdvice, 'trackRecord'>,
): Promise<TGroupAdvice> {
  await recordPrediction(db, built);
  const trackRecord = await loadTrackRecord(db, built.cluster, built.groupId, rounds, Date.parse(built.sampledAt));
  return ZGroupAdvice.parse({ ...built, trackRecord });
}

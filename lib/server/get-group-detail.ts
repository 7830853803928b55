import type { Database } from '../db';
import { ZGroupDetail, type TGroupDetail } from '../schemas/groups';
import { memberName } from '../members/member-name';
import { analyzeRound, groupSummaryFields, partitionKey, type LatestPartitionRow } from '../analysis/group-analysis';
import { recordLossJson, retentionRiskJson } from '../analysis/retention';
import { notFound } from './api-error';
import { groupKey, loadConsumerInstances } from './consumer-instances';
import { neverSampled } from './request-cluster';
import { loadGroupRounds } from '../groups/load-group-rounds';
import { lastRebalanceSummary, loadLatestRebalances } from '../groups/load-rebalances';

export interface GroupDetailOptions {
  timeLagObjectiveMs: number | null;
  rateWindowMs: number;
  /** History behind status and time lag. Default 10 min. */
  historyMs?: number;
  /** The time the instances' liveness is judged at; default the clock's. */
  nowMs?: number;
}

/**
 * GET /api/groups/{groupId}: the group's newest sampled round, per partition, with time lag, rates, Burrow
 * status (LOST while a record loss is unacknowledged), retention risk, quarantine and (for a Warden consumer)
 * its commit prefix; the group's instances that report over the control plane (consumer-instances.ts); and
 * its record-loss episodes (every unacknowledged one, the others of the last 7 days). A group that was never sampled is 404; one that stopped being
 * sampled is still answered, and its sampledAt tells how old the data is.
 */
export async function getGroupDetail(
  db: Database,
  cluster: string,
  groupId: string,
  options: GroupDetailOptions,
): Promise<TGroupDetail> {
  // All at once: the small reads do not depend on the round, and a page load should wait for one round trip
  // of them, not two (for a group never sampled they are wasted, and cheap).
  const nowMs = options.nowMs ?? Date.now();
  const [[round], quarantines, prefixes, latestRebalances, instancesOf] = await Promise.all([
    loadGroupRounds(db, {
      cluster,
      groupIds: [groupId],
      historyMs: Math.max(options.historyMs ?? 10 * 60_000, options.rateWindowMs),
      nowMs,
    }),
    db.partitionQuarantine.findMany({ where: { cluster, groupId } }),
    db.consumerPartitionState.findMany({ where: { cluster, groupId } }),
    loadLatestRebalances(db, cluster, [groupId]),
    loadConsumerInstances(db, [{ cluster, groupId }], nowMs),
  ]);
  const instances = instancesOf.get(groupKey({ cluster, groupId }))?.instances ?? [];
  if (!round) throw notFound(neverSampled(cluster, groupId));
  const quarantineOf = new Map(quarantines.map((q) => [partitionKey(q), q]));
  const prefixOf = new Map(prefixes.map((p) => [partitionKey(p), p]));

  const analysis = analyzeRound(round, quarantines, options);

  const detail: TGroupDetail = {
    ...groupSummaryFields(round, analysis, quarantines.length, lastRebalanceSummary(latestRebalances.get(groupId))),
    isWardenConsumer: instances.length > 0 || prefixes.length > 0 || quarantines.length > 0,
    memberList: analysis.members,
    partitions: analysis.partitions.map((p) => {
      const quarantine = quarantineOf.get(partitionKey(p.row));
      const prefix = prefixOf.get(partitionKey(p.row));
      return {
        topic: p.row.topic,
        partition: p.row.partition,
        committedOffset: p.row.committedOffset?.toString() ?? null,
        logStartOffset: p.row.logStartOffset.toString(),
        logEndOffset: p.row.logEndOffset.toString(),
        lag: p.lag,
        timeLag: p.timeLag,
        arrivalRatePerSec: p.arrivalRatePerSec,
        consumptionRatePerSec: p.consumptionRatePerSec,
        ratesBasis: p.ratesBasis,
        owner: ownerOf(p.row),
        status: p.status,
        statusReason: p.statusReason,
        burrowStatus: p.evaluation.status,
        burrowReason: p.evaluation.reason,
        retentionRisk: retentionRiskJson(p.retentionRisk, p.row, round.sampledAt.getTime()),
        statusWindow: {
          commits: p.evaluation.commits,
          capacity: p.evaluation.capacity,
          complete: p.evaluation.complete,
          source: p.commitSource,
          lastCommitAt:
            p.evaluation.lastCommitAtMs === null ? null : new Date(p.evaluation.lastCommitAtMs).toISOString(),
        },
        quarantine: quarantine
          ? {
              offset: quarantine.offset.toString(),
              since: quarantine.since.toISOString(),
              reason: quarantine.reason,
              errorClass: quarantine.errorClass,
              attempts: quarantine.attempts,
            }
          : null,
        commitPrefix: prefix
          ? {
              instanceId: prefix.instanceId,
              sampledAt: prefix.sampledAt.toISOString(),
              watermark: prefix.watermark?.toString() ?? null,
              highestCompleted: prefix.highestCompleted?.toString() ?? null,
              inFlight: prefix.inFlight,
              completedUncommitted: prefix.completedUncommitted,
              buffered: prefix.buffered,
              bufferedBytes: prefix.bufferedBytes,
              oldestUnfinishedOffset: prefix.oldestUnfinishedOffset?.toString() ?? null,
              oldestUnfinishedAgeMs: prefix.oldestUnfinishedAgeMs,
              paused: prefix.paused,
            }
          : null,
      };
    }),
    instances,
    losses: round.losses.map((loss) => recordLossJson(loss, round.sampledAt.getTime())),
  };
  return ZGroupDetail.parse(detail);
}

/** The partition's owner as the newest sample saw it, named as everywhere else. */
function ownerOf(row: LatestPartitionRow): TGroupDetail['partitions'][number]['owner'] {
  if (row.memberClientId === null) return null;
  const owner = { memberId: row.memberId ?? null, clientId: row.memberClientId, host: row.memberHost };
  return { ...owner, name: memberName(owner) };
}

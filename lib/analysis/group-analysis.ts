// Pure analysis of one group's newest sampler round plus its recent history: per-partition time lag, rates
// and Burrow status, and the group status (lib/lag/partition-status.ts combineGroupStatus).

import type { RateEstimate } from '../advisor/rates';
import { memberName } from '../members/member-name';
import {
  combineGroupStatus,
  type CommitSample,
  type GroupStatusResult,
  type PartitionEvaluation,
  type PartitionStatus,
} from '../lag/partition-status';
import type { RetentionRisk, TopicRetentionSettings } from '../lag/retention-risk';
import type { TSoonestDeletion, TTimeLag } from '../schemas/groups';
import {
  deadlineIfUnread,
  isAcknowledged,
  lostReason,
  partitionRetentionRisk,
  soonestDeletion,
  type LossEpisode,
} from './retention';
import {
  commitEntries,
  compareTimeLagDesc,
  evaluatePartitionHistory,
  ownerStillCommits,
  ratesFromSamples,
  sampleIntervalOf,
  minStopSilenceMs,
  windowFromObservations,
  type ObservedCommit,
  resolveTimeLag,
  type SamplePoint,
  type StoredLagColumns,
} from './partition-analysis';

export interface LatestPartitionRow extends StoredLagColumns {
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
  lag: bigint | null;
  /** The owner's member id; null or absent when unknown (rows sampled before member ids were stored). */
  memberId?: string | null;
  memberClientId: string | null;
  memberHost: string | null;
}

export interface PartitionAnalysis {
  row: LatestPartitionRow;
  /** The samples the analysis used, oldest first. */
  history: readonly SamplePoint[];
  lag: number | null;
  timeLag: TTimeLag;
  rates: RateEstimate;
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
  ratesBasis: 'sampler' | 'lag-samples' | 'none';
  /** Burrow's status, or LOST while the partition has an unacknowledged loss episode. */
  status: PartitionStatus;
  /** Why `status` is not OK: Burrow's reason, or for LOST what was lost; null when OK. */
  statusReason: string | null;
  /** Burrow's evaluation: its status with its reason and how full its window is. */
  evaluation: PartitionEvaluation;
  /** What the topic's retention will do to the unread records, at the partition's current pace. */
  retentionRisk: RetentionRisk;
  /**
   * The earliest its unread records can be deleted if nothing more were read (ms from the round; null: unknown),
   * the deadline a drain must beat; null when nothing is at risk even then.
   */
  unreadDeadline: { earliestMs: number | null } | null;
  /** Its loss episodes nobody acknowledged (what makes it LOST), oldest first. */
  losses: LossEpisode[];
  /** Where the window's commits came from: every commit read from the offsets topic, or the samples. */
  commitSource: CommitSource;
}

export type CommitSource = 'offsets-topic' | 'sampled';

export interface GroupAnalysis {
  partitions: PartitionAnalysis[];
  status: GroupStatusResult;
  /** Which commits the statuses rest on: one source for every committed partition, or 'mixed'; null: none committed. */
  commitSource: CommitSource | 'mixed' | null;
  totalLag: number;
  partitionsWithoutCommit: number;
  worstTimeLag: (TTimeLag & { topic: string; partition: number }) | null;
  /** The at-risk partition whose unread records can be deleted first; null when none is at risk. */
  soonestDeletion: TSoonestDeletion | null;
  retentionAtRiskPartitions: number;
  retentionUnknownPartitions: number;
  /** Every unacknowledged loss episode of the group, including partitions the newest round does not show. */
  unacknowledgedLosses: LossEpisode[];
  /** One per member (by member id where known, else by client id and host), named by lib/members/member-name.ts. */
  members: Array<{
    memberId: string | null;
    clientId: string;
    host: string | null;
    name: string;
    partitions: Array<{ topic: string; partition: number }>;
  }>;
}

export const partitionKey = (p: { topic: string; partition: number }): string => `${p.topic}\u0000${p.partition}`;

/**
 * `rows` is the group's newest round (one row per partition); `history` holds each partition's samples oldest
 * first, newest round included; `nowMs` is the newest round's time, so a stale sampler never makes a healthy
 * group look STOPped and every number describes the same instant.
 */
export function analyzeGroup(input: {
  rows: readonly LatestPartitionRow[];
  history: ReadonlyMap<string, readonly SamplePoint[]>;
  quarantined: ReadonlyArray<{ topic: string; partition: number }>;
  timeLagObjectiveMs: number | null;
  rateWindowMs: number;
  nowMs: number;
  /** The group's state in the newest round (describeGroups); Empty or Dead means it has no members. */
  groupState?: string | null;
  /** Per partition (partitionKey): the newest commits read from the offsets topic (windowFromObservations). */
  observedCommits?: ReadonlyMap<string, readonly ObservedCommit[]>;
  /** Per topic: its retention settings as the sampler stored them; a topic absent is not read yet. */
  retention?: ReadonlyMap<string, TopicRetentionSettings>;
  /** The group's record-loss episodes (acknowledged ones are ignored; see isAcknowledged). */
  losses?: readonly LossEpisode[];
}): GroupAnalysis {
  const { nowMs } = input;
  const rows = [...input.rows].sort((a, b) =>
    a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
  );
  const groupHasMembers =
    input.groupState === 'Empty' || input.groupState === 'Dead' ? false : input.groupState ? true : null;
  const ownerKeyOf = (row: LatestPartitionRow): string | null =>
    row.memberClientId === null ? null : (row.memberId ?? `${row.memberClientId}\u0000${row.memberHost ?? ''}`);
  const windowOf = (row: LatestPartitionRow): { commits: readonly CommitSample[]; source: CommitSource } => {
    const history = input.history.get(partitionKey(row)) ?? [];
    const observed = windowFromObservations(input.observedCommits?.get(partitionKey(row)) ?? [], history, nowMs);
    if (observed) return { commits: observed, source: 'offsets-topic' };
    return { commits: commitEntries(history), source: 'sampled' };
  };
  const windows = new Map(rows.map((row) => [partitionKey(row), windowOf(row)]));
  const unacknowledged = (input.losses ?? [])
    .filter((loss) => !isAcknowledged(loss))
    .sort((a, b) => a.detectedAt.getTime() - b.detectedAt.getTime());
  const lossesOf = new Map<string, LossEpisode[]>();
  for (const loss of unacknowledged) {
    const key = partitionKey(loss);
    lossesOf.set(key, [...(lossesOf.get(key) ?? []), loss]);
  }
  // Per owner, once: the distinct instants it committed at, ascending, and whether it still commits (per
  // silence bound). Done per partition instead, a member owning a thousand partitions had its thousands of
  // commit times deduplicated and sorted a thousand times (900 ms of a 1,000-partition group's analysis).
  const ownerCommits = new Map<string, Set<number>>();
  for (const row of rows) {
    const owner = ownerKeyOf(row);
    if (owner === null) continue;
    let times = ownerCommits.get(owner);
    if (!times) ownerCommits.set(owner, (times = new Set()));
    for (const commit of windows.get(partitionKey(row))?.commits ?? []) times.add(commit.atMs);
  }
  const ownerTimes = new Map([...ownerCommits].map(([owner, times]) => [owner, [...times].sort((a, b) => a - b)]));
  const aliveByOwner = new Map<string, boolean>();
  const ownerAlive = (owner: string, minSilenceMs: number): boolean => {
    const key = `${owner}\u0000${minSilenceMs}`;
    let alive = aliveByOwner.get(key);
    if (alive === undefined)
      aliveByOwner.set(key, (alive = ownerStillCommits(ownerTimes.get(owner) ?? [], nowMs, minSilenceMs)));
    return alive;
  };

  const partitions = rows.map((row): PartitionAnalysis => {
    const history = input.history.get(partitionKey(row)) ?? [];
    const committed = row.committedOffset === null ? null : Number(row.committedOffset);
    const rates = ratesFromSamples(history, input.rateWindowMs);
    const fromSampler = row.arrivalRatePerSec !== null || row.consumptionRatePerSec !== null;
    const arrivalRatePerSec = row.arrivalRatePerSec ?? rates.arrivalRatePerSec;
    const consumptionRatePerSec = row.consumptionRatePerSec ?? rates.consumptionRatePerSec;
    const owner = ownerKeyOf(row);
    const window = windows.get(partitionKey(row)) ?? { commits: [], source: 'sampled' as const };
    const minSilenceMs = minStopSilenceMs(
      owner === null ? 0 : (ownerTimes.get(owner)?.length ?? 0),
      sampleIntervalOf(history),
    );
    const evaluation = evaluatePartitionHistory(history, nowMs, {
      groupHasMembers,
      ownerAlive: owner === null ? null : ownerAlive(owner, minSilenceMs),
      commits: window.source === 'offsets-topic' ? window.commits : undefined,
    });
    const timeLag = resolveTimeLag(row, history, committed, nowMs);
    const losses = lossesOf.get(partitionKey(row)) ?? [];
    const position = {
      committedOffset: row.committedOffset,
      logStartOffset: row.logStartOffset,
      logEndOffset: row.logEndOffset,
      timeLag,
      arrivalRatePerSec,
      consumptionRatePerSec,
    };
    return {
      row,
      history,
      lag: row.lag === null ? null : Number(row.lag),
      timeLag,
      rates,
      arrivalRatePerSec,
      consumptionRatePerSec,
      ratesBasis: fromSampler ? 'sampler' : arrivalRatePerSec !== null ? 'lag-samples' : 'none',
      status: losses.length > 0 ? 'LOST' : evaluation.status,
      statusReason: losses.length > 0 ? lostReason(losses, nowMs) : evaluation.reason,
      evaluation,
      retentionRisk: partitionRetentionRisk(input.retention?.get(row.topic), position),
      unreadDeadline: deadlineIfUnread(input.retention?.get(row.topic), position),
      losses,
      commitSource: window.source,
    };
  });

  let totalLag = 0;
  let partitionsWithoutCommit = 0;
  for (const p of partitions) {
    if (p.lag === null) partitionsWithoutCommit += 1;
    else totalLag += p.lag;
  }
  const worst = [...partitions]
    .filter((p) => p.timeLag.ms !== null)
    .sort((a, b) => compareTimeLagDesc(a.timeLag, b.timeLag))[0];
  const worstTimeLag = worst ? { ...worst.timeLag, topic: worst.row.topic, partition: worst.row.partition } : null;

  // A loss of a partition the newest round does not show (the group stopped reading the topic) still makes
  // the group LOST until it is acknowledged.
  const shown = new Set(partitions.map((p) => partitionKey(p.row)));
  const unshownLosses = [...lossesOf].filter(([key]) => !shown.has(key)).map(([, losses]) => losses);
  const status = combineGroupStatus({
    partitionStatuses: [
      ...partitions.map((p) => ({
        topic: p.row.topic,
        partition: p.row.partition,
        status: p.status,
        reason: p.statusReason,
      })),
      ...unshownLosses.map((losses) => ({
        topic: losses[0]!.topic,
        partition: losses[0]!.partition,
        status: 'LOST' as const,
        reason: lostReason(losses, nowMs),
      })),
    ],
    quarantinedPartitions: input.quarantined,
    worstTimeLagMs: worstTimeLag?.ms ?? null,
    timeLagObjectiveMs: input.timeLagObjectiveMs,
    unknownTimeLagPartitions: partitions.filter((p) => (p.lag ?? 0) > 0 && p.timeLag.ms === null).length,
  });
  // A partition never committed has no window at all, so it says nothing about the source.
  const sources = new Set(partitions.filter((p) => p.row.committedOffset !== null).map((p) => p.commitSource));
  const commitSource = sources.size === 0 ? null : sources.size > 1 ? 'mixed' : [...sources][0]!;

  const members = new Map<string, GroupAnalysis['members'][number]>();
  for (const p of partitions) {
    if (p.row.memberClientId === null) continue;
    const memberId = p.row.memberId ?? null;
    const key = memberId ?? `${p.row.memberClientId}\u0000${p.row.memberHost ?? ''}`;
    let member = members.get(key);
    if (!member) {
      const identity = { memberId, clientId: p.row.memberClientId, host: p.row.memberHost };
      member = { ...identity, name: memberName(identity), partitions: [] };
      members.set(key, member);
    }
    member.partitions.push({ topic: p.row.topic, partition: p.row.partition });
  }

  return {
    partitions,
    status,
    commitSource,
    totalLag,
    partitionsWithoutCommit,
    worstTimeLag,
    soonestDeletion: soonestDeletion(
      partitions.map((p) => ({ topic: p.row.topic, partition: p.row.partition, risk: p.retentionRisk })),
      nowMs,
    ),
    retentionAtRiskPartitions: partitions.filter((p) => p.retentionRisk.kind === 'at-risk').length,
    retentionUnknownPartitions: partitions.filter((p) => p.retentionRisk.kind === 'unknown').length,
    unacknowledgedLosses: unacknowledged,
    members: [...members.values()],
  };
}

/** The parts of a group's sampled round the analysis reads (lib/groups/load-group-rounds.ts's GroupRound). */
export interface AnalyzedRound {
  sampledAt: Date;
  state: string | null;
  rows: readonly LatestPartitionRow[];
  history: ReadonlyMap<string, readonly SamplePoint[]>;
  observedCommits: ReadonlyMap<string, readonly ObservedCommit[]>;
  /** Per topic the group reads: its stored retention settings (absent: not read yet). */
  retention?: ReadonlyMap<string, TopicRetentionSettings>;
  /** The group's record-loss episodes that may still matter (at least every unacknowledged one). */
  losses?: readonly LossEpisode[];
}

/**
 * A round's analysis as the overview, the group page and the advice all make it: at the round's own time, so
 * the three agree on every status and number of the same round.
 */
export function analyzeRound(
  round: AnalyzedRound,
  quarantined: ReadonlyArray<{ topic: string; partition: number }>,
  options: { timeLagObjectiveMs: number | null; rateWindowMs: number },
): GroupAnalysis {
  return analyzeGroup({
    rows: round.rows,
    groupState: round.state,
    observedCommits: round.observedCommits,
    history: round.history,
    retention: round.retention,
    losses: round.losses,
    quarantined,
    timeLagObjectiveMs: options.timeLagObjectiveMs,
    rateWindowMs: options.rateWindowMs,
    nowMs: round.sampledAt.getTime(),
  });
}

/** What the overview and the group page both show of a group: its newest round and its analysis. */
export function groupSummaryFields(
  round: { cluster: string; groupId: string; state: string; protocol: string | null; sampledAt: Date },
  analysis: GroupAnalysis,
  quarantinedPartitions: number,
  lastRebalance: { startedAt: Date; durationMs: number | null; durationIsBound: boolean } | null,
) {
  return {
    cluster: round.cluster,
    groupId: round.groupId,
    state: round.state,
    protocol: round.protocol,
    sampledAt: round.sampledAt.toISOString(),
    status: analysis.status.status,
    statusReasons: analysis.status.reasons,
    statusReasonCount: analysis.status.reasons.length,
    commitSource: analysis.commitSource,
    totalLag: analysis.totalLag,
    partitionsWithoutCommit: analysis.partitionsWithoutCommit,
    partitionCount: analysis.partitions.length,
    members: analysis.members.length,
    worstTimeLag: analysis.worstTimeLag,
    quarantinedPartitions,
    soonestDeletion: analysis.soonestDeletion,
    retentionAtRiskPartitions: analysis.retentionAtRiskPartitions,
    retentionUnknownPartitions: analysis.retentionUnknownPartitions,
    unacknowledgedLosses: analysis.unacknowledgedLosses.length,
    lastRebalance: lastRebalance
      ? {
          startedAt: lastRebalance.startedAt.toISOString(),
          durationMs: lastRebalance.durationMs,
          durationIsBound: lastRebalance.durationIsBound,
        }
      : null,
  };
}

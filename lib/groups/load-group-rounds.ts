import type { Database } from '../db';
import type { LagSample } from '../generated/prisma/client';
import { partitionKey, type LatestPartitionRow } from '../analysis/group-analysis';
import type { ObservedCommit, SamplePoint } from '../analysis/partition-analysis';
import type { LossEpisode } from '../analysis/retention';
import type { TopicRetentionSettings } from '../lag/retention-risk';
import { loadRecordLosses, loadRetentionSettings } from './load-retention';

/** A group's newest sampler round, and the history the analysis needs. */
export interface GroupRound {
  cluster: string;
  groupId: string;
  sampledAt: Date;
  state: string;
  protocol: string | null;
  rows: LatestPartitionRow[];
  /** Per partition (partitionKey), oldest first, newest round included. */
  history: Map<string, SamplePoint[]>;
  /** Total known lag per round over the history window, oldest first. */
  rounds: Array<{ atMs: number; totalLag: number | null }>;
  /** Per partition (partitionKey): the commits read from the offsets topic (the newest few; may be none). */
  observedCommits: Map<string, ObservedCommit[]>;
  /** The cluster's stored topic retention settings, by topic (shared by every round of one load). */
  retention: ReadonlyMap<string, TopicRetentionSettings>;
  /** The group's record-loss episodes that still matter (load-retention.ts loadRecordLosses), newest first. */
  losses: LossEpisode[];
}

/** A row of the newest round: the raw query names its columns as Prisma's model does. */
type LatestSampleRow = Omit<LagSample, 'cluster' | 'sampledAt'>;

const toNumber = (value: bigint | null): number | null => (value === null ? null : Number(value));

/**
 * The newest round of each group of `cluster` and `historyMs` of samples before it. `groupIds` limits the groups (one
 * group for the group page); `sampledWithinMs` drops groups whose newest round is older (gone groups leave
 * the overview). Groups with no sample at all are simply absent.
 */
export async function loadGroupRounds(
  db: Database,
  options: { cluster: string; groupIds?: string[]; sampledWithinMs?: number; historyMs: number; nowMs: number },
): Promise<GroupRound[]> {
  const { cluster } = options;
  const newest = await newestRounds(db, options);
  if (newest.length === 0) return [];

  const groupIds = newest.map((g) => g.groupId);
  const oldestNeeded = new Date(Math.min(...newest.map((g) => g.sampledAt.getTime())) - options.historyMs);
  // Only the columns the history needs, one row per partition with its samples as one JSON text of
  // [epoch ms, committed, log end, lag] tuples: this is the largest read of a page load, and decoding
  // thousands of rows (a Date and three bigints each) cost the client several times what the query costs
  // Postgres; JSON.parse is the cheapest decoder at hand. Offsets are exact as JSON numbers (below 2^53).
  // The tuples come in no particular order and are put in time order here.
  const [histories, latestRows, observations, retention, losses] = await Promise.all([
    db.$queryRaw<Array<{ group_id: string; topic: string; partition: number; samples: string }>>`
      SELECT group_id, topic, partition,
        json_agg(json_build_array((extract(epoch FROM sampled_at) * 1000)::bigint, committed_offset, log_end_offset, lag))::text AS samples
      FROM lag_sample
      WHERE cluster = ${cluster} AND group_id = ANY(${groupIds}::text[]) AND sampled_at >= ${oldestNeeded}
      GROUP BY group_id, topic, partition`,
    // The newest round's rows, joined to the (group, time) pairs as arrays: two parameters whatever the number
    // of groups. As a Prisma `OR` of one condition per group it was 4,000 parameters at 2,000 groups and took
    // five times as long (Postgres planned two thousand index scans, the client built the statement).
    db.$queryRaw<LatestSampleRow[]>`
      SELECT s.group_id AS "groupId", s.topic, s.partition, s.committed_offset AS "committedOffset",
        s.log_start_offset AS "logStartOffset", s.log_end_offset AS "logEndOffset", s.lag,
        s.group_state AS "groupState", s.group_protocol AS "groupProtocol", s.member_id AS "memberId",
        s.member_client_id AS "memberClientId", s.member_host AS "memberHost", s.time_lag_ms AS "timeLagMs",
        s.time_lag_kind AS "timeLagKind", s.exact_time_lag_ms AS "exactTimeLagMs",
        s.arrival_rate_per_sec AS "arrivalRatePerSec", s.consumption_rate_per_sec AS "consumptionRatePerSec"
      FROM unnest(${groupIds}::text[], ${newest.map((g) => g.sampledAt)}::timestamptz[]) AS n(group_id, sampled_at)
      JOIN lag_sample s ON s.cluster = ${cluster} AND s.group_id = n.group_id AND s.sampled_at = n.sampled_at
      ORDER BY s.topic, s.partition`,
    db.commitObservation.findMany({
      where: { cluster, groupId: { in: groupIds } },
      select: { groupId: true, topic: true, partition: true, committedOffset: true, committedAt: true },
    }),
    loadRetentionSettings(db, cluster),
    loadRecordLosses(db, cluster, groupIds, options.nowMs),
  ]);

  const byGroup = new Map<string, GroupRound>();
  for (const g of newest) {
    byGroup.set(g.groupId, {
      cluster,
      groupId: g.groupId,
      sampledAt: g.sampledAt,
      state: 'Unknown',
      protocol: null,
      rows: [],
      history: new Map(),
      rounds: [],
      observedCommits: new Map(),
      retention,
      losses: losses.get(g.groupId) ?? [],
    });
  }
  const totals = new Map<string, Map<number, number | null>>();
  for (const partition of histories) {
    const round = byGroup.get(partition.group_id);
    if (!round) continue;
    const fromMs = round.sampledAt.getTime() - options.historyMs;
    const toMs = round.sampledAt.getTime();
    let total = totals.get(round.groupId);
    if (!total) totals.set(round.groupId, (total = new Map()));
    const history: SamplePoint[] = [];
    const samples = (JSON.parse(partition.samples) as Array<[number, number | null, number, number | null]>).sort(
      (a, b) => a[0] - b[0],
    );
    for (const [atMs, committedOffset, logEndOffset, lag] of samples) {
      if (atMs < fromMs || atMs > toMs) continue;
      history.push({ atMs, committedOffset, logEndOffset });
      // A round's total is the sum of its known lags; null when none is known.
      const sum = total.get(atMs);
      total.set(atMs, lag === null ? (sum ?? null) : (sum ?? 0) + lag);
    }
    if (history.length > 0) round.history.set(partitionKey(partition), history);
  }
  for (const [groupId, total] of totals) {
    byGroup.get(groupId)!.rounds = [...total.entries()]
      .sort(([a], [b]) => a - b)
      .map(([atMs, totalLag]) => ({ atMs, totalLag }));
  }
  for (const o of observations) {
    const round = byGroup.get(o.groupId);
    if (!round) continue;
    const key = partitionKey(o);
    const list = round.observedCommits.get(key) ?? [];
    list.push({ atMs: o.committedAt.getTime(), committedOffset: Number(o.committedOffset) });
    round.observedCommits.set(key, list);
  }
  for (const sample of latestRows) {
    const round = byGroup.get(sample.groupId);
    if (!round) continue;
    round.state = sample.groupState;
    round.protocol = sample.groupProtocol ?? round.protocol;
    round.rows.push({
      topic: sample.topic,
      partition: sample.partition,
      committedOffset: sample.committedOffset,
      logStartOffset: sample.logStartOffset,
      logEndOffset: sample.logEndOffset,
      lag: sample.lag,
      memberId: sample.memberId,
      memberClientId: sample.memberClientId,
      memberHost: sample.memberHost,
      timeLagMs: toNumber(sample.timeLagMs),
      timeLagKind: sample.timeLagKind,
      exactTimeLagMs: toNumber(sample.exactTimeLagMs),
      arrivalRatePerSec: sample.arrivalRatePerSec,
      consumptionRatePerSec: sample.consumptionRatePerSec,
    });
  }
  return [...byGroup.values()];
}

/**
 * The newest sample time of each group. For named groups it is one index lookup each (no time bound, so a
 * group that stopped being sampled still answers); otherwise every group sampled within the window.
 */
async function newestRounds(
  db: Database,
  options: { cluster: string; groupIds?: string[]; sampledWithinMs?: number; nowMs: number },
): Promise<Array<{ groupId: string; sampledAt: Date }>> {
  const since = options.sampledWithinMs === undefined ? null : new Date(options.nowMs - options.sampledWithinMs);
  if (options.groupIds) {
    const rows = await db.$queryRaw<Array<{ group_id: string; sampled_at: Date | null }>>`
      SELECT g AS group_id, (SELECT max(sampled_at) FROM lag_sample WHERE cluster = ${options.cluster} AND group_id = g) AS sampled_at
      FROM unnest(${options.groupIds}::text[]) AS g`;
    return rows.flatMap((r) =>
      r.sampled_at && (since === null || r.sampled_at >= since)
        ? [{ groupId: r.group_id, sampledAt: r.sampled_at }]
        : [],
    );
  }
  const latest = await db.lagSample.groupBy({
    by: ['groupId'],
    where: since === null ? { cluster: options.cluster } : { cluster: options.cluster, sampledAt: { gte: since } },
    _max: { sampledAt: true },
  });
  return latest.flatMap((g) => (g._max.sampledAt ? [{ groupId: g.groupId, sampledAt: g._max.sampledAt }] : []));
}

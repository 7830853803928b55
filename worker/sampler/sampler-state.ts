// Everything the leading sampler remembers between rounds, and how one round's cluster observation becomes
// lag_sample rows and inferred rebalances. Pure (no kafkajs, no Prisma, no clock): the LagSampler reads the
// cluster, performs the record reads asked for, and writes what comes out.
//
// A round is two steps because exact time lag needs I/O in the middle:
//   prepareRound(observation, now)  -> rows with offsets, interpolated time lag and rates; records to read;
//                                      rebalances completed by this observation
//   completeRound(prepared, reads)  -> the lag_sample rows, with exact time lag where known

import type { TimeLag } from '../../lib/lag/time-lag';
import { ExactTimeLagPlanner } from './exact-time-lag';
import { buildLagRows, indexWatermarks, type LagRow } from './lag-rows';
import { LogEndPointTables } from './log-end-point-tables';
import { RateHistory, type Rates } from './rate-history';
import { trackGroup, type InferredRebalance, type RebalanceTracker } from './rebalance-inference';
import type { RecordReadRequest, RecordReadResult } from '../../lib/kafka/cluster-observation';
import type { ClusterObservation } from '../../lib/kafka/cluster-observation';

export interface SamplerStateOptions {
  timeLagPoints: number;
  timeLagSpacingMs: number;
  rateWindowMs: number;
  exactTimeLagIntervalMs: number;
  exactTimeLagMaxPartitions: number;
  /** Evidence window for telling a timeout from a clean leave (rebalance-inference.ts). */
  silenceMs?: number;
}

export interface LagSampleRow extends LagRow {
  timeLagMs: bigint | null;
  timeLagKind: TimeLag['kind'];
  exactTimeLagMs: bigint | null;
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}

export interface PreparedRow {
  row: LagRow;
  timeLag: TimeLag;
  rates: Rates;
}

export interface PreparedRound {
  nowMs: number;
  rows: PreparedRow[];
  /** Records whose timestamps give exact time lag; empty when the cadence is not due. */
  reads: RecordReadRequest[];
  rebalances: InferredRebalance[];
}

const rowKey = (groupId: string, topic: string, partition: number) => `${groupId}\u0000${topic}\u0000${partition}`;

export class SamplerState {
  readonly points: LogEndPointTables;
  private readonly rates: RateHistory;
  private readonly exact: ExactTimeLagPlanner;
  private readonly trackers = new Map<string, RebalanceTracker>();

  constructor(private readonly options: SamplerStateOptions) {
    this.points = new LogEndPointTables({ maxPoints: options.timeLagPoints, spacingMs: options.timeLagSpacingMs });
    this.rates = new RateHistory(options.rateWindowMs);
    this.exact = new ExactTimeLagPlanner({
      intervalMs: options.exactTimeLagIntervalMs,
      maxPartitions: options.exactTimeLagMaxPartitions,
    });
  }

  prepareRound(observation: ClusterObservation, nowMs: number): PreparedRound {
    const sampledAt = new Date(nowMs);
    for (const topic of observation.watermarks) {
      for (const p of topic.partitions) this.points.observe(topic.topic, p.partition, Number(p.high), nowMs);
    }
    // Partitions of deleted topics, or of topics no sampled group reads any more, are forgotten (and their
    // stored points deleted); a topic that comes back starts a new history. A partition of a live topic
    // missing from one round (no leader during an election) keeps its history.
    const live = new Set(observation.topics ?? observation.watermarks.map((w) => w.topic));
    this.points.retainWhere((topic) => live.has(topic));

    const rows: PreparedRow[] = [];
    const rebalances: InferredRebalance[] = [];
    const watermarks = indexWatermarks(observation.watermarks);
    for (const group of observation.groups) {
      const groupRows = buildLagRows(group, watermarks, sampledAt);
      for (const row of groupRows) {
        const key = rowKey(row.groupId, row.topic, row.partition);
        const committed = row.committedOffset === null ? null : Number(row.committedOffset);
        this.rates.record(key, { atMs: nowMs, committedOffset: committed, logEndOffset: Number(row.logEndOffset) });
        rows.push({
          row,
          timeLag: this.points.estimate(row.topic, row.partition, committed, Number(row.logEndOffset), nowMs),
          rates: this.rates.estimate(key),
        });
      }
      const { tracker, rebalance } = trackGroup(
        this.trackers.get(group.groupId),
        {
          groupId: group.groupId,
          atMs: nowMs,
          state: group.state,
          members: group.members,
          partitions: groupRows.map((r) => ({
            topic: r.topic,
            partition: r.partition,
            committedOffset: r.committedOffset,
            lag: r.lag,
          })),
        },
        { silenceMs: this.options.silenceMs },
      );
      if (tracker) this.trackers.set(group.groupId, tracker);
      else this.trackers.delete(group.groupId);
      if (rebalance) rebalances.push(rebalance);
    }
    this.rates.forgetUnrecordedSince(nowMs);
    const seenGroups = new Set(observation.groups.map((g) => g.groupId));
    for (const groupId of this.trackers.keys()) if (!seenGroups.has(groupId)) this.trackers.delete(groupId); // group deleted

    // Only a lagging partition has a record to read (isReadable): the planner is given those alone.
    const lagging = rows.filter(({ row }) => row.lag !== null && row.lag > 0n);
    const reads = this.exact.plan(
      lagging.map(({ row, timeLag }) => ({
        topic: row.topic,
        partition: row.partition,
        committedOffset: row.committedOffset,
        logStartOffset: row.logStartOffset,
        logEndOffset: row.logEndOffset,
        estimatedMs: timeLag.ms,
      })),
      nowMs,
    );
    return { nowMs, rows, reads, rebalances };
  }

  completeRound(prepared: PreparedRound, reads: readonly RecordReadResult[]): LagSampleRow[] {
    this.exact.accept(reads);
    const samples = prepared.rows.map(({ row, timeLag, rates }): LagSampleRow => {
      const exactMs = this.exact.exactFor(row, prepared.nowMs);
      return {
        sampledAt: row.sampledAt,
        groupId: row.groupId,
        topic: row.topic,
        partition: row.partition,
        committedOffset: row.committedOffset,
        logStartOffset: row.logStartOffset,
        logEndOffset: row.logEndOffset,
        lag: row.lag,
        groupState: row.groupState,
        memberId: row.memberId,
        memberClientId: row.memberClientId,
        memberHost: row.memberHost,
        groupProtocol: row.groupProtocol,
        timeLagMs: timeLag.ms === null ? null : BigInt(Math.round(timeLag.ms)),
        timeLagKind: timeLag.kind,
        exactTimeLagMs: exactMs === null ? null : BigInt(exactMs),
        arrivalRatePerSec: finiteOrNull(rates.arrivalRatePerSec),
        consumptionRatePerSec: finiteOrNull(rates.consumptionRatePerSec),
      };
    });
    // A timestamp is only ever used for a lagging position (exactFor): the others' are dropped.
    this.exact.retainOnly(prepared.rows.flatMap(({ row }) => (row.lag !== null && row.lag > 0n ? [row] : [])));
    return samples;
  }
}

function finiteOrNull(value: number | null): number | null {
  return value !== null && Number.isFinite(value) ? value : null;
}

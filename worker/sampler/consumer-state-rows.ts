// Rows of consumer_partition_state from a snapshot of Warden's own consumer core: per owned partition, where
// the commit prefix stands and what holds it back (in flight, completed above a gap, buffered, the oldest
// unfinished record and its age, paused). Pure.

import type { CoreSnapshot } from '@warden/consumer';

export interface ConsumerStateRow {
  groupId: string;
  topic: string;
  partition: number;
  instanceId: string;
  sampledAt: Date;
  watermark: bigint | null;
  highestCompleted: bigint | null;
  inFlight: number;
  completedUncommitted: number;
  buffered: number;
  bufferedBytes: number;
  oldestUnfinishedOffset: bigint | null;
  oldestUnfinishedAgeMs: number | null;
  paused: boolean;
}

const INT4_MAX = 2_147_483_647;

/**
 * One row per partition in the snapshot. `paused` is true when fetching is paused for any reason
 * (backpressure or a quarantine; the quarantine itself is in partition_quarantine). Counts and ages that
 * would overflow the int4 columns are clamped rather than failing the whole write.
 */
export function buildConsumerStateRows(
  snapshot: CoreSnapshot,
  identity: { groupId: string; instanceId: string },
  sampledAt: Date,
): ConsumerStateRow[] {
  return snapshot.partitions.map((p) => ({
    groupId: identity.groupId,
    topic: p.topic,
    partition: p.partition,
    instanceId: identity.instanceId,
    sampledAt,
    watermark: p.watermark === null ? null : BigInt(p.watermark),
    highestCompleted: p.highestCompleted === null ? null : BigInt(p.highestCompleted),
    inFlight: clampInt(p.inFlight),
    completedUncommitted: clampInt(p.completedUncommitted),
    buffered: clampInt(p.buffered),
    bufferedBytes: clampInt(p.bufferedBytes),
    oldestUnfinishedOffset: p.oldestUnfinishedOffset === null ? null : BigInt(p.oldestUnfinishedOffset),
    oldestUnfinishedAgeMs: p.oldestUnfinishedAgeMs === null ? null : clampInt(p.oldestUnfinishedAgeMs),
    paused: p.paused || p.quarantine !== null,
  }));
}

function clampInt(value: number): number {
  if (!Number.isFinite(value)) return INT4_MAX;
  return Math.min(INT4_MAX, Math.max(0, Math.round(value)));
}

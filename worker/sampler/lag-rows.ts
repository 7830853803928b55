// Pure assembly of one sampler round: what the cluster said, turned into one row per
// group/topic/partition. Kept free of kafkajs so it is unit-tested on plain data.

import type { GroupMember, GroupSnapshot, TopicWatermarks } from '../../lib/kafka/cluster-observation';

export interface LagRow {
  sampledAt: Date;
  groupId: string;
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  logStartOffset: bigint;
  logEndOffset: bigint;
  lag: bigint | null;
  groupState: string;
  memberId: string | null;
  memberClientId: string | null;
  memberHost: string | null;
  groupProtocol: string | null;
}

interface IndexedPartition {
  partition: number;
  low: bigint;
  high: bigint;
}

/** A round's watermarks by topic, partitions in partition order, offsets parsed once for every group. */
export interface WatermarkIndex {
  readonly byTopic: ReadonlyMap<string, { order: number; partitions: readonly IndexedPartition[] }>;
}

export function indexWatermarks(watermarks: readonly TopicWatermarks[]): WatermarkIndex {
  const byTopic = new Map<string, { order: number; partitions: IndexedPartition[] }>();
  watermarks.forEach((topic, order) => {
    const partitions = topic.partitions
      .map((p) => ({ partition: p.partition, low: BigInt(p.low), high: BigInt(p.high) }))
      .sort((a, b) => a.partition - b.partition);
    // A topic listed twice keeps its first listing, as one row per partition requires.
    if (!byTopic.has(topic.topic)) byTopic.set(topic.topic, { order, partitions });
  });
  return { byTopic };
}

/**
 * One row per partition of every topic the group consumes (committed on or assigned), topics in watermark
 * order, partitions in partition order. Lag is log end minus committed, never negative (a committed offset
 * can briefly lead a stale watermark), and null when nothing is committed (a negative committed offset counts
 * as nothing committed). `watermarks` may be indexed once per round (indexWatermarks) so that each group costs
 * only its own partitions.
 */
export function buildLagRows(
  group: GroupSnapshot,
  watermarks: readonly TopicWatermarks[] | WatermarkIndex,
  sampledAt: Date,
): LagRow[] {
  const index = Array.isArray(watermarks) ? indexWatermarks(watermarks) : (watermarks as WatermarkIndex);
  const committed = new Map<string, Map<number, bigint>>();
  for (const topic of group.committed) {
    let offsets = committed.get(topic.topic);
    if (!offsets) committed.set(topic.topic, (offsets = new Map()));
    for (const p of topic.partitions) {
      // -1 is "nothing committed"; any negative offset is a marker, not a position (kafkajs commits -2,
      // "earliest", or -1, "latest", while it resets a group whose offset went out of range): none either.
      if (p.offset !== '' && !p.offset.startsWith('-')) offsets.set(p.partition, BigInt(p.offset));
    }
  }
  const owners = new Map<string, Map<number, GroupMember>>();
  for (const member of group.members) {
    for (const topic in member.assignment) {
      let owned = owners.get(topic);
      if (!owned) owners.set(topic, (owned = new Map()));
      for (const partition of member.assignment[topic]!) owned.set(partition, member);
    }
  }
  const consumed: Array<{ topic: string; order: number; partitions: readonly IndexedPartition[] }> = [];
  const addTopic = (topic: string) => {
    const indexed = index.byTopic.get(topic);
    if (indexed && !consumed.some((c) => c.topic === topic)) consumed.push({ topic, ...indexed });
  };
  for (const topic of committed.keys()) addTopic(topic);
  for (const topic of owners.keys()) addTopic(topic);
  if (consumed.length > 1) consumed.sort((a, b) => a.order - b.order);

  const groupProtocol = group.protocol === '' ? null : group.protocol;
  const rows: LagRow[] = [];
  for (const { topic, partitions } of consumed) {
    const committedOf = committed.get(topic);
    const ownerOf = owners.get(topic);
    for (const p of partitions) {
      const logEnd = p.high;
      const committedOffset = committedOf?.get(p.partition) ?? null;
      const owner = ownerOf?.get(p.partition);
      rows.push({
        sampledAt,
        groupId: group.groupId,
        topic,
        partition: p.partition,
        committedOffset,
        logStartOffset: p.low,
        logEndOffset: logEnd,
        lag: committedOffset === null ? null : logEnd > committedOffset ? logEnd - committedOffset : 0n,
        groupState: group.state,
        memberId: owner?.memberId ?? null,
        memberClientId: owner?.clientId ?? null,
        memberHost: owner?.clientHost ?? null,
        groupProtocol,
      });
    }
  }
  return rows;
}

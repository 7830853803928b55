// Pure assembly of one sampler round: what the cluster said, turned into one row per
// group/topic/partition. Kept free of kafkajs so it is unit-tested on plain data.

import { topicsOf, type GroupSnapshot, type TopicWatermarks } from '../../lib/kafka/cluster-observation';

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

/**
 * One row per partition of every topic the group consumes. Lag is log end minus committed, never
 * negative (a committed offset can briefly lead a stale watermark), and null when nothing is committed.
 */
export function buildLagRows(group: GroupSnapshot, watermarks: TopicWatermarks[], sampledAt: Date): LagRow[] {
  const committed = new Map<string, bigint>();
  for (const topic of group.committed) {
    for (const p of topic.partitions) {
      if (p.offset !== '-1' && p.offset !== '') committed.set(`${topic.topic}/${p.partition}`, BigInt(p.offset));
    }
  }
  const owners = new Map<string, { memberId: string; clientId: string; clientHost: string }>();
  for (const member of group.members) {
    for (const [topic, partitions] of Object.entries(member.assignment)) {
      for (const partition of partitions) owners.set(`${topic}/${partition}`, member);
    }
  }
  const consumed = topicsOf(group);
  const rows: LagRow[] = [];
  for (const topic of watermarks) {
    if (!consumed.has(topic.topic)) continue;
    for (const p of [...topic.partitions].sort((a, b) => a.partition - b.partition)) {
      const id = `${topic.topic}/${p.partition}`;
      const logEnd = BigInt(p.high);
      const committedOffset = committed.get(id) ?? null;
      const owner = owners.get(id);
      rows.push({
        sampledAt,
        groupId: group.groupId,
        topic: topic.topic,
        partition: p.partition,
        committedOffset,
        logStartOffset: BigInt(p.low),
        logEndOffset: logEnd,
        lag: committedOffset === null ? null : logEnd > committedOffset ? logEnd - committedOffset : 0n,
        groupState: group.state,
        memberId: owner?.memberId ?? null,
        memberClientId: owner?.clientId ?? null,
        memberHost: owner?.clientHost ?? null,
        groupProtocol: group.protocol === '' ? null : group.protocol,
      });
    }
  }
  return rows;
}

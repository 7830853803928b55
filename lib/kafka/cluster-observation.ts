// What one sampler round reads from the cluster, as plain data: the ClusterReader (kafkajs) produces it, the
// sampler (worker/sampler) turns it into rows. Shared here so neither side depends on the other.

export interface GroupMember {
  memberId: string;
  clientId: string;
  clientHost: string;
  /** Partitions per topic; {} while the group is rebalancing. */
  assignment: Record<string, number[]>;
}

export interface GroupSnapshot {
  groupId: string;
  state: string;
  /** Assignor the group chose (describeGroups' protocol, e.g. RoundRobinAssigner); '' when none. */
  protocol: string;
  members: GroupMember[];
  /** Committed offsets per topic; offset "-1" means nothing committed for that partition. */
  committed: Array<{ topic: string; partitions: Array<{ partition: number; offset: string }> }>;
}

export interface TopicWatermarks {
  topic: string;
  partitions: Array<{ partition: number; low: string; high: string }>;
}

/** What one round read from the cluster. */
export interface ClusterObservation {
  groups: GroupSnapshot[];
  /** Watermarks of every existing topic the sampled groups commit to or are assigned. */
  watermarks: TopicWatermarks[];
  /**
   * Topics known to exist this round, including ones whose partitions had no leader (left out of the
   * watermarks for the round). Default: the watermarks' topics.
   */
  topics?: string[];
}

export interface RecordReadRequest {
  topic: string;
  partition: number;
  offset: bigint;
}

export interface RecordReadResult extends RecordReadRequest {
  /** The first record at or after `offset` (skipping control records); null when none could be read. */
  timestampMs: number | null;
}

/** Topics whose watermarks a round needs: everything a group committed to or is assigned. */
export function topicsOf(group: GroupSnapshot): Set<string> {
  const topics = new Set(group.committed.map((t) => t.topic));
  for (const member of group.members) for (const topic of Object.keys(member.assignment)) topics.add(topic);
  return topics;
}

/**
 * Whether the sampler watches a group: include/exclude patterns, and always Warden's own group; never Warden's
 * helper groups (`hiddenGroupIds`) nor the control plane's own (ids starting with one of `hiddenGroupPrefixes`,
 * `<control prefix>.`: the worker's state ingester and each service's command reader).
 */
export function isGroupSampled(
  groupId: string,
  filter: {
    include: RegExp | null;
    exclude: RegExp | null;
    ownGroupId: string;
    hiddenGroupIds?: readonly string[];
    hiddenGroupPrefixes?: readonly string[];
  },
): boolean {
  if (groupId === filter.ownGroupId) return true;
  if (filter.hiddenGroupIds?.includes(groupId)) return false;
  if (filter.hiddenGroupPrefixes?.some((prefix) => groupId.startsWith(prefix))) return false;
  if (filter.include && !filter.include.test(groupId)) return false;
  if (filter.exclude?.test(groupId)) return false;
  return true;
}

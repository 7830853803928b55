import { AssignerProtocol, type Admin, type GroupDescription, type Kafka } from 'kafkajs';
import { createInternalCluster, type InternalCluster, type InternalPartitionMetadata } from './internal-cluster';
import {
  type RecordReadRequest,
  type RecordReadResult,
  isGroupSampled,
  topicsOf,
  type GroupMember,
  type GroupSnapshot,
  type TopicWatermarks,
  type ClusterObservation,
} from './cluster-observation';

export interface ClusterReaderOptions {
  kafka: Kafka;
  ownGroupId: string;
  include: RegExp | null;
  exclude: RegExp | null;
  /** Warden's own helper groups that consume but never commit (the offsets-topic reader): never sampled. */
  hiddenGroupIds?: readonly string[];
  /** The control plane's groups (`<prefix>.`): never sampled. */
  hiddenGroupPrefixes?: readonly string[];
  /** Bytes fetched per partition when reading the record at a committed offset. Default 32 KiB. */
  recordMaxBytes?: number;
}

/** What the sampler reads from the cluster; a port so the sampler loop does not depend on kafkajs. */
export interface ClusterReaderPort {
  /** `select`: sharded sampling's filter of the groups this instance samples (absent: every sampled group). */
  readCluster(select?: (groupId: string) => boolean): Promise<ClusterObservation>;
  readRecordTimestamps(requests: readonly RecordReadRequest[]): Promise<RecordReadResult[]>;
  disconnect(): Promise<void>;
}

const READ_COMMITTED = 1;
const FETCH_RESPONSE_MAX_BYTES = 16 * 1024 * 1024;
const OUT_OF_RANGE_RETRIES = 3;
const STALE_METADATA_RETRIES = 3;

/**
 * Reads one sampler round from the cluster with its own connections (never the pipeline consumer's), so a
 * slow or failing cluster read cannot delay the consumer core. Requests per round: ListGroups, one
 * DescribeGroups per coordinator, one OffsetFetch per group, one Metadata and two ListOffsets per broker for
 * all topics together; exact time lag adds one Fetch per broker per batch, and one Metadata request when it
 * names a topic or partition the round's metadata lacks.
 *
 * Failure behaviour: readCluster throws when the cluster cannot be read (the sampler backs off and marks a
 * gap); a group that cannot be described or whose offsets cannot be fetched is left out of the round; a
 * topic deleted since a group committed to it is left out. readRecordTimestamps never throws: an unreadable record has timestampMs null.
 */
export class ClusterReader implements ClusterReaderPort {
  private readonly admin: Admin;
  private readonly cluster: InternalCluster;
  private connecting: Promise<void> | null = null;
  private connected = false;

  constructor(private readonly options: ClusterReaderOptions) {
    this.admin = options.kafka.admin();
    this.cluster = createInternalCluster(options.kafka);
  }

  async readCluster(select?: (groupId: string) => boolean): Promise<ClusterObservation> {
    await this.ensureConnected();
    const { groups } = await this.admin.listGroups();
    const groupIds = groups
      .filter((g) => g.protocolType === 'consumer' || g.protocolType === '')
      .map((g) => g.groupId)
      .filter((id) => isGroupSampled(id, this.options) && (select?.(id) ?? true))
      .sort();
    if (groupIds.length === 0) return { groups: [], watermarks: [], topics: [] };
    const live = (await this.describeGroups(groupIds)).filter((g) => g.state !== 'Dead');
    const committed = await Promise.allSettled(live.map((g) => this.admin.fetchOffsets({ groupId: g.groupId })));
    if (live.length > 0 && committed.every((c) => c.status === 'rejected'))
      throw (committed[0] as PromiseRejectedResult).reason;
    const snapshots: GroupSnapshot[] = [];
    live.forEach((group, i) => {
      const result = committed[i];
      if (result?.status !== 'fulfilled') return;
      snapshots.push({
        groupId: group.groupId,
        state: group.state,
        protocol: group.protocol ?? '',
        members: group.members.map((member): GroupMember => ({
          memberId: member.memberId,
          clientId: member.clientId,
          clientHost: member.clientHost,
          assignment: decodeAssignment(member.memberAssignment),
        })),
        committed: result.value.map((t) => ({
          topic: t.topic,
          partitions: t.partitions.map((p) => ({ partition: p.partition, offset: p.offset })),
        })),
      });
    });
    const topics = [...new Set(snapshots.flatMap((s) => [...topicsOf(s)]))].sort();
    const { watermarks, existing } = await this.readWatermarks(topics);
    return { groups: snapshots, watermarks, topics: existing };
  }

  async readRecordTimestamps(requests: readonly RecordReadRequest[]): Promise<RecordReadResult[]> {
    if (requests.length === 0) return [];
    const byTopic = new Map<string, RecordReadRequest[]>();
    for (const r of requests) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r);
      else byTopic.set(r.topic, [r]);
    }
    await this.loadMetadataOf(byTopic);
    const byLeader = new Map<string, RecordReadRequest[]>();
    const unreadable: RecordReadResult[] = [];
    for (const [topic, list] of byTopic) {
      let leaders: Record<string, number[]>;
      try {
        leaders = this.cluster.findLeaderForPartitions(
          topic,
          list.map((r) => r.partition),
        );
      } catch {
        unreadable.push(...list.map((r) => ({ ...r, timestampMs: null })));
        continue;
      }
      const led = new Set<number>();
      for (const [nodeId, partitions] of Object.entries(leaders)) {
        const forLeader = byLeader.get(nodeId) ?? [];
        byLeader.set(nodeId, forLeader);
        for (const r of list.filter((x) => partitions.includes(x.partition))) {
          forLeader.push(r);
          led.add(r.partition);
        }
      }
      unreadable.push(...list.filter((r) => !led.has(r.partition)).map((r) => ({ ...r, timestampMs: null })));
    }
    // A Fetch names each partition once, so several offsets of one partition (groups at different
    // positions) go in successive waves; waves to one broker run one after the other.
    const perBroker = await Promise.all(
      [...byLeader].map(async ([nodeId, list]) => {
        const results: RecordReadResult[] = [];
        for (const wave of intoWaves(list)) {
          results.push(
            ...(await this.fetchFirstRecords(nodeId, wave, 0).catch(() =>
              wave.map((r) => ({ ...r, timestampMs: null })),
            )),
          );
        }
        return results;
      }),
    );
    return [...unreadable, ...perBroker.flat()];
  }

  /**
   * kafkajs fails a whole DescribeGroups when one group in it has an error (a group deleted meanwhile, or one
   * the classic API cannot describe); then each group is described alone and the failing ones are left out.
   */
  private async describeGroups(groupIds: string[]): Promise<GroupDescription[]> {
    try {
      return (await this.admin.describeGroups(groupIds)).groups;
    } catch (error) {
      if (groupIds.length === 1) throw error;
      const each = await Promise.allSettled(groupIds.map((id) => this.admin.describeGroups([id])));
      const described = each.flatMap((r) => (r.status === 'fulfilled' ? r.value.groups : []));
      if (described.length === 0) throw error;
      return described;
    }
  }

  async disconnect(): Promise<void> {
    this.connected = false;
    await Promise.allSettled([this.admin.disconnect(), this.cluster.disconnect()]);
  }

  /**
   * Loads the metadata of the requests' topics when it lacks a partition they name: the round's readCluster
   * loaded it for the round's topics, but a caller may read a topic no round has covered yet, or a partition
   * whose leader was unknown at the round's refresh. A failure leaves those records unreadable (null), as does
   * a topic that still lacks them after the refresh.
   */
  private async loadMetadataOf(byTopic: ReadonlyMap<string, readonly RecordReadRequest[]>): Promise<void> {
    const missing: string[] = [];
    for (const [topic, list] of byTopic) {
      const led = new Set(
        this.loadedPartitions(topic)
          .filter((p) => p.leader !== null && p.leader >= 0)
          .map((p) => p.partitionId),
      );
      if (list.some((r) => !led.has(r.partition))) missing.push(topic);
    }
    if (missing.length === 0) return;
    try {
      await this.ensureConnected();
      await this.refreshMetadataOf([...new Set([...this.cluster.targetTopics, ...missing])]);
    } catch {
      // Unreachable: the records of those topics come back unreadable.
    }
  }

  /** The partitions of `topic` in the loaded metadata; none before any metadata has loaded. */
  private loadedPartitions(topic: string): InternalPartitionMetadata[] {
    try {
      return this.cluster.findTopicPartitionMetadata(topic);
    } catch {
      return [];
    }
  }

  /**
   * Makes `topics` the ones whose metadata is loaded, and loads it; a topic that does not exist (deleted, or
   * never created) is left out. Returns the topics that exist.
   */
  private async refreshMetadataOf(topics: string[]): Promise<string[]> {
    this.cluster.targetTopics = new Set(topics);
    try {
      await this.cluster.refreshMetadata();
      return topics;
    } catch (error) {
      if (!isUnknownTopic(error)) throw error;
      const all = new Set(await this.admin.listTopics());
      const existing = topics.filter((t) => all.has(t));
      this.cluster.targetTopics = new Set(existing);
      if (existing.length > 0) await this.cluster.refreshMetadata();
      return existing;
    }
  }

  private async ensureConnected(): Promise<void> {
    if (this.connected) return;
    this.connecting ??= (async () => {
      try {
        await this.admin.connect();
        await this.cluster.connect();
        this.connected = true;
      } finally {
        this.connecting = null;
      }
    })();
    await this.connecting;
  }

  /**
   * Log start and end of every partition of `topics`. Metadata is refreshed for exactly these topics every
   * round, so partitions added since the last round appear and deleted topics drop out.
   */
  private async readWatermarks(topics: string[]): Promise<{ watermarks: TopicWatermarks[]; existing: string[] }> {
    if (topics.length === 0) return { watermarks: [], existing: [] };
    const existing = await this.refreshMetadataOf(topics);
    if (existing.length === 0) return { watermarks: [], existing };
    // A partition without a leader yet (just created) is left out of this round; stale leadership (a
    // leader moved, partitions just added) gets a metadata refresh and a retry before the round fails.
    let high: Awaited<ReturnType<InternalCluster['fetchTopicsOffset']>>;
    let low: typeof high;
    for (let attempt = 1; ; attempt++) {
      const request = existing
        .map((topic) => ({
          topic,
          partitions: this.cluster
            .findTopicPartitionMetadata(topic)
            .filter((p) => p.leader !== null && p.leader >= 0)
            .map((p) => ({ partition: p.partitionId })),
        }))
        .filter((t) => t.partitions.length > 0);
      try {
        [high, low] = await Promise.all([
          this.cluster.fetchTopicsOffset(request.map((t) => ({ ...t, fromBeginning: false }))),
          this.cluster.fetchTopicsOffset(request.map((t) => ({ ...t, fromBeginning: true }))),
        ]);
        break;
      } catch (error) {
        if (attempt >= STALE_METADATA_RETRIES || !isStaleMetadata(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        await this.cluster.refreshMetadata();
      }
    }
    const lows = new Map(
      low.flatMap((t) => t.partitions.map((p) => [`${t.topic}\u0000${p.partition}`, p.offset] as const)),
    );
    const watermarks = high
      .map((t) => ({
        topic: t.topic,
        partitions: t.partitions
          .map((p) => ({
            partition: p.partition,
            high: p.offset,
            low: lows.get(`${t.topic}\u0000${p.partition}`) ?? '0',
          }))
          .sort((a, b) => a.partition - b.partition),
      }))
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
    return { watermarks, existing };
  }

  /**
   * One Fetch to `nodeId` for the first record at or after each requested offset. A partition whose offset
   * went out of range meanwhile (retention) fails the whole response in kafkajs; it is dropped and the rest
   * retried. A partition whose first batch is larger than recordMaxBytes may come back empty (the broker only
   * oversizes the first partition of a response); it gets timestampMs null and is planned again later.
   */
  private async fetchFirstRecords(
    nodeId: string,
    requests: RecordReadRequest[],
    attempt: number,
  ): Promise<RecordReadResult[]> {
    const broker = await this.cluster.findBroker({ nodeId });
    const maxBytes = this.options.recordMaxBytes ?? 32 * 1024;
    const topics = [...new Set(requests.map((r) => r.topic))].map((topic) => ({
      topic,
      partitions: requests
        .filter((r) => r.topic === topic)
        .map((r) => ({ partition: r.partition, fetchOffset: r.offset.toString(), maxBytes })),
    }));
    let response;
    try {
      response = await broker.fetch({
        isolationLevel: READ_COMMITTED,
        maxWaitTime: 0,
        minBytes: 1,
        maxBytes: FETCH_RESPONSE_MAX_BYTES,
        topics,
      });
    } catch (error) {
      const e = error as { name?: string; topic?: string; partition?: number };
      if (e.name === 'KafkaJSOffsetOutOfRange' && attempt < OUT_OF_RANGE_RETRIES) {
        const gone = requests.filter((r) => r.topic === e.topic && r.partition === e.partition);
        const rest = requests.filter((r) => !gone.includes(r));
        const retried = rest.length === 0 ? [] : await this.fetchFirstRecords(nodeId, rest, attempt + 1);
        return [...gone.map((r) => ({ ...r, timestampMs: null })), ...retried];
      }
      throw error;
    }
    // kafkajs shuffles the partitions of a Fetch (KIP-74 fairness), so one topic can come back in several entries.
    const byPartition = new Map(
      response.responses.flatMap((t) => t.partitions.map((p) => [`${t.topicName}\u0000${p.partition}`, p] as const)),
    );
    return requests.map((r) => {
      const partition = byPartition.get(`${r.topic}\u0000${r.partition}`);
      const record = partition?.messages.find((m) => !m.isControlRecord && BigInt(m.offset) >= r.offset);
      const timestampMs = record === undefined ? null : Number(record.timestamp);
      return {
        ...r,
        timestampMs: timestampMs !== null && Number.isFinite(timestampMs) && timestampMs >= 0 ? timestampMs : null,
      };
    });
  }
}

/** Splits requests so that no wave names a partition twice. */
function intoWaves(requests: readonly RecordReadRequest[]): RecordReadRequest[][] {
  const waves: RecordReadRequest[][] = [];
  const seen = new Map<string, number>();
  for (const r of requests) {
    const key = `${r.topic}\u0000${r.partition}`;
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    (waves[index] ??= []).push(r);
  }
  return waves;
}

/** A member's assignment, or {} when the group is rebalancing and has none (or it is not a consumer's). */
function decodeAssignment(raw: Buffer): Record<string, number[]> {
  if (!raw || raw.length === 0) return {};
  try {
    return AssignerProtocol.MemberAssignment.decode(raw)?.assignment ?? {};
  } catch {
    return {};
  }
}

function isStaleMetadata(error: unknown): boolean {
  const type = (error as { type?: string }).type;
  return (
    type === 'NOT_LEADER_FOR_PARTITION' ||
    type === 'LEADER_NOT_AVAILABLE' ||
    type === 'UNKNOWN_TOPIC_OR_PARTITION' ||
    isUnknownTopic(error)
  );
}

function isUnknownTopic(error: unknown): boolean {
  for (
    let e = error as { type?: string; message?: string; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (e.type === 'UNKNOWN_TOPIC_OR_PARTITION' || /does not host this topic-partition/i.test(e.message ?? ''))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

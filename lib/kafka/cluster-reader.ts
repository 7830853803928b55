import { AssignerProtocol, ConfigResourceTypes, type Admin, type GroupDescription, type Kafka } from 'kafkajs';
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

/** The topic configs retention depends on, as readTopicSettings asks for them. */
export const RETENTION_CONFIG_NAMES = [
  'cleanup.policy',
  'retention.ms',
  'retention.bytes',
  'segment.ms',
  'segment.bytes',
] as const;
/** The broker config that says how often a broker deletes what retention allows it to. */
export const RETENTION_CHECK_CONFIG_NAME = 'log.retention.check.interval.ms';

/** One topic's retention configs as DescribeConfigs gave them, or why they could not be read. */
export interface TopicConfigRead {
  topic: string;
  /** Every name of RETENTION_CONFIG_NAMES, with the value the broker gave (null: none); null with `error`. */
  configs: Record<string, string | null> | null;
  /** Why the configs could not be read, in words naming the cause (the per-resource error's type). */
  error: string | null;
}

/** What one readTopicSettings call read. */
export interface TopicSettingsRead {
  topics: TopicConfigRead[];
  /** The largest log.retention.check.interval.ms of the brokers; null when it could not be read. */
  retentionCheckIntervalMs: number | null;
  /** Why the brokers' setting could not be read; null when it was. */
  brokerError: string | null;
}

/**
 * The size of the records a read found, uncompressed: each record as it takes space in a record batch
 * (key, value and headers with their length prefixes, attributes, timestamp and offset deltas) plus its share
 * of its batch's 61-byte header. On disk a compressed batch is smaller; an uncompressed one is this size.
 */
export interface RecordSizeSample {
  /** Bytes of the records measured, together. */
  bytes: number;
  /** Records measured (at least 1). */
  records: number;
}

/** A record read at a committed offset, with the size of the records the read brought back. */
export interface RecordRead extends RecordReadResult {
  /** null (or absent) when no record could be measured. */
  recordSize?: RecordSizeSample | null;
}

/** What the sampler reads from the cluster; a port so the sampler loop does not depend on kafkajs. */
export interface ClusterReaderPort {
  /** `select`: sharded sampling's filter of the groups this instance samples (absent: every sampled group). */
  readCluster(select?: (groupId: string) => boolean): Promise<ClusterObservation>;
  readRecordTimestamps(requests: readonly RecordReadRequest[]): Promise<RecordRead[]>;
  /**
   * The retention configs of `topics` and the brokers' retention check interval. A topic whose configs the
   * broker refuses (an authorization error, any per-resource error code) comes back with `error`; rejects
   * only when the cluster cannot be asked at all. Absent: the reader cannot tell (the settings stay unknown).
   */
  readTopicSettings?(topics: readonly string[]): Promise<TopicSettingsRead>;
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
 * names a topic or partition the round's metadata lacks. readTopicSettings (the sampler asks about once a
 * minute) is one DescribeConfigs for all topics, one per broker for the retention check interval, and one
 * Metadata request each.
 *
 * Failure behaviour: readCluster throws when the cluster cannot be read (the sampler backs off and marks a
 * gap); a group that cannot be described or whose offsets cannot be fetched is left out of the round; a
 * topic deleted since a group committed to it is left out. readRecordTimestamps never throws: an unreadable
 * record has timestampMs null. readTopicSettings gives a topic the broker refuses its own error and the
 * others their configs; it rejects only when the request itself fails.
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

  async readTopicSettings(topics: readonly string[]): Promise<TopicSettingsRead> {
    await this.ensureConnected();
    const [described, broker] = await Promise.all([
      topics.length === 0 ? [] : describeTopicConfigs(this.admin, [...new Set(topics)]),
      readRetentionCheckInterval(this.admin),
    ]);
    return { topics: described, ...broker };
  }

  async readRecordTimestamps(requests: readonly RecordReadRequest[]): Promise<RecordRead[]> {
    if (requests.length === 0) return [];
    const byTopic = new Map<string, RecordReadRequest[]>();
    for (const r of requests) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r);
      else byTopic.set(r.topic, [r]);
    }
    await this.loadMetadataOf(byTopic);
    const byLeader = new Map<string, RecordReadRequest[]>();
    const unreadable: RecordRead[] = [];
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
        const results: RecordRead[] = [];
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
  ): Promise<RecordRead[]> {
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
        recordSize: measureRecords(partition?.messages ?? []),
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

/** Bytes of a record batch's header (magic 2): base offset, length, epoch, magic, crc, attributes, ... count. */
const BATCH_HEADER_BYTES = 61;

/**
 * DescribeConfigs of `topics`, one request for all of them. kafkajs fails a whole DescribeConfigs when one
 * resource in it has an error code, without saying which; the batch is then split in halves until each
 * refused topic stands alone, so k refused topics among n cost about k·log2(n) more requests and every other
 * topic still gets its configs. Rejects when the request fails for another reason than an error code.
 */
export async function describeTopicConfigs(
  admin: Pick<Admin, 'describeConfigs'>,
  topics: readonly string[],
): Promise<TopicConfigRead[]> {
  try {
    const response = await admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((name) => ({
        type: ConfigResourceTypes.TOPIC,
        name,
        configNames: [...RETENTION_CONFIG_NAMES],
      })),
    });
    const byName = new Map(response.resources.map((r) => [r.resourceName, r]));
    return topics.map((topic): TopicConfigRead => {
      const resource = byName.get(topic);
      if (resource === undefined)
        return { topic, configs: null, error: `the broker did not describe the configs of topic ${topic}` };
      const values = new Map(resource.configEntries.map((e) => [e.configName, e.configValue ?? null]));
      return {
        topic,
        configs: Object.fromEntries(RETENTION_CONFIG_NAMES.map((name) => [name, values.get(name) ?? null])),
        error: null,
      };
    });
  } catch (error) {
    const type = protocolErrorType(error);
    if (type === null) throw error;
    if (topics.length === 1)
      return [{ topic: topics[0]!, configs: null, error: describeConfigsError(`topic ${topics[0]}`, type, error) }];
    const half = Math.ceil(topics.length / 2);
    return [
      ...(await describeTopicConfigs(admin, topics.slice(0, half))),
      ...(await describeTopicConfigs(admin, topics.slice(half))),
    ];
  }
}

/**
 * The largest log.retention.check.interval.ms of the cluster's brokers (one DescribeConfigs per broker).
 * Never rejects: a refusal or a failure comes back as `brokerError`, so the topics' configs still count.
 */
export async function readRetentionCheckInterval(
  admin: Pick<Admin, 'describeConfigs' | 'describeCluster'>,
): Promise<Pick<TopicSettingsRead, 'retentionCheckIntervalMs' | 'brokerError'>> {
  let subject = 'the brokers';
  try {
    const { brokers } = await admin.describeCluster();
    const ids = brokers.map((b) => b.nodeId).sort((a, b) => a - b);
    if (ids.length === 0) return { retentionCheckIntervalMs: null, brokerError: 'the cluster described no brokers' };
    subject = ids.length === 1 ? `broker ${ids[0]}` : `brokers ${ids.join(', ')}`;
    const response = await admin.describeConfigs({
      includeSynonyms: false,
      resources: ids.map((id) => ({
        type: ConfigResourceTypes.BROKER,
        name: String(id),
        configNames: [RETENTION_CHECK_CONFIG_NAME],
      })),
    });
    const values = response.resources
      .flatMap((r) => r.configEntries.filter((e) => e.configName === RETENTION_CHECK_CONFIG_NAME))
      .map((e) => Number(e.configValue))
      .filter((v) => Number.isFinite(v) && v > 0);
    if (values.length === 0)
      return { retentionCheckIntervalMs: null, brokerError: `${subject} gave no ${RETENTION_CHECK_CONFIG_NAME}` };
    return { retentionCheckIntervalMs: Math.max(...values), brokerError: null };
  } catch (error) {
    const type = protocolErrorType(error);
    return {
      retentionCheckIntervalMs: null,
      brokerError:
        type === null
          ? `could not describe the configs of ${subject}: ${(error as Error).message}`
          : describeConfigsError(subject, type, error),
    };
  }
}

/** The Kafka error code's name of a per-resource (protocol) error, or null for any other failure. */
function protocolErrorType(error: unknown): string | null {
  const { name, type } = error as { name?: unknown; type?: unknown };
  return name === 'KafkaJSProtocolError' && typeof type === 'string' && type.length > 0 ? type : null;
}

/** "not authorized to describe the configs of topic orders (TOPIC_AUTHORIZATION_FAILED)", or the error's words. */
export function describeConfigsError(subject: string, type: string, error: unknown): string {
  if (type.endsWith('_AUTHORIZATION_FAILED')) return `not authorized to describe the configs of ${subject} (${type})`;
  return `could not describe the configs of ${subject}: ${(error as Error).message} (${type})`;
}

/** A record as kafkajs decodes it from a Fetch (the fields the size needs; older formats lack batchContext). */
export interface DecodedRecord {
  offset: string;
  timestamp: string;
  isControlRecord?: boolean;
  key?: Buffer | null;
  value?: Buffer | null;
  headers?: Record<string, Buffer | string | null | Array<Buffer | string | null>>;
  batchContext?: { firstOffset?: string; firstTimestamp?: string; lastOffsetDelta?: number };
}

/** The size of the data records among `messages` (control records are not the group's); null when none. */
function measureRecords(messages: readonly unknown[]): RecordSizeSample | null {
  let bytes = 0;
  let records = 0;
  for (const message of messages as DecodedRecord[]) {
    if (message.isControlRecord) continue;
    const size = recordBatchBytes(message);
    if (!Number.isFinite(size)) continue;
    bytes += size;
    records += 1;
  }
  return records === 0 ? null : { bytes, records };
}

/**
 * Bytes one record takes in a magic-2 record batch before compression (Kafka's DefaultRecord.sizeInBytes:
 * its length varint, attributes, timestamp and offset deltas, key, value and headers with their length
 * varints), plus its share of its batch's 61-byte header.
 */
export function recordBatchBytes(record: DecodedRecord): number {
  const context = record.batchContext;
  const timestampDelta =
    context?.firstTimestamp === undefined ? 0 : Number(record.timestamp) - Number(context.firstTimestamp);
  const offsetDelta =
    context?.firstOffset === undefined ? 0 : Number(BigInt(record.offset) - BigInt(context.firstOffset));
  let body =
    1 +
    varintBytes(Number.isFinite(timestampDelta) ? timestampDelta : 0) +
    varintBytes(offsetDelta) +
    bytesField(record.key) +
    bytesField(record.value);
  const headers = Object.entries(record.headers ?? {}).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((v) => [key, v] as const),
  );
  body += varintBytes(headers.length);
  for (const [key, value] of headers) body += bytesField(key) + bytesField(value);
  const recordsInBatch = (context?.lastOffsetDelta ?? 0) + 1;
  return varintBytes(body) + body + BATCH_HEADER_BYTES / Math.max(1, recordsInBatch);
}

/** A length-prefixed field: its varint length (-1 for null) and its bytes. */
function bytesField(value: Buffer | string | null | undefined): number {
  if (value === null || value === undefined) return varintBytes(-1);
  const length = typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
  return varintBytes(length) + length;
}

/** Bytes of `n` as a zig-zag varint (Kafka's ByteUtils.sizeOfVarint / sizeOfVarlong). */
function varintBytes(n: number): number {
  let zigzag = n >= 0 ? n * 2 : -n * 2 - 1;
  let bytes = 1;
  while (zigzag >= 128) {
    zigzag = Math.floor(zigzag / 128);
    bytes += 1;
  }
  return bytes;
}

import type { Admin, Kafka } from 'kafkajs';
import { createInternalCluster, type InternalCluster } from './internal-cluster';

// Reads records of one partition at an offset with a plain Fetch (no consumer group: kafkajs consumers can
// only read inside a group, and a browser of the dead-letter topic or of a quarantined partition must never
// join or commit anything). Shares the Kafka instance's brokers, TLS and SASL through internal-cluster.ts.

/** One record as the broker returned it; bytes are untouched. A repeated header keeps every value. */
export interface FetchedRecord {
  partition: number;
  offset: bigint;
  timestampMs: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[]>;
}

export interface PartitionLog {
  partition: number;
  /** First offset still in the log. */
  low: bigint;
  /** Next offset to be written (the high watermark). */
  high: bigint;
}

/** What the dead-letter reader and the quarantine neighbours read from the broker; a port so both are unit-tested with fakes. */
export interface RecordSource {
  /** Every partition of `topic` with its log range; null when the topic does not exist. */
  partitionLogs(topic: string): Promise<PartitionLog[] | null>;
  /** Up to `maxRecords` records of one partition from `fromOffset` (inclusive) up to `endOffset` (exclusive). */
  readRange(
    topic: string,
    partition: number,
    fromOffset: bigint,
    endOffset: bigint,
    maxRecords: number,
  ): Promise<FetchedRecord[]>;
  /** Per partition, the first offset whose timestamp is at or after `timestampMs` (the log end when none is). */
  offsetsAtTime(topic: string, timestampMs: number): Promise<Map<number, bigint>>;
  close(): Promise<void>;
}

interface RawMessage {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | Buffer[]>;
  isControlRecord?: boolean;
}

const READ_UNCOMMITTED = 0;
/** Bytes asked per partition and Fetch: a batch larger than this is still returned whole by the broker (KIP-74). */
const FETCH_PARTITION_MAX_BYTES = 1024 * 1024;

/** A connected RecordSource over `kafka`; close() disconnects it. */
export async function connectRecordSource(kafka: Kafka): Promise<RecordSource> {
  const admin: Admin = kafka.admin();
  const cluster: InternalCluster = createInternalCluster(kafka);
  await admin.connect();
  try {
    await cluster.connect();
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  const known = new Set<string>();

  async function ensureMetadata(topic: string): Promise<void> {
    if (known.has(topic)) return;
    known.add(topic);
    cluster.targetTopics = new Set(known);
    await cluster.refreshMetadata();
  }

  return {
    async partitionLogs(topic) {
      const topics = await admin.listTopics();
      if (!topics.includes(topic)) return null;
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets
        .map((o) => ({ partition: o.partition, low: BigInt(o.low), high: BigInt(o.high) }))
        .sort((a, b) => a.partition - b.partition);
    },
    async readRange(topic, partition, fromOffset, endOffset, maxRecords) {
      await ensureMetadata(topic);
      const records: FetchedRecord[] = [];
      let next = fromOffset;
      while (next < endOffset && records.length < maxRecords) {
        const leaders = cluster.findLeaderForPartitions(topic, [partition]);
        const nodeId = Object.keys(leaders)[0];
        if (nodeId === undefined) throw new Error(`${topic}-${partition} has no leader`);
        const broker = await cluster.findBroker({ nodeId });
        const response = await broker.fetch({
          isolationLevel: READ_UNCOMMITTED,
          maxWaitTime: 0,
          minBytes: 1,
          maxBytes: FETCH_PARTITION_MAX_BYTES,
          topics: [
            { topic, partitions: [{ partition, fetchOffset: next.toString(), maxBytes: FETCH_PARTITION_MAX_BYTES }] },
          ],
        });
        const messages = response.responses.flatMap((t) =>
          t.partitions.flatMap((p) => (p.partition === partition ? (p.messages as unknown as RawMessage[]) : [])),
        );
        // A batch starts before the asked offset when it was compacted or read from its middle: skip below `next`.
        const fresh = messages.filter((m) => BigInt(m.offset) >= next);
        if (fresh.length === 0) break;
        for (const m of fresh) {
          const offset = BigInt(m.offset);
          if (offset >= endOffset || records.length >= maxRecords) break;
          if (!m.isControlRecord) {
            records.push({
              partition,
              offset,
              timestampMs: Number(m.timestamp),
              key: m.key ?? null,
              value: m.value ?? null,
              headers: m.headers ?? {},
            });
          }
        }
        next = BigInt(fresh[fresh.length - 1]!.offset) + 1n;
      }
      return records;
    },
    async offsetsAtTime(topic, timestampMs) {
      const offsets = await admin.fetchTopicOffsetsByTimestamp(topic, timestampMs);
      const logs = await admin.fetchTopicOffsets(topic);
      const highOf = new Map(logs.map((l) => [l.partition, BigInt(l.high)]));
      // The broker answers -1 when no record is that new: the log end is where such a record would be.
      return new Map(
        offsets.map((o) => [o.partition, o.offset === '-1' ? (highOf.get(o.partition) ?? 0n) : BigInt(o.offset)]),
      );
    },
    async close() {
      await Promise.allSettled([admin.disconnect(), cluster.disconnect()]);
    },
  };
}

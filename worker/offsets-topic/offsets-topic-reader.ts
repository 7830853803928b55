import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { Database } from '../../lib/db';
import { isGroupSampled } from '../../lib/kafka/cluster-observation';
import type { ConsumerLogger } from '../shared/worker-types';
import { saveCommitObservations, type CommitDeletion, type CommitObservationRow } from './commit-observation-store';
import { decodeOffsetRecord } from './offset-commit-decoder';

export const OFFSETS_TOPIC = '__consumer_offsets';

export interface OffsetsTopicReaderOptions {
  kafka: Kafka;
  db: Database;
  /** The reader's own consumer group: it never commits, so every (re)assignment reads from the start. */
  readerGroupId: string;
  /** Which groups' commits are kept: the sampler's filter (the reader's own group is never kept). */
  filter: {
    include: RegExp | null;
    exclude: RegExp | null;
    ownGroupId: string;
    /** The control plane's groups (`<prefix>.`). */
    hiddenGroupPrefixes?: readonly string[];
  };
  /** 'offsets-topic': a topic that cannot be read is an error; 'auto': a warning, statuses use the samples. */
  mode: 'auto' | 'offsets-topic';
  logger?: ConsumerLogger;
}

export interface OffsetsTopicReaderStats {
  state: 'stopped' | 'reading' | 'unavailable';
  commits: number;
  tombstones: number;
  skipped: number;
  invalid: number;
  /** Observations not written (Postgres unavailable); statuses then fall back to the samples. */
  dropped: number;
  lastError: string | null;
}

/**
 * Reads every offset commit from __consumer_offsets (the group coordinator's log) and stores each, with its
 * commit timestamp, as a commit observation: Burrow's window sees repeated commits, which the sampler's
 * committed offsets cannot show. Every worker instance runs one in the same reader group, so the topic's
 * partitions are split between them.
 *
 * Failure behaviour (it never stops the worker):
 * - the topic cannot be read (no ACL, a managed service that hides it): start() resolves 'unavailable' after
 *   logging why, and the statuses rest on the sampled committed offsets (the group page says so);
 * - a record that does not decode is counted and skipped; a Postgres write that fails drops that batch's
 *   observations (counted): the status of an affected partition falls back to the samples until its next
 *   commit is stored, because the analysis uses observations only while they explain the sampled offset.
 */
export class OffsetsTopicReader {
  private consumer: Consumer | null = null;
  private readonly counters: OffsetsTopicReaderStats = {
    state: 'stopped',
    commits: 0,
    tombstones: 0,
    skipped: 0,
    invalid: 0,
    dropped: 0,
    lastError: null,
  };

  constructor(private readonly options: OffsetsTopicReaderOptions) {}

  stats(): OffsetsTopicReaderStats {
    return { ...this.counters };
  }

  async start(): Promise<'reading' | 'unavailable'> {
    const { kafka, readerGroupId, logger, mode } = this.options;
    const consumer = kafka.consumer({ groupId: readerGroupId, allowAutoTopicCreation: false });
    this.consumer = consumer;
    try {
      // A fresh cluster creates __consumer_offsets at the first group-coordinator lookup: make it happen first.
      const admin = kafka.admin();
      await admin.connect();
      try {
        await admin.describeGroups([readerGroupId]);
      } finally {
        await admin.disconnect();
      }
      await consumer.connect();
      await consumer.subscribe({ topics: [OFFSETS_TOPIC], fromBeginning: true });
      await consumer.run({ autoCommit: false, eachBatch: (payload) => this.onBatch(payload) });
      this.counters.state = 'reading';
      logger?.info({ topic: OFFSETS_TOPIC, groupId: readerGroupId }, 'reading every commit from the offsets topic');
      return 'reading';
    } catch (error) {
      this.counters.state = 'unavailable';
      this.counters.lastError = describe(error);
      const report = { err: error, topic: OFFSETS_TOPIC };
      const message = 'cannot read the offsets topic; statuses use the sampled committed offsets';
      if (mode === 'offsets-topic') logger?.error(report, message);
      else logger?.warn(report, message);
      await consumer.disconnect().catch(() => undefined);
      this.consumer = null;
      return 'unavailable';
    }
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    this.counters.state = 'stopped';
    await consumer?.disconnect();
  }

  private async onBatch({ batch, heartbeat }: EachBatchPayload): Promise<void> {
    const hidden = { ...this.options.filter, hiddenGroupIds: [this.options.readerGroupId] };
    const rows: CommitObservationRow[] = [];
    const deletions: CommitDeletion[] = [];
    for (const message of batch.messages) {
      const decoded = decodeOffsetRecord(message.key, message.value);
      if (decoded.kind === 'skipped') this.counters.skipped += 1;
      else if (decoded.kind === 'invalid') {
        this.counters.invalid += 1;
        if (this.counters.invalid <= 10) {
          this.options.logger?.warn(
            { partition: batch.partition, offset: message.offset, reason: decoded.reason },
            'offsets-topic record not decoded; skipped',
          );
        }
      } else if (!isGroupSampled(decoded.key.groupId, hidden)) continue;
      else if (decoded.kind === 'tombstone') {
        this.counters.tombstones += 1;
        deletions.push({ ...decoded.key, sourcePartition: batch.partition, sourceOffset: BigInt(message.offset) });
      } else {
        this.counters.commits += 1;
        rows.push({
          ...decoded.key,
          committedOffset: decoded.offset,
          committedAt: new Date(decoded.commitTimestampMs),
          sourcePartition: batch.partition,
          sourceOffset: BigInt(message.offset),
        });
      }
    }
    try {
      await saveCommitObservations(this.options.db, rows, deletions);
    } catch (error) {
      this.counters.dropped += rows.length;
      this.counters.lastError = describe(error);
      this.options.logger?.warn({ err: error, dropped: rows.length }, 'commit observations not written; dropped');
    }
    await heartbeat();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

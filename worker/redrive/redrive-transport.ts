import type { Admin, Kafka, Producer } from 'kafkajs';
import type { PartitionOffsets } from '../../lib/dead-letters/redrive-selection';

// The Kafka side of a redrive job: one transactional producer per job, whose transactional id and consumer
// group are both `warden-redrive-<cluster>-<jobId>`. Every batch is one Kafka transaction holding the batch's
// records and the job's dead-letter-topic position (as the group's committed offsets), so a read_committed
// reader of the target sees a batch exactly when the position that covers it is committed, and never else.
// Opening a job initialises its transactional id: the broker bumps the producer epoch, which fences every
// producer that held the job before (their sends, offset commits and commits fail with a fencing error), and
// first completes a transaction such a producer left open. The position read after that is final.

export interface RedriveMessage {
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  headers: Record<string, Buffer | Buffer[] | string>;
}

export interface RedriveSend {
  topic: string;
  messages: RedriveMessage[];
}

/** Where a send's records of one partition landed: the first one at baseOffset, the rest after it in order. */
export interface RedriveSent {
  topic: string;
  partition: number;
  baseOffset: bigint;
}

export interface RedriveProducer {
  /**
   * One Kafka transaction: `sends` (acks=all) and the job's position in `dlqTopic`, committed together.
   * Throws RedriveFencedError when another producer opened the job since (nothing of this call is committed),
   * any other error after aborting the transaction.
   */
  commit(sends: readonly RedriveSend[], position: PartitionOffsets): Promise<RedriveSent[]>;
  close(): Promise<void>;
}

export interface OpenedRedrive {
  producer: RedriveProducer;
  /** The position committed by the job's transactions (per dead-letter partition, the next offset); {} when none. */
  committed: PartitionOffsets;
}

export interface RedriveTransport {
  /** Fences every earlier producer of the job, then reads its committed position (see the header). */
  open(job: { cluster: string; id: bigint; dlqTopic: string }): Promise<OpenedRedrive>;
  /** Deletes the job's consumer group once the job is over; failures are ignored (the group then expires). */
  forget(job: { cluster: string; id: bigint }): Promise<void>;
  close(): Promise<void>;
}

/** Another worker opened the job's producer since this one did: this worker must stop working on the job. */
export class RedriveFencedError extends Error {
  constructor(
    readonly jobId: bigint,
    readonly cause: unknown,
  ) {
    super(
      `redrive #${jobId}: another worker took the job over (${cause instanceof Error ? cause.message : String(cause)})`,
    );
    this.name = 'RedriveFencedError';
  }
}

/** Protocol errors that say a newer producer holds the transactional id (or the broker dropped this one's). */
const FENCING_ERRORS = new Set([
  'INVALID_PRODUCER_EPOCH',
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_ID_MAPPING',
  'TRANSACTION_COORDINATOR_FENCED',
]);

/** Whether `error`, or an error it wraps, is a fencing error. */
export function isFencingError(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { type, cause, originalError } = error as { type?: unknown; cause?: unknown; originalError?: unknown };
  if (typeof type === 'string' && FENCING_ERRORS.has(type)) return true;
  return isFencingError(cause, depth + 1) || isFencingError(originalError, depth + 1);
}

/** The transactional id and consumer group of a job. */
export function redriveTransactionalId(cluster: string, jobId: bigint): string {
  return `warden-redrive-${cluster}-${jobId}`;
}

export interface KafkaRedriveTransportOptions {
  /** The broker aborts a transaction left open this long (its producer then counts as fenced). Default 60 s. */
  transactionTimeoutMs?: number;
  /** Test seam: awaited inside each transaction, after its records are produced and before the commit. */
  afterProduce?: (jobId: bigint) => Promise<void>;
}

/**
 * Retries of the job's producer: the coordinator answers CONCURRENT_TRANSACTIONS to the next transaction's
 * first request until the previous one's markers are written (milliseconds), so the first retry comes soon;
 * about 13 s in all before a request fails.
 */
const PRODUCER_RETRY = { initialRetryTime: 25, maxRetryTime: 2_000, retries: 12 };

export function kafkaRedriveTransport(kafka: Kafka, options: KafkaRedriveTransportOptions = {}): RedriveTransport {
  let admin: Admin | null = null;
  const connectedAdmin = async (): Promise<Admin> => {
    if (admin === null) {
      const created = kafka.admin();
      await created.connect();
      admin = created;
    }
    return admin;
  };

  return {
    async open(job) {
      const id = redriveTransactionalId(job.cluster, job.id);
      const producer: Producer = kafka.producer({
        transactionalId: id,
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        transactionTimeout: options.transactionTimeoutMs ?? 60_000,
        retry: PRODUCER_RETRY,
      });
      await producer.connect();
      try {
        // The first transaction initialises the transactional id (the fence); aborting it sends nothing.
        const fence = await producer.transaction();
        await fence.abort();
        const offsets = await (await connectedAdmin()).fetchOffsets({ groupId: id, topics: [job.dlqTopic] });
        const committed: PartitionOffsets = {};
        for (const p of offsets.flatMap((t) => t.partitions)) if (p.offset !== '-1') committed[p.partition] = p.offset;
        return { producer: transactional(producer, job, id, options.afterProduce), committed };
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        if (isFencingError(error)) throw new RedriveFencedError(job.id, error);
        throw error;
      }
    },
    async forget(job) {
      await (await connectedAdmin()).deleteGroups([redriveTransactionalId(job.cluster, job.id)]).catch(() => undefined);
    },
    async close() {
      await (admin as Admin | null)?.disconnect();
      admin = null;
    },
  };
}

function transactional(
  producer: Producer,
  job: { id: bigint; dlqTopic: string },
  groupId: string,
  afterProduce: ((jobId: bigint) => Promise<void>) | undefined,
): RedriveProducer {
  return {
    async commit(sends, position) {
      const txn = await producer.transaction();
      try {
        const results =
          sends.length === 0
            ? []
            : await txn.sendBatch({
                acks: -1,
                topicMessages: sends.map((s) => ({ topic: s.topic, messages: s.messages })),
              });
        await afterProduce?.(job.id);
        const partitions = Object.entries(position).map(([partition, offset]) => ({
          partition: Number(partition),
          offset,
        }));
        if (partitions.length > 0)
          await txn.sendOffsets({ consumerGroupId: groupId, topics: [{ topic: job.dlqTopic, partitions }] });
        await txn.commit();
        return results.map((r) => ({
          topic: r.topicName,
          partition: r.partition,
          baseOffset: BigInt(r.baseOffset ?? '-1'),
        }));
      } catch (error) {
        if (isFencingError(error)) throw new RedriveFencedError(job.id, error);
        await txn.abort().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      await producer.disconnect();
    },
  };
}

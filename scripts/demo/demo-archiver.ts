import type { Consumer, Kafka } from 'kafkajs';

// The short-retention act: an audit topic whose records Kafka keeps for 45 s, read by an archiver that takes a
// second per record while four a second arrive on each partition. Its oldest unread record ages 0.75 s per
// second, so the group page counts down to the moment retention starts deleting what it has not read. Then its
// downstream fails and it stops reading (paused, still a member, its commits where they were): retention deletes
// past its committed offset, the sampler records the records deleted unread, the group turns LOST and the
// records-lost alert fires; the loss grows while it stays stopped. When its downstream is back it reads again, at
// full speed: its fetch is out of range, kafkajs resets it to the earliest record kept (fromBeginning), which ends
// the loss episode, and it catches up.

export const SHORT_RETENTION = {
  partitions: 2,
  retentionMs: 45_000,
  /** Segments roll every 3 s, so retention deletes in small steps soon after records pass 45 s. */
  segmentMs: 3_000,
  /** Records per second across its partitions: four a second each. */
  ratePerSec: 8,
  /** The archiver's time per record: one a second per partition, a quarter of what arrives. */
  handleMs: 1_000,
} as const;

/** The audit topic: the demo's input topic with a suffix, so a run with its own names has its own. */
export const auditTopic = (inputTopic: string): string => `${inputTopic}-audit`;

/** The archiver's group: the demo's group id with a suffix, so a filter on the demo's group finds it. */
export const archiverGroupId = (demoGroupId: string): string => `${demoGroupId}-audit-archiver`;

/** The audit topic's configs: time retention only, in small segments. */
export const AUDIT_TOPIC_CONFIGS = [
  { name: 'cleanup.policy', value: 'delete' },
  { name: 'retention.ms', value: String(SHORT_RETENTION.retentionMs) },
  { name: 'segment.ms', value: String(SHORT_RETENTION.segmentMs) },
];

/**
 * The slow consumer of the audit topic (plain kafkajs, its own group). It fetches at most a few records at a
 * time, so the records it has fetched but not handled are never more than a moment's worth: what the sampler
 * counts as deleted unread was not sitting in its memory.
 */
export class DemoArchiver {
  private consumer: Consumer | null = null;
  private isStalled = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    private readonly topic: string,
    private handleMs: number = SHORT_RETENTION.handleMs,
  ) {}

  get running(): boolean {
    return this.consumer !== null;
  }

  get stalled(): boolean {
    return this.isStalled;
  }

  /** Stops reading (its downstream failed): it stays in its group and commits nothing more. */
  stall(): void {
    this.consumer?.pause([{ topic: this.topic }]);
    this.isStalled = this.consumer !== null;
  }

  /**
   * Reads again from its committed offset (kafkajs resets it to the earliest record when that is gone), from now
   * on without its per-record time: it catches up.
   */
  recover(): void {
    this.handleMs = 0;
    this.consumer?.resume([{ topic: this.topic }]);
    this.isStalled = false;
  }

  async start(): Promise<void> {
    if (this.consumer) return;
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      maxWaitTimeInMs: 500,
      maxBytesPerPartition: 512,
      maxBytes: 1_024,
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic: this.topic, fromBeginning: true });
    await consumer.run({
      autoCommitInterval: 1_000,
      partitionsConsumedConcurrently: SHORT_RETENTION.partitions,
      eachMessage: async () => {
        if (this.handleMs > 0) await new Promise((resolve) => setTimeout(resolve, this.handleMs));
      },
    });
  }

  async stop(): Promise<void> {
    const consumer = this.consumer;
    this.consumer = null;
    this.isStalled = false;
    await consumer?.disconnect();
  }
}

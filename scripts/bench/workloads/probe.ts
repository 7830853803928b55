import type { Consumer, Kafka } from 'kafkajs';
import { epochNowMs, type RssSample } from '../protocol';

// Instrumentation shared by the workload children: when the first fetch after joining started, the
// largest fetched batch, and the process's memory.

export interface KafkaProbe {
  /** A Kafka client whose consumers report to this probe; everything else is the wrapped client. */
  kafka: Kafka;
  /** Epoch ms of the first FETCH_START after the first GROUP_JOIN; null before it. */
  firstFetchEpochMs(): number | null;
  joined(): Promise<void>;
  maxBatchSize(): number;
  /** Fetched batches handed to eachBatch and the records they held (a refetched record counts again). */
  fetchedBatches(): number;
  fetchedRecords(): number;
}

/**
 * `kafka` with its consumers observed; with `groupId`, only that group's (the control plane's command reader
 * of a consumer with `control` on is another consumer of the same client, and its fetches are not the
 * workload's).
 */
export function probeKafka(kafka: Kafka, groupId?: string): KafkaProbe {
  let firstFetch: number | null = null;
  let maxBatch = 0;
  let batches = 0;
  let records = 0;
  let joinedResolve: () => void = () => undefined;
  const joined = new Promise<void>((resolve) => {
    joinedResolve = resolve;
  });
  let hasJoined = false;
  const probed = Object.create(kafka) as Kafka;
  probed.consumer = (config) => {
    const consumer: Consumer = kafka.consumer(config);
    if (groupId !== undefined && config.groupId !== groupId) return consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      hasJoined = true;
      joinedResolve();
    });
    consumer.on(consumer.events.FETCH_START, () => {
      if (hasJoined && firstFetch === null) firstFetch = epochNowMs();
    });
    consumer.on(consumer.events.START_BATCH_PROCESS, (event) => {
      if (event.payload.batchSize > maxBatch) maxBatch = event.payload.batchSize;
      batches++;
      records += event.payload.batchSize;
    });
    return consumer;
  };
  return {
    kafka: probed,
    firstFetchEpochMs: () => firstFetch,
    joined: () => joined,
    maxBatchSize: () => maxBatch,
    fetchedBatches: () => batches,
    fetchedRecords: () => records,
  };
}

/** The kernel's high-water mark of this process's resident set, in bytes. */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** Samples RSS at a fixed interval into a timeline (ms since `start()`). */
export class RssSampler {
  private readonly samples: RssSample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;

  start(intervalMs: number): void {
    this.startedAt = performance.now();
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  sample(): RssSample {
    const sample = { atMs: Math.round(performance.now() - this.startedAt), rssBytes: process.memoryUsage.rss() };
    this.samples.push(sample);
    return sample;
  }

  stop(): RssSample[] {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.samples;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Records the measurement counts: those of the watched partitions (all partitions by default). */
export function watchedRecords(endOffsets: readonly number[], watched?: readonly number[]): number {
  return (watched ?? endOffsets.map((_, p) => p)).reduce((sum, p) => sum + (endOffsets[p] ?? 0), 0);
}

/** Per partition, ms from `startEpochMs` until its commit reached its end (0 for empty ones); null if never. */
export function partitionDoneMs(
  endOffsets: readonly number[],
  doneAt: (partition: number) => number | null,
  startEpochMs: number,
): Array<number | null> {
  return endOffsets.map((_, p) => {
    const done = doneAt(p);
    return done === null ? null : Math.max(0, done - startEpochMs);
  });
}

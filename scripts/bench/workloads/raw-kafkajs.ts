import type { Batch, KafkaMessage } from 'kafkajs';
import { createKafka } from '../../../lib/kafka/client';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, sleep, watchedRecords } from './probe';

// The ceiling: plain kafkajs `eachBatch` with its defaults (auto-resolve, and autoCommit, which commits
// the resolved offsets after every batch), awaiting a handler per message in offset order. Latency is
// the time a record spends inside the consumer: batch handed over → its handler resolved.

export async function runRawKafkajs(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const latency = new LatencyRecorder(spec.endOffsets.reduce((sum, n) => sum + n, 0));
  const handler =
    spec.handlerMs > 0
      ? (_message: KafkaMessage) => sleep(spec.handlerMs)
      : async (_message: KafkaMessage) => undefined;
  return runRawConsumer(spec, groupId, {
    latency,
    partitionsConsumedConcurrently: spec.rawPartitionsConcurrently ?? 1,
    eachBatch: async (batch) => {
      const deliveredAt = performance.now();
      for (const message of batch.messages) {
        await handler(message);
        latency.add(performance.now() - deliveredAt);
      }
    },
  });
}

/**
 * A plain kafkajs consumer on the spec's topic from its beginning, with kafkajs's defaults (auto-resolve, and
 * autoCommit after every batch), measured from its first fetch until every watched partition's commit
 * reached its end. The raw workloads bring only `eachBatch`.
 */
export async function runRawConsumer(
  spec: ChildSpec,
  groupId: string,
  options: {
    latency: LatencyRecorder;
    partitionsConsumedConcurrently: number;
    eachBatch: (batch: Batch) => Promise<void>;
    /** Right before the consumer connects. */
    onStart?: () => void;
    details?: () => Promise<Measurement['details']>;
  },
): Promise<Measurement> {
  const probe = probeKafka(createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` }));
  const tracker = new CommitTracker(spec.endOffsets, spec.watchedPartitions);
  const consumer = probe.kafka.consumer({ groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000 });
  consumer.on(consumer.events.COMMIT_OFFSETS, (event) => {
    const at = epochNowMs();
    for (const { partitions } of event.payload.topics) {
      for (const { partition, offset } of partitions) tracker.observe(Number(partition), offset, at);
    }
  });
  const baselineRssBytes = process.memoryUsage.rss();
  options.onStart?.();
  await consumer.connect();
  await consumer.subscribe({ topic: spec.topic, fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently,
    eachBatch: ({ batch }) => options.eachBatch(batch),
  });
  const endEpochMs = await tracker.finished();
  const peak = peakRssBytes();
  const details = { maxBatchSize: probe.maxBatchSize(), ...(await options.details?.()) };
  await consumer.disconnect();
  const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
  return {
    records: watchedRecords(spec.endOffsets, spec.watchedPartitions),
    startEpochMs,
    endEpochMs,
    latency: options.latency.summary(),
    peakRssBytes: peak,
    baselineRssBytes,
    partitionDoneMs: partitionDoneMs(spec.endOffsets, (p) => tracker.partitionDoneAt(p), startEpochMs),
    details,
  };
}

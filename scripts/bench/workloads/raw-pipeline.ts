import { createKafka } from '../../../lib/kafka/client';
import { createDatabase } from '../../../lib/db';
import { upsertDocuments, type ResultEvent } from '../../../worker/pipeline/document-pipeline';
import { admitEvent } from '../../../worker/pipeline/events';
import { toSourceRecords } from '../../../worker/kafka/source-records';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, watchedRecords } from './probe';

// (9r), the ceiling of (9): hand-written kafkajs + Postgres doing the same work with no guarantees. Per
// fetched batch (every partition consumed concurrently): decode, the same multi-row upsert statement as
// Warden's pipeline, the batch's results in one produce request (acks=all), then kafkajs auto-resolves and
// auto-commits the batch. Nothing isolates a bad record (a failed statement fails the batch and kafkajs
// retries it), nothing orders keys beyond the partition, and nothing bounds memory. Latency: batch handed
// over → its results acknowledged.

export async function runRawPipeline(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const pipelineSpec = spec.pipeline;
  if (!pipelineSpec) throw new Error(`workload ${spec.workload}: the pipeline settings are missing`);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const probe = probeKafka(kafka);
  const total = spec.endOffsets.reduce((sum, n) => sum + n, 0);
  const tracker = new CommitTracker(spec.endOffsets, spec.watchedPartitions);
  const latency = new LatencyRecorder(total);
  const db = createDatabase(pipelineSpec.databaseUrl);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();

  const consumer = probe.kafka.consumer({ groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000 });
  consumer.on(consumer.events.COMMIT_OFFSETS, (event) => {
    const at = epochNowMs();
    for (const { partitions } of event.payload.topics) {
      for (const { partition, offset } of partitions) tracker.observe(Number(partition), offset, at);
    }
  });
  const baselineRssBytes = process.memoryUsage.rss();
  await consumer.connect();
  await consumer.subscribe({ topic: spec.topic, fromBeginning: true });
  await consumer.run({
    partitionsConsumedConcurrently: spec.endOffsets.length,
    eachBatch: async ({ batch }) => {
      const deliveredAt = performance.now();
      const writes = [];
      const results = [];
      for (const record of toSourceRecords(batch.topic, batch.partition, batch.messages)) {
        const admission = admitEvent(record);
        if (!admission.ok || admission.value.resultKey === null) continue;
        const { event, resultKey } = admission.value;
        writes.push({ event, record });
        const result: ResultEvent = {
          eventId: event.eventId,
          businessId: event.businessId,
          status: 'stored',
          source: { topic: record.topic, partition: record.partition, offset: record.offset },
        };
        results.push({ key: resultKey, value: JSON.stringify(result) });
      }
      await upsertDocuments(db, writes);
      if (results.length > 0) await producer.send({ topic: pipelineSpec.resultsTopic, acks: -1, messages: results });
      const doneMs = performance.now() - deliveredAt;
      for (let index = 0; index < batch.messages.length; index++) latency.add(doneMs);
    },
  });
  try {
    const endEpochMs = await tracker.finished();
    const peak = peakRssBytes();
    const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
    const documents = await db.storedDocument.count();
    return {
      records: watchedRecords(spec.endOffsets, spec.watchedPartitions),
      startEpochMs,
      endEpochMs,
      latency: latency.summary(),
      peakRssBytes: peak,
      baselineRssBytes,
      partitionDoneMs: partitionDoneMs(spec.endOffsets, (p) => tracker.partitionDoneAt(p), startEpochMs),
      details: { maxBatchSize: probe.maxBatchSize(), storedDocuments: documents },
    };
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
    await db.$disconnect();
  }
}

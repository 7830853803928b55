import { createDatabase } from '../../../lib/db';
import type { Admission, SourceRecord } from '../../../worker/core/types';
import { createKafka } from '../../../lib/kafka/client';
import { createConsumer } from '../../../worker/kafka/warden-consumer';
import { createDocumentPipeline } from '../../../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../../../worker/pipeline/events';
import { CommitTracker } from '../commit-tracker';
import { LatencyRecorder } from '../latency-recorder';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { partitionDoneMs, peakRssBytes, probeKafka, watchedRecords } from './probe';

// The default document pipeline wired as the worker wires it (worker/worker.ts): Postgres upsert by
// business id, then a `stored` result on the results topic (idempotent producer, acks=all), a record
// completing only when its result is acknowledged. Latency: admitted → result acknowledged.

interface Timed {
  admitted: AdmittedEvent;
  admittedAt: number;
}

export async function runPipeline(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.warden;
  const pipelineSpec = spec.pipeline;
  if (!settings || !pipelineSpec) throw new Error(`workload ${spec.workload}: warden or pipeline settings are missing`);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const probe = probeKafka(kafka);
  const db = createDatabase(pipelineSpec.databaseUrl);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  const pipeline = createDocumentPipeline({ db, producer, resultsTopic: pipelineSpec.resultsTopic });
  const total = watchedRecords(spec.endOffsets);
  const tracker = new CommitTracker(spec.endOffsets);
  const latency = new LatencyRecorder(total);

  const admit = (record: SourceRecord): Admission<Timed> => {
    const admission = pipeline.admit(record);
    return admission.ok
      ? { ...admission, value: { admitted: admission.value, admittedAt: performance.now() } }
      : admission;
  };
  const consumer = createConsumer<Timed>({
    kafka: probe.kafka,
    groupId,
    topics: [spec.topic],
    fromBeginning: true,
    admit,
    handle: async ({ admitted, admittedAt }, record) => {
      await pipeline.handle(admitted, record);
      latency.add(performance.now() - admittedAt);
    },
    onPermanentFailure: ({ admitted }, record, error) => pipeline.onPermanentFailure(admitted, record, error),
    classifyError: pipeline.classifyError,
    ordering: settings.ordering,
    maxInFlight: settings.maxInFlight,
    maxInFlightPerPartition: settings.maxInFlightPerPartition,
    commitIntervalMs: settings.commitIntervalMs,
    onEvent: (event) => {
      if (event.type !== 'committed') return;
      const at = epochNowMs();
      for (const request of event.requests) tracker.observe(request.partition, request.offset, at);
    },
  });
  try {
    const baselineRssBytes = process.memoryUsage.rss();
    await consumer.start();
    const endEpochMs = await tracker.finished();
    const peak = peakRssBytes();
    const counters = consumer.core.snapshot().counters;
    await consumer.stop(5_000);
    const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
    const documents = await db.storedDocument.count();
    return {
      records: total,
      startEpochMs,
      endEpochMs,
      latency: latency.summary(),
      peakRssBytes: peak,
      baselineRssBytes,
      partitionDoneMs: partitionDoneMs(spec.endOffsets, (p) => tracker.partitionDoneAt(p), startEpochMs),
      details: {
        handled: counters.handled,
        retries: counters.retries,
        permanentFailures: counters.permanentFailures,
        storedDocuments: documents,
      },
    };
  } finally {
    await producer.disconnect();
    await db.$disconnect();
  }
}

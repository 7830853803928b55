import { createDatabase, nodePostgresPool } from '../../../lib/db';
import type { Admission, SourceRecord } from '@warden/consumer';
import { createDocumentPipeline } from '../../../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../../../worker/pipeline/events';
import type { ChildSpec, Measurement } from '../protocol';
import { PipelineProbe } from './pipeline-probe';
import { watchedRecords } from './probe';
import { WardenWorkload } from './warden-harness';

// The default document pipeline wired as the worker wires it (worker/worker.ts): `handleBatch` with the
// worker's default batch settings, one multi-row Postgres upsert by business id per batch, then the batch's
// `stored` results on the results topic (idempotent producer, acks=all), each record completing only when its
// own result is acknowledged (the batch's outcomes arrive together, in one promise). Latency: admitted → the
// batch's outcomes, for every completed record, taken in one continuation per batch.

/** The admitted event with its admission time (one object per record, passed to the pipeline as it is). */
interface Timed extends AdmittedEvent {
  admittedAt: number;
}

export async function runPipeline(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const pipelineSpec = spec.pipeline;
  if (!pipelineSpec) throw new Error(`workload ${spec.workload}: the pipeline settings are missing`);
  const bench = new WardenWorkload<Timed>(spec, groupId);
  const { latency, probe } = bench;
  const db = createDatabase(pipelineSpec.databaseUrl);
  const producer = bench.kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  const pipelineProbe = new PipelineProbe();
  const pipeline = createDocumentPipeline({
    sql: pipelineProbe.sql(nodePostgresPool(db)),
    producer: pipelineProbe.producer(producer),
    resultsTopic: pipelineSpec.resultsTopic,
  });
  const total = watchedRecords(spec.endOffsets);

  // The admission's own value carries the admission time: no second object per record.
  const admit = (record: SourceRecord): Admission<Timed> => {
    const admission = pipeline.admit(record) as Admission<Timed>;
    if (admission.ok) admission.value.admittedAt = performance.now();
    return admission;
  };
  bench.createConsumer({
    admit,
    handleBatch: (items) => {
      pipelineProbe.batch(items.length);
      return pipeline.handleBatch(items).then((outcomes) => {
        const now = performance.now();
        outcomes.forEach((outcome, index) => {
          if (outcome === null) latency.add(now - items[index]!.value.admittedAt);
        });
        return outcomes;
      });
    },
    onPermanentFailure: (admitted, record, error) => pipeline.onPermanentFailure(admitted, record, error),
    classifyError: pipeline.classifyError,
  });
  try {
    pipelineProbe.start();
    await bench.start();
    const endEpochMs = await bench.finished();
    const { peakRssBytes, counters } = await bench.stop(5_000);
    const startEpochMs = probe.firstFetchEpochMs() ?? endEpochMs;
    const documents = await db.storedDocument.count();
    return bench.measurement({
      records: total,
      startEpochMs,
      endEpochMs,
      peakRssBytes,
      details: {
        handled: counters.handled,
        retries: counters.retries,
        permanentFailures: counters.permanentFailures,
        storedDocuments: documents,
        commits: counters.commits,
        droppedDeliveries: counters.droppedDeliveries,
        fetchedBatches: probe.fetchedBatches(),
        fetchedRecords: probe.fetchedRecords(),
        ...pipelineProbe.details(total),
      },
    });
  } finally {
    await producer.disconnect();
    await db.$disconnect();
  }
}

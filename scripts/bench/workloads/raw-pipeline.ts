import { createKafka } from '../../../lib/kafka/client';
import { createDatabase, nodePostgresPool } from '../../../lib/db';
import { storedResult, upsertDocuments } from '../../../worker/pipeline/document-pipeline';
import { admitEvent } from '../../../worker/pipeline/events';
import { toSourceRecords } from '@warden/consumer';
import { LatencyRecorder } from '../latency-recorder';
import type { ChildSpec, Measurement } from '../protocol';
import { PipelineProbe } from './pipeline-probe';
import { watchedRecords } from './probe';
import { runRawConsumer } from './raw-kafkajs';

// (9r), the ceiling of (9): hand-written kafkajs + Postgres doing the same work with no guarantees. Per
// fetched batch (every partition consumed concurrently): decode, the same multi-row upsert statement as
// Warden's pipeline, the batch's results in one produce request (acks=all), then kafkajs auto-resolves and
// auto-commits the batch. Nothing isolates a bad record (a failed statement fails the batch and kafkajs
// retries it), nothing orders keys beyond the partition, and nothing bounds memory. Latency: batch handed
// over → its results acknowledged.

export async function runRawPipeline(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const pipelineSpec = spec.pipeline;
  if (!pipelineSpec) throw new Error(`workload ${spec.workload}: the pipeline settings are missing`);
  const latency = new LatencyRecorder(spec.endOffsets.reduce((sum, n) => sum + n, 0));
  const db = createDatabase(pipelineSpec.databaseUrl);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}-producer` });
  const connected = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await connected.connect();
  const pipelineProbe = new PipelineProbe();
  const producer = pipelineProbe.producer(connected);
  const store = pipelineProbe.sql(nodePostgresPool(db));
  try {
    return await runRawConsumer(spec, groupId, {
      latency,
      partitionsConsumedConcurrently: spec.endOffsets.length,
      eachBatch: async (batch) => {
        const deliveredAt = performance.now();
        pipelineProbe.batch(batch.messages.length);
        const writes = [];
        const results = [];
        for (const record of toSourceRecords(batch.topic, batch.partition, batch.messages)) {
          const admission = admitEvent(record);
          if (!admission.ok || admission.value.resultKey === null) continue;
          const { event, resultKey } = admission.value;
          writes.push({ event, record });
          results.push({ key: resultKey, value: JSON.stringify(storedResult(event, record)) });
        }
        await upsertDocuments(store, writes);
        if (results.length > 0) await producer.send({ topic: pipelineSpec.resultsTopic, acks: -1, messages: results });
        const doneMs = performance.now() - deliveredAt;
        for (let index = 0; index < batch.messages.length; index++) latency.add(doneMs);
      },
      onStart: () => pipelineProbe.start(),
      details: async () => ({
        storedDocuments: await db.storedDocument.count(),
        ...pipelineProbe.details(watchedRecords(spec.endOffsets)),
      }),
    });
  } finally {
    await connected.disconnect();
    await db.$disconnect();
  }
}

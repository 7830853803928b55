import type { Kafka, Producer } from 'kafkajs';
import { nodePostgresPool, type Database } from '../lib/db';
import { createConsumer, type WardenConsumer, type WardenConsumerOptions } from '@warden/consumer';
import { createDeadLetterWriter } from '../worker/pipeline/dead-letter';
import { createDocumentPipeline, type DocumentPipelineOptions } from '../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../worker/pipeline/events';
import { QuarantineStore } from '../worker/pipeline/quarantine-store';

/** The default document pipeline on a WardenConsumer in this process, as the worker wires it. */
export async function startPipelineConsumer(options: {
  kafka: Kafka;
  db: Database;
  groupId: string;
  topics: string[];
  resultsTopic: string;
  dlqTopic?: string;
  beforeStore?: DocumentPipelineOptions['beforeStore'];
  /** Run the pipeline's `handleBatch` (as the worker does) instead of `handle`; sizes are reported to it. */
  batch?: { onBatch?: (size: number) => void };
  consumer?: Partial<WardenConsumerOptions<AdmittedEvent>>;
}): Promise<{ consumer: WardenConsumer<AdmittedEvent>; producer: Producer; stop: () => Promise<void> }> {
  const producer = options.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const pipeline = createDocumentPipeline({
    sql: nodePostgresPool(options.db),
    producer,
    resultsTopic: options.resultsTopic,
    beforeStore: options.beforeStore,
  });
  const quarantines = new QuarantineStore(options.db, options.groupId);
  const consumer = createConsumer<AdmittedEvent>({
    kafka: options.kafka,
    groupId: options.groupId,
    topics: options.topics,
    admit: pipeline.admit,
    ...(options.batch
      ? {
          handleBatch: (items) => {
            options.batch?.onBatch?.(items.length);
            return pipeline.handleBatch(items);
          },
        }
      : { handle: (value, record) => pipeline.handle(value, record) }),
    onPermanentFailure: (value, record, error) => pipeline.onPermanentFailure(value, record, error),
    classifyError: pipeline.classifyError,
    onQuarantine: (q) => quarantines.save(q),
    ...(options.dlqTopic ? { deadLetter: createDeadLetterWriter(producer, options.dlqTopic) } : {}),
    commitIntervalMs: 200,
    retry: { baseMs: 20, maxMs: 200 },
    ...options.consumer,
  });
  await consumer.start();
  return {
    consumer,
    producer,
    stop: async () => {
      await consumer.stop(5_000);
      await producer.disconnect();
    },
  };
}

export function upsertEvent(i: number, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    eventId: `ev-${i}`,
    type: 'document.upsert',
    businessId: `doc-${i}`,
    resultKey: `res-${i}`,
    payload: { i },
    ...overrides,
  });
}

import type { Kafka, Producer } from 'kafkajs';
import { nodePostgresPool, type Database } from '../lib/db';
import { DEFAULT_CLUSTER } from '../lib/kafka/cluster-settings';
import {
  controlTopicNames,
  createConsumer,
  ensureControlTopics,
  type WardenConsumer,
  type WardenConsumerOptions,
} from '@warden/consumer';
import { startClusterControl, type ClusterControl } from '../worker/control/start-control';
import { groupMemberIdentity } from '../worker/kafka/group-member-identity';
import { createDeadLetterWriter } from '../worker/pipeline/dead-letter';
import { createDocumentPipeline, type DocumentPipelineOptions } from '../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../worker/pipeline/events';
import { eventually, uniqueName } from './integration';

/** The control plane of a pipeline consumer: its prefix, and the worker's side for it when this call started one. */
export interface PipelineControl {
  topicPrefix: string;
  /** The ingester and relay for this prefix (null when the caller runs them). */
  worker: ClusterControl | null;
}

/**
 * The default document pipeline on a WardenConsumer in this process, as the worker wires it: the control plane
 * on, and the worker's side of it (worker/control: the state ingester and the command relay of the `default`
 * cluster) running for it, so quarantines, commit-prefix rows and rebalance rows reach Postgres and operator
 * actions reach the consumer the way they do in production. Each call gets a control prefix of its own unless
 * `control.topicPrefix` names one (a second consumer of the same group); its relay serves only `groupId`.
 * `control: false` turns the control plane off.
 */
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
  control?:
    | false
    | {
        topicPrefix?: string;
        instanceId?: string;
        /** Default 500 ms, so a test sees commit-prefix changes soon. */
        stateIntervalMs?: number;
        commandKey?: string;
        /** What the relay signs with (default: commandKey). */
        signingKey?: string;
        /** Start the worker's side for this prefix here (default true). */
        workerSide?: boolean;
      };
}): Promise<{
  consumer: WardenConsumer<AdmittedEvent>;
  producer: Producer;
  control: PipelineControl | null;
  stop: () => Promise<void>;
}> {
  const controlOptions = options.control === false ? null : (options.control ?? {});
  const topicPrefix = controlOptions ? (controlOptions.topicPrefix ?? uniqueName('ctl')) : null;
  let worker: ClusterControl | null = null;
  if (controlOptions && topicPrefix) {
    await createControlTopics(options.kafka, topicPrefix);
    if (controlOptions.workerSide ?? true) {
      worker = await startClusterControl({
        cluster: DEFAULT_CLUSTER,
        kafka: options.kafka,
        db: options.db,
        topicPrefix,
        signingKey: controlOptions.signingKey ?? controlOptions.commandKey,
        pollIntervalMs: 200,
        expireAfterMs: 300_000,
        identify: groupMemberIdentity,
        groupIds: [options.groupId],
        ingestRetry: { baseMs: 100, maxMs: 1_000 },
      });
    }
  }

  const producer = options.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const pipeline = createDocumentPipeline({
    sql: nodePostgresPool(options.db),
    producer,
    resultsTopic: options.resultsTopic,
    beforeStore: options.beforeStore,
  });
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
    ...(options.dlqTopic ? { deadLetter: createDeadLetterWriter(producer, options.dlqTopic) } : {}),
    ...(controlOptions && topicPrefix
      ? {
          control: {
            topicPrefix,
            clientId: options.groupId,
            ...(controlOptions.instanceId ? { instanceId: controlOptions.instanceId } : {}),
            stateIntervalMs: controlOptions.stateIntervalMs ?? 500,
            ...(controlOptions.commandKey ? { commandKey: controlOptions.commandKey } : {}),
          },
        }
      : {}),
    commitIntervalMs: 200,
    retry: { baseMs: 20, maxMs: 200 },
    ...options.consumer,
  });
  await consumer.start();
  return {
    consumer,
    producer,
    control: topicPrefix ? { topicPrefix, worker } : null,
    stop: async () => {
      // As the worker stops: its ingest and relay first, then the consumer (and its side of the control plane).
      await worker?.stop();
      await consumer.stop(5_000);
      await producer.disconnect();
    },
  };
}

/** Creates the control topics of `prefix` and waits until every partition has a leader. */
export async function createControlTopics(kafka: Kafka, prefix: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const result = await ensureControlTopics(admin, prefix);
    if (result === 'refused' || result === 'failed') throw new Error(`control topics of ${prefix}: ${result}`);
    const names = controlTopicNames(prefix);
    await eventually(`leaders for the control topics of ${prefix}`, async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [names.state, names.commands] });
      return topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))
        ? true
        : undefined;
    });
  } finally {
    await admin.disconnect();
  }
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

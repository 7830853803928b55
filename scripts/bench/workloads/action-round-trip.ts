import { createDatabase, nodePostgresPool } from '../../../lib/db';
import { createKafka } from '../../../lib/kafka/client';
import { controlTopicNames, createConsumer, ensureControlTopics } from '@warden/consumer';
import { createDeadLetterWriter } from '../../../worker/pipeline/dead-letter';
import { createDocumentPipeline } from '../../../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../../../worker/pipeline/events';
import type { ChildSpec, Measurement } from '../protocol';
import { pollUntil } from './poll-until';
import { skipRoundsMeasurement, startControlSide, timeSkipRounds, type ControlSide } from './skip-round-trips';

// (12): an operator action's round trip on the real broker and Postgres, over the control plane as the worker
// wires it: a WardenConsumer with `control` on (its state on `<prefix>.state`, commands from `<prefix>.commands`)
// in this process, and the worker's side of the control plane (skip-round-trips.ts, which also times the
// rounds). Each round's record is a poison record the consumer's admission quarantines; the skip writes a
// dead-letter copy (acks=all), the heaviest of the three actions, before the consumer publishes its state.

const WORKLOAD = 'action round trip';

/** A stored type without a result key: admission quarantines it. */
function poisonRecord(i: number): string {
  return JSON.stringify({ eventId: `bench-poison-${i}`, type: 'document.upsert', businessId: `b-${i}`, payload: {} });
}

export async function runActionRoundTrip(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.actions;
  if (!settings) throw new Error(`workload ${spec.workload}: the actions settings are missing`);
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const db = createDatabase(settings.databaseUrl);
  const admin = kafka.admin();
  await admin.connect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  await producer.connect();
  // Only poison records are produced: nothing is ever published to the results topic.
  const pipeline = createDocumentPipeline({
    sql: nodePostgresPool(db),
    producer,
    resultsTopic: settings.dlqTopic,
  });
  // A prefix of this run's own: its topics hold only this workload's states and commands.
  const topicPrefix = `warden-bench.control.${groupId}`;
  const consumer = createConsumer<AdmittedEvent>({
    kafka,
    groupId,
    topics: [spec.topic],
    fromBeginning: true,
    admit: pipeline.admit,
    handle: (value, record) => pipeline.handle(value, record),
    onPermanentFailure: (value, record, error) => pipeline.onPermanentFailure(value, record, error),
    classifyError: pipeline.classifyError,
    deadLetter: createDeadLetterWriter(producer, settings.dlqTopic),
    control: { topicPrefix, clientId: `bench-${spec.workload}`, instanceId: `bench-${spec.workload}` },
    commitIntervalMs: spec.warden?.commitIntervalMs ?? 1_000,
  });
  const wait = <T>(what: string, probe: () => Promise<T | undefined>) => pollUntil(what, probe, { workload: WORKLOAD });
  let control: ControlSide | null = null;
  try {
    const baselineRssBytes = process.memoryUsage.rss();
    await ensureControlTopics(admin, topicPrefix);
    const names = controlTopicNames(topicPrefix);
    await wait('the control topics have leaders', async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [names.state, names.commands] });
      return topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))
        ? true
        : undefined;
    });
    control = await startControlSide({
      kafka,
      db,
      databaseUrl: settings.databaseUrl,
      topicPrefix,
      pollIntervalMs: settings.pollIntervalMs,
      groupId,
    });
    await consumer.start();
    const rounds = await timeSkipRounds({
      db,
      groupId,
      topic: spec.topic,
      actions: settings.actions,
      produceHeld: (i) =>
        producer.send({ topic: spec.topic, acks: -1, messages: [{ partition: 0, value: poisonRecord(i) }] }),
      wait,
    });
    return skipRoundsMeasurement(rounds, baselineRssBytes, { pollIntervalMs: settings.pollIntervalMs });
  } finally {
    // As the worker stops: its control side first, then the consumer (which stops its own).
    await control?.stop();
    await consumer.stop(5_000);
    await producer.disconnect();
    await admin.disconnect();
    await db.$disconnect();
  }
}

import { DEFAULT_CLUSTER } from '../../../lib/kafka/cluster-settings';
import { createDatabase, nodePostgresPool } from '../../../lib/db';
import { createKafka } from '../../../lib/kafka/client';
import { getCommand } from '../../../lib/server/get-command';
import { listQuarantines } from '../../../lib/server/list-quarantines';
import { requestOperatorAction } from '../../../lib/server/request-operator-action';
import { controlTopicNames, createConsumer, ensureControlTopics } from '@warden/consumer';
import { OperatorActionListener } from '../../../worker/control/operator-action-listener';
import { startClusterControl, type ClusterControl } from '../../../worker/control/start-control';
import { groupMemberIdentity } from '../../../worker/kafka/group-member-identity';
import { createDeadLetterWriter } from '../../../worker/pipeline/dead-letter';
import { createDocumentPipeline } from '../../../worker/pipeline/document-pipeline';
import type { AdmittedEvent } from '../../../worker/pipeline/events';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { percentileOfSorted, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// (12): an operator action's round trip on the real broker and Postgres, over the control plane as the worker
// wires it: a WardenConsumer with `control` on (its state on `<prefix>.state`, commands from `<prefix>.commands`)
// and the worker's side of the control plane (worker/control/start-control.ts: the relay every
// COMMAND_POLL_INTERVAL_MS, woken by the NOTIFY listener; the state ingester). Each of `actions` rounds produces
// one poison record on partition 0, waits for its quarantine row (reported by the consumer, written by the
// ingester), then times from the request (the API's server function, lib/server/request-operator-action.ts)
// until the API's reads show the outcome: GET /api/commands/{id} applied and GET /api/quarantine without the
// card (their server functions, polled every POLL_MS). In between: the relay produces the command, the consumer
// reads it and applies the skip (a dead-letter copy, acks=all, the heaviest of the three actions), publishes its
// state, and the ingester records the outcome and lifts the card. Not timed: Next.js routing and the UI's own
// poll (ACTION_FOLLOW_MS, 500 ms while an action is pending), which adds at most its interval in the browser.

const POLL_MS = 5;
/** Longest wait for one step before the workload fails, naming the step. */
const STEP_TIMEOUT_MS = 30_000;

/** A stored type without a result key: admission quarantines it. */
function poisonRecord(i: number): string {
  return JSON.stringify({ eventId: `bench-poison-${i}`, type: 'document.upsert', businessId: `b-${i}`, payload: {} });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline)
      throw new Error(`action round trip: ${what} did not happen within ${STEP_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
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
  let control: ClusterControl | null = null;
  const listener = new OperatorActionListener({
    databaseUrl: settings.databaseUrl,
    onNotify: () => control?.relay.kick(),
  });
  const target = { cluster: DEFAULT_CLUSTER, groupId, topic: spec.topic, partition: 0 };
  try {
    const baselineRssBytes = process.memoryUsage.rss();
    await ensureControlTopics(admin, topicPrefix);
    const names = controlTopicNames(topicPrefix);
    await until('the control topics have leaders', async () => {
      const { topics } = await admin.fetchTopicMetadata({ topics: [names.state, names.commands] });
      return topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0))
        ? true
        : undefined;
    });
    control = await startClusterControl({
      cluster: DEFAULT_CLUSTER,
      kafka,
      db,
      topicPrefix,
      pollIntervalMs: settings.pollIntervalMs,
      expireAfterMs: 300_000,
      identify: groupMemberIdentity,
      groupIds: [groupId],
    });
    await consumer.start();
    await listener.start();
    // The API acts only on a sampled partition; one sample is enough for a skip.
    await db.lagSample.create({
      data: {
        sampledAt: new Date(),
        ...target,
        committedOffset: 0n,
        logStartOffset: 0n,
        logEndOffset: BigInt(settings.actions),
        lag: 0n,
        groupState: 'Stable',
      },
    });

    const roundTrips = new Float64Array(settings.actions);
    const applied = new Float64Array(settings.actions);
    let startEpochMs = 0;
    for (let i = 0; i < settings.actions; i++) {
      await producer.send({ topic: spec.topic, acks: -1, messages: [{ partition: 0, value: poisonRecord(i) }] });
      await until(
        `the quarantine at offset ${i} reported and ingested`,
        async () => (await db.partitionQuarantine.findFirst({ where: { ...target, offset: BigInt(i) } })) ?? undefined,
      );
      if (i === 0) startEpochMs = epochNowMs();
      const started = performance.now();
      const requested = await requestOperatorAction(db, target, { action: 'skip', reason: 'bench' }, 'bench');
      await until(`skip #${requested.id} visible through the API`, async () => {
        const [command, list] = await Promise.all([getCommand(db, requested.id), listQuarantines(db)]);
        const cardGone = !list.quarantines.some((q) => q.groupId === groupId && q.offset === String(i));
        return command.state === 'applied' && cardGone ? true : undefined;
      });
      roundTrips[i] = performance.now() - started;
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
      applied[i] = (row.completedAt?.getTime() ?? Number.NaN) - row.requestedAt.getTime();
    }
    const endEpochMs = epochNowMs();
    const sorted = Float64Array.from(roundTrips).sort();
    const appliedSorted = Float64Array.from(applied).sort();
    const p = (values: Float64Array, q: number) => Math.round((percentileOfSorted(values, q) ?? Number.NaN) * 10) / 10;
    return {
      records: settings.actions,
      startEpochMs,
      endEpochMs,
      latency: summarizeLatency(roundTrips),
      peakRssBytes: peakRssBytes(),
      baselineRssBytes,
      partitionDoneMs: [],
      details: {
        p50Ms: p(sorted, 50),
        p95Ms: p(sorted, 95),
        maxMs: p(sorted, 100),
        appliedP50Ms: p(appliedSorted, 50),
        appliedP95Ms: p(appliedSorted, 95),
        pollIntervalMs: settings.pollIntervalMs,
      },
    };
  } finally {
    // As the worker stops: its control side first, then the consumer (which stops its own).
    await listener.stop();
    await control?.stop();
    await consumer.stop(5_000);
    await producer.disconnect();
    await admin.disconnect();
    await db.$disconnect();
  }
}

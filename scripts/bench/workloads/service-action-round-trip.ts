import { DEFAULT_CLUSTER } from '../../../lib/kafka/cluster-settings';
import { createDatabase } from '../../../lib/db';
import { createKafka } from '../../../lib/kafka/client';
import { getCommand } from '../../../lib/server/get-command';
import { listQuarantines } from '../../../lib/server/list-quarantines';
import { requestOperatorAction } from '../../../lib/server/request-operator-action';
import { buildOrdersService, OrdersServiceProcess } from '../../../test-support/orders-service';
import { OperatorActionListener } from '../../../worker/control/operator-action-listener';
import { startClusterControl, type ClusterControl } from '../../../worker/control/start-control';
import { groupMemberIdentity } from '../../../worker/kafka/group-member-identity';
import { epochNowMs, type ChildSpec, type Measurement } from '../protocol';
import { percentileOfSorted, summarizeLatency } from '../stats';
import { peakRssBytes } from './probe';

// (13): an operator action's round trip to a team's service, as Warden reaches one: the example service
// (examples/orders-service) packed, installed from the tarball and built as a team would
// (test-support/orders-service.ts; the install is cached), then run as a process of its own with control on
// (its state on `<prefix>.state`, commands from `<prefix>.commands`, every control setting at its default).
// This process runs Warden's worker side of the control plane (worker/control/start-control.ts: the relay
// every COMMAND_POLL_INTERVAL_MS, woken by the NOTIFY listener; the state ingester) and the API's server
// functions. Each of `actions` rounds produces one malformed order to partition 0, waits until the service's
// hold reached Postgres through the ingester, then times from the request (lib/server/request-operator-action.ts)
// until the API's reads show the outcome: GET /api/commands/{id} applied and GET /api/quarantine without the
// card (their server functions, polled every POLL_MS). The action is Skip: the example has no dead-letter
// port, so the service skips without a copy (it commits past the held record and the partition flows on),
// reports the outcome in its next state (published promptly after a change) and acknowledges the command on
// the command topic. Not timed: Next.js routing and the UI's own poll (ACTION_FOLLOW_MS), as in (12).

const POLL_MS = 5;
/** Longest wait for one step before the workload fails, naming the step. */
const STEP_TIMEOUT_MS = 30_000;
/** The service's start: it connects to Postgres and Kafka and joins its group before /readyz says 200. */
const SERVICE_READY_TIMEOUT_MS = 120_000;

/** Not an order (admission refuses it as 'invalid-order'): the service holds its partition at this offset. */
function malformedOrder(i: number): string {
  return JSON.stringify({ orderId: `bench-malformed-${i}`, note: 'no customer, amount or currency' });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, service: OrdersServiceProcess): Promise<T> {
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (service.pid === null)
      throw new Error(
        `service action round trip: the service exited while waiting for ${what}:\n${service.output.slice(-4_000)}`,
      );
    if (performance.now() > deadline)
      throw new Error(
        `service action round trip: ${what} did not happen within ${STEP_TIMEOUT_MS} ms; the service's last output:\n${service.output.slice(-4_000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function runServiceActionRoundTrip(spec: ChildSpec, groupId: string): Promise<Measurement> {
  const settings = spec.serviceActions;
  if (!settings) throw new Error(`workload ${spec.workload}: the serviceActions settings are missing`);
  const buildStarted = performance.now();
  const build = await buildOrdersService();
  const buildMs = performance.now() - buildStarted;
  const kafka = createKafka({ brokers: spec.brokers, clientId: `bench-${spec.workload}` });
  const db = createDatabase(settings.databaseUrl);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  const service = new OrdersServiceProcess(
    build,
    {
      KAFKA_BROKERS: spec.brokers.join(','),
      DATABASE_URL: settings.serviceDatabaseUrl,
      ORDERS_TOPIC: settings.ordersTopic,
      RESULTS_TOPIC: settings.resultsTopic,
      GROUP_ID: groupId,
      CONTROL_TOPIC_PREFIX: settings.topicPrefix,
      PORT: String(settings.servicePort),
    },
    'orders-service-bench',
  );
  let control: ClusterControl | null = null;
  const listener = new OperatorActionListener({
    databaseUrl: settings.databaseUrl,
    onNotify: () => control?.relay.kick(),
  });
  const target = { cluster: DEFAULT_CLUSTER, groupId, topic: settings.ordersTopic, partition: 0 };
  try {
    await producer.connect();
    const baselineRssBytes = process.memoryUsage.rss();
    control = await startClusterControl({
      cluster: DEFAULT_CLUSTER,
      kafka,
      db,
      topicPrefix: settings.topicPrefix,
      pollIntervalMs: settings.pollIntervalMs,
      expireAfterMs: 300_000,
      identify: groupMemberIdentity,
      groupIds: [groupId],
    });
    await listener.start();
    const serviceStarted = performance.now();
    await service.start(true, SERVICE_READY_TIMEOUT_MS);
    const serviceStartMs = performance.now() - serviceStarted;
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
      await producer.send({
        topic: settings.ordersTopic,
        acks: -1,
        messages: [{ partition: 0, key: `bench-customer-${i}`, value: malformedOrder(i) }],
      });
      await until(
        `the service's hold at offset ${i} reported and ingested`,
        async () => (await db.partitionQuarantine.findFirst({ where: { ...target, offset: BigInt(i) } })) ?? undefined,
        service,
      );
      if (i === 0) startEpochMs = epochNowMs();
      const started = performance.now();
      const requested = await requestOperatorAction(db, target, { action: 'skip', reason: 'bench' }, 'bench');
      await until(
        `skip #${requested.id} visible through the API`,
        async () => {
          const [command, list] = await Promise.all([getCommand(db, requested.id), listQuarantines(db)]);
          if (command.state === 'failed' || command.state === 'failed_again')
            throw new Error(`skip #${requested.id} ended ${command.state}: ${command.message}`);
          const cardGone = !list.quarantines.some((q) => q.groupId === groupId && q.offset === String(i));
          return command.state === 'applied' && cardGone ? true : undefined;
        },
        service,
      );
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
        buildMs: Math.round(buildMs),
        installReused: build.reusedInstall,
        serviceStartMs: Math.round(serviceStartMs),
      },
    };
  } finally {
    // The service stops cleanly (it drains, commits and publishes 'stopped'), then the worker's side goes.
    if (service.pid !== null) await service.stop('SIGTERM').catch(() => undefined);
    await listener.stop();
    await control?.stop();
    await producer.disconnect();
    await db.$disconnect();
    build.remove();
  }
}

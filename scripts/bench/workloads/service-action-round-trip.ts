import { createDatabase } from '../../../lib/db';
import { createKafka } from '../../../lib/kafka/client';
import { buildOrdersService, OrdersServiceProcess } from '../../../test-support/orders-service';
import type { ChildSpec, Measurement } from '../protocol';
import { pollUntil, type WatchedProcess } from './poll-until';
import { skipRoundsMeasurement, startControlSide, timeSkipRounds, type ControlSide } from './skip-round-trips';

// (13): an operator action's round trip to a team's service, as Warden reaches one: the example service
// (examples/orders-service) packed, installed from the tarball and built as a team would
// (test-support/orders-service.ts; the install is cached), then run as a process of its own with control on
// (its state on `<prefix>.state`, commands from `<prefix>.commands`, every control setting at its default).
// This process runs Warden's worker side of the control plane and the API's server functions, and times the
// rounds as (12) does (skip-round-trips.ts). Each round's record is a malformed order the service holds. The
// example has no dead-letter port, so the service skips without a copy (it commits past the held record and
// the partition flows on), reports the outcome in its next state (published promptly after a change) and
// acknowledges the command on the command topic.

const WORKLOAD = 'service action round trip';
/** The service's start: it connects to Postgres and Kafka and joins its group before /readyz says 200. */
const SERVICE_READY_TIMEOUT_MS = 120_000;

/** Not an order (admission refuses it as 'invalid-order'): the service holds its partition at this offset. */
function malformedOrder(i: number): string {
  return JSON.stringify({ orderId: `bench-malformed-${i}`, note: 'no customer, amount or currency' });
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
  const watched: WatchedProcess = {
    exitedOutput: () => (service.pid === null ? service.output.slice(-4_000) : null),
    lastOutput: () => service.output.slice(-4_000),
  };
  let control: ControlSide | null = null;
  try {
    await producer.connect();
    const baselineRssBytes = process.memoryUsage.rss();
    control = await startControlSide({
      kafka,
      db,
      databaseUrl: settings.databaseUrl,
      topicPrefix: settings.topicPrefix,
      pollIntervalMs: settings.pollIntervalMs,
      groupId,
    });
    const serviceStarted = performance.now();
    await service.start(true, SERVICE_READY_TIMEOUT_MS);
    const serviceStartMs = performance.now() - serviceStarted;
    const rounds = await timeSkipRounds({
      db,
      groupId,
      topic: settings.ordersTopic,
      actions: settings.actions,
      produceHeld: (i) =>
        producer.send({
          topic: settings.ordersTopic,
          acks: -1,
          messages: [{ partition: 0, key: `bench-customer-${i}`, value: malformedOrder(i) }],
        }),
      wait: (what, probe) => pollUntil(what, probe, { workload: WORKLOAD, watched }),
    });
    return skipRoundsMeasurement(rounds, baselineRssBytes, {
      pollIntervalMs: settings.pollIntervalMs,
      buildMs: Math.round(buildMs),
      installReused: build.reusedInstall,
      serviceStartMs: Math.round(serviceStartMs),
    });
  } finally {
    // The service stops cleanly (it drains, commits and publishes 'stopped'), then the worker's side goes.
    if (service.pid !== null) await service.stop('SIGTERM').catch(() => undefined);
    await control?.stop();
    await producer.disconnect();
    await db.$disconnect();
    build.remove();
  }
}

import { hostname } from 'node:os';
import type { Admin, Producer } from 'kafkajs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadTestConfig } from '@/test-support/test-config';
import type { Database } from '@/lib/db';
import { DEFAULT_CLUSTER } from '@/lib/kafka/cluster-settings';
import { loadConsumerInstances } from '@/lib/server/consumer-instances';
import { getCommand } from '@/lib/server/get-command';
import { goneAfterMs } from '@/lib/instances/instance-liveness';
import { listQuarantines } from '@/lib/server/list-quarantines';
import { requestOperatorAction } from '@/lib/server/request-operator-action';
import { testDatabase } from '@/test-support/database';
import { committedOffsets, createTopic, eventually, testKafka, uniqueName } from '@/test-support/integration';
import { buildOrdersService, OrdersServiceProcess, type OrdersServiceBuild } from '@/test-support/orders-service';
import { startClusterControl, type ClusterControl } from '@/worker/control/start-control';

// The example service (examples/orders-service), installed from the packed tarball, beside Warden's worker-side
// control plane (its ingester and relay for the example's prefix) on the real broker and Postgres: a malformed
// order's hold reaches the Quarantine list naming the service's instance; an operator's skip, recorded by the
// API's server function, is applied by the service and recorded done; a resume of a record that fails again
// turns failed_again; the service's commit prefix and its measured rebalance are stored; and after kill -9 the
// instance reads gone once its silence passes the rule.

const config = loadTestConfig();
const SERVICE_PORT = config.WARDEN_TEST_PORT_BASE + 660;
const SETUP_TIMEOUT_MS = 600_000;
const TEST_TIMEOUT_MS = 120_000;
const OPERATOR = 'olga.operator';

const kafka = testKafka('orders-beside-warden-it');
const names = {
  ordersTopic: uniqueName('orders'),
  resultsTopic: uniqueName('orders-results'),
  groupId: uniqueName('orders-service'),
  prefix: uniqueName('orders-control'),
};
const ids = uniqueName('bw');
let build: OrdersServiceBuild;
let admin: Admin;
let producer: Producer;
let db: Database;
let orders: pg.Pool;
let control: ClusterControl;
let service: OrdersServiceProcess;
/** `<groupId>@<host>/<pid>`: how the service names itself (the package's default instance id). */
let instanceId: string;

beforeAll(async () => {
  build = await buildOrdersService();
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  db = testDatabase();
  orders = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
  await createTopic(admin, names.ordersTopic, 3);
  await createTopic(admin, names.resultsTopic, 1);
  control = await startClusterControl({
    cluster: DEFAULT_CLUSTER,
    kafka,
    db,
    topicPrefix: names.prefix,
    pollIntervalMs: 250,
    expireAfterMs: 300_000,
    groupIds: [names.groupId],
  });
  service = new OrdersServiceProcess(build, {
    KAFKA_BROKERS: config.kafkaBrokers.join(','),
    DATABASE_URL: config.DATABASE_URL,
    ORDERS_TOPIC: names.ordersTopic,
    RESULTS_TOPIC: names.resultsTopic,
    GROUP_ID: names.groupId,
    CONTROL_TOPIC_PREFIX: names.prefix,
    PORT: String(SERVICE_PORT),
  });
}, SETUP_TIMEOUT_MS);

afterEach((context) => {
  if (context.task.result?.state === 'fail') console.error(`orders service output:\n${service?.output.slice(-6_000)}`);
});

afterAll(async () => {
  if (service?.pid) await service.kill();
  await control?.stop();
  await producer?.disconnect().catch(() => undefined);
  await admin?.disconnect().catch(() => undefined);
  await orders?.end();
  await db?.$disconnect();
  build?.remove();
});

const order = (n: number) => ({
  orderId: `${ids}-${n}`,
  customerId: `${ids}-customer-${n % 5}`,
  amountCents: 100 * n + 1,
  currency: 'EUR',
});

async function send(partition: number, values: Array<ReturnType<typeof order> | string>): Promise<void> {
  await producer.send({
    topic: names.ordersTopic,
    acks: -1,
    messages: values.map((value) =>
      typeof value === 'string'
        ? { partition, value }
        : { partition, key: value.customerId, value: JSON.stringify(value) },
    ),
  });
}

async function stored(orderIds: string[]): Promise<string[]> {
  const { rows } = await orders.query<{ order_id: string }>(
    'SELECT order_id FROM orders_service_order WHERE order_id = ANY($1) ORDER BY order_id',
    [orderIds],
  );
  return rows.map((row) => row.order_id);
}

/** One lag sample per partition, as the sampler writes them: the API checks an action's target against them. */
async function sampleLogRange(): Promise<void> {
  const watermarks = await admin.fetchTopicOffsets(names.ordersTopic);
  await db.lagSample.createMany({
    data: watermarks.map((w) => ({
      sampledAt: new Date(),
      groupId: names.groupId,
      topic: names.ordersTopic,
      partition: w.partition,
      committedOffset: null,
      logStartOffset: BigInt(w.low),
      logEndOffset: BigInt(w.high),
      lag: null,
      groupState: 'Stable',
    })),
  });
}

function heldAt(offset: bigint) {
  return eventually(
    `${names.ordersTopic}-1 held at offset ${offset} in partition_quarantine`,
    () =>
      db.partitionQuarantine
        .findFirst({ where: { groupId: names.groupId, topic: names.ordersTopic, partition: 1, offset } })
        .then((row) => row ?? undefined),
    60_000,
  );
}

function settled(id: string) {
  return eventually(
    `action #${id} settled`,
    async () => {
      const row = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(id) } });
      return row.status === 'pending' ? undefined : row;
    },
    60_000,
  );
}

const target = () => ({ cluster: DEFAULT_CLUSTER, groupId: names.groupId, topic: names.ordersTopic, partition: 1 });

describe('examples/orders-service beside Warden', () => {
  it(
    "a malformed order quarantines its partition, and the Quarantine list names the service's instance as holder",
    async () => {
      // Partition 1: an order, the malformed one at offset 1, an order behind it. Partitions 0 and 2 flow.
      await send(1, [order(0), '{ "orderId": "half an order', order(1)]);
      await send(0, [order(2), order(3)]);
      await send(2, [order(4)]);
      await service.start();
      instanceId = `${names.groupId}@${hostname()}/${service.pid}`;

      const hold = await heldAt(1n);
      expect(hold).toMatchObject({ heldBy: instanceId, errorClass: 'malformed-json', failures: 1 });
      expect(hold.reason).toMatch(/^the value is not UTF-8 JSON: /);
      await eventually('partitions 0 and 2 committed to their ends, 1 at the hold', async () => {
        const committed = await committedOffsets(admin, names.groupId, names.ordersTopic);
        return committed.get(0) === '2' && committed.get(1) === '1' && committed.get(2) === '1' ? true : undefined;
      });
      expect(await stored([order(0), order(1), order(2), order(3), order(4)].map((o) => o.orderId))).toEqual(
        [order(0), order(2), order(3), order(4)].map((o) => o.orderId).sort(),
      );

      await sampleLogRange();
      const listed = await eventually('the hold listed with its live owner', async () => {
        const [card] = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === names.groupId);
        return card?.liveOwner === instanceId ? card : undefined;
      });
      expect(listed).toMatchObject({ topic: names.ordersTopic, partition: 1, offset: '1', heldBy: instanceId });
      expect(listed.record.preview).toContain('half an order');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a skip an operator asks for through the API is applied by the service, recorded done, and the orders behind it are stored',
    async () => {
      const requested = await requestOperatorAction(
        db,
        target(),
        { action: 'skip', reason: 'a truncated order from the checkout bug' },
        OPERATOR,
      );
      expect(requested).toMatchObject({ status: 'pending', requestedBy: OPERATOR, quarantineOffset: '1' });
      const row = await settled(requested.id);
      expect(row).toMatchObject({ status: 'done', executedBy: instanceId, requestedBy: OPERATOR });
      // The example has no dead-letter port: the record is skipped without a copy.
      expect(row.outcome).toBe('skipped offset 1 without processing; reading continues at 2');
      expect(await getCommand(db, requested.id)).toMatchObject({ state: 'applied' });
      expect(await db.partitionQuarantine.findFirst({ where: { groupId: names.groupId } })).toBeNull();
      expect((await listQuarantines(db)).quarantines.filter((q) => q.groupId === names.groupId)).toEqual([]);

      await eventually('partition 1 committed past the skipped record', async () =>
        (await committedOffsets(admin, names.groupId, names.ordersTopic)).get(1) === '3' ? true : undefined,
      );
      expect(await stored([order(1).orderId])).toEqual([order(1).orderId]);
      // The partition flows again: a later order on it is stored too.
      await send(1, [order(5)]);
      await eventually('the later order stored', async () =>
        (await stored([order(5).orderId])).length === 1 ? true : undefined,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a resume of a malformed order fails again: the action turns failed_again and the hold stays',
    async () => {
      const before = (await committedOffsets(admin, names.groupId, names.ordersTopic)).get(1);
      expect(before).toBe('4');
      await send(1, ['{ "orderId": 17, "currency": "euro" }', order(6)]);
      const first = await heldAt(4n);
      expect(first).toMatchObject({ heldBy: instanceId, errorClass: 'invalid-order', failures: 1 });
      await sampleLogRange();

      const requested = await requestOperatorAction(
        db,
        target(),
        { action: 'resume', reason: 'maybe the schema was deployed' },
        OPERATOR,
      );
      // The service reports the resume applied ('done'), then the record's new hold: the ingester turns it failed_again.
      const row = await eventually(
        'the resume recorded as failed again',
        async () => {
          const action = await db.operatorAction.findUniqueOrThrow({ where: { id: BigInt(requested.id) } });
          return action.status === 'failed_again' ? action : undefined;
        },
        60_000,
      );
      expect(row).toMatchObject({ executedBy: instanceId, requestedBy: OPERATOR });
      expect(row.outcome).toBe(
        `resumed, but offset 4 failed again with the same error: ${first.reason}; ${names.ordersTopic}-1 is held again`,
      );
      const again = await db.partitionQuarantine.findFirstOrThrow({ where: { groupId: names.groupId } });
      expect(again).toMatchObject({ offset: 4n, failures: 2, since: first.since, heldBy: instanceId });
      const [card] = (await listQuarantines(db)).quarantines.filter((q) => q.groupId === names.groupId);
      expect(card?.history.map((h) => [h.id, h.status, h.requestedBy])).toEqual([
        [requested.id, 'failed_again', OPERATOR],
      ]);
      expect(await stored([order(6).orderId])).toEqual([]);
      expect((await committedOffsets(admin, names.groupId, names.ordersTopic)).get(1)).toBe('4');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the service's commit prefix and its measured rebalance (the first join) are stored under its instance",
    async () => {
      // Partition 1 waits at the held record (offset 4); the others committed everything.
      const partitions = await eventually(
        'the commit prefix of every partition at its acknowledged commit',
        async () => {
          const rows = await db.consumerPartitionState.findMany({
            where: { groupId: names.groupId },
            orderBy: { partition: 'asc' },
          });
          return rows.map((p) => p.watermark).join() === '2,4,1' ? rows : undefined;
        },
      );
      expect(partitions.map((p) => [p.topic, p.partition, p.instanceId])).toEqual(
        [0, 1, 2].map((partition) => [names.ordersTopic, partition, instanceId]),
      );

      const rebalance = await db.rebalanceEvent.findFirstOrThrow({
        where: { groupId: names.groupId, source: 'own-consumer', reportedBy: instanceId },
      });
      expect(rebalance.trigger).toBe('join');
      expect(rebalance.durationMs).toBeGreaterThanOrEqual(0);
      expect(rebalance.endedAt!.getTime()).toBeGreaterThanOrEqual(rebalance.startedAt.getTime());
      expect(rebalance.membersAfter).toEqual([
        expect.objectContaining({ assignment: { [names.ordersTopic]: [0, 1, 2] } }),
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'after kill -9 the instance is live until its silence passes max(3 intervals, 15 s), then gone',
    async () => {
      const group = { cluster: DEFAULT_CLUSTER, groupId: names.groupId };
      const stateOf = async (nowMs: number) => {
        const listed = (await loadConsumerInstances(db, [group], nowMs)).get(
          `${DEFAULT_CLUSTER}\u0000${names.groupId}`,
        );
        return listed?.instances.find((i) => i.instanceId === instanceId);
      };
      const live = await stateOf(Date.now());
      expect(live).toMatchObject({ state: 'live', ready: true, stateIntervalMs: 5_000, partitionCount: 3 });

      expect(await service.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      const killedAt = Date.now();
      const lastReport = await db.consumerInstance.findUniqueOrThrow({
        where: { cluster_groupId_instanceId: { ...group, instanceId } },
      });
      const silenceAllowed = goneAfterMs(lastReport.stateIntervalMs);
      expect(silenceAllowed).toBe(15_000);
      // Right after the kill it still reads live: silence alone decides, and not enough has passed.
      expect((await stateOf(killedAt))?.state).toBe('live');

      const gone = await eventually(
        'the killed instance read as gone',
        async () => {
          const instance = await stateOf(Date.now());
          return instance?.state === 'gone' ? { instance, atMs: Date.now() } : undefined;
        },
        60_000,
      );
      // Gone only once the silence since its last report passed the rule, and its last report stays what it was.
      expect(gone.atMs - lastReport.reportedAt.getTime()).toBeGreaterThan(silenceAllowed);
      expect(gone.instance).toMatchObject({ reportedAt: lastReport.reportedAt.toISOString(), goneAfterMs: 15_000 });
      // Still listed (for an hour) with the partitions it owned at its last report.
      expect(gone.instance.partitionCount).toBe(3);
    },
    TEST_TIMEOUT_MS,
  );
});

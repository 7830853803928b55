import { hostname } from 'node:os';
import type { Admin, Consumer, Producer } from 'kafkajs';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { controlTopicNames, ZInstanceState, type TInstanceState } from '@warden/consumer';
import { loadTestConfig } from '@/test-support/test-config';
import {
  committedOffsets,
  createTopic,
  eventually,
  readTopic,
  testKafka,
  uniqueName,
} from '@/test-support/integration';
import {
  buildOrdersService,
  OrdersServiceProcess,
  runCommand,
  type OrdersServiceBuild,
} from '@/test-support/orders-service';

// The example service (examples/orders-service) installed from the packed tarball and run as a team runs it,
// against the real broker and Postgres: orders stored once each and answered, a malformed order holding only
// its own partition, and the hold reported on the control plane's state topic.

const config = loadTestConfig();
const SERVICE_PORT = config.WARDEN_TEST_PORT_BASE + 650;
const SETUP_TIMEOUT_MS = 600_000;
const TEST_TIMEOUT_MS = 240_000;

let build: OrdersServiceBuild;
const kafka = testKafka('orders-service-test');
let admin: Admin;
let producer: Producer;
let db: pg.Pool;
const running: OrdersServiceProcess[] = [];

beforeAll(async () => {
  build = await buildOrdersService();
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
}, SETUP_TIMEOUT_MS);

afterEach(async (context) => {
  // A failed test shows what the service said; every instance still running is stopped.
  for (const service of running.splice(0)) {
    if (context.task.result?.state === 'fail') console.error(`orders service output:\n${service.output.slice(-6_000)}`);
    if (service.pid !== null) await service.kill();
  }
});

afterAll(async () => {
  await producer?.disconnect().catch(() => undefined);
  await admin?.disconnect().catch(() => undefined);
  await db?.end();
  build?.remove();
});

interface Scenario {
  ordersTopic: string;
  resultsTopic: string;
  groupId: string;
  prefix: string;
}

async function scenario(partitions: number): Promise<Scenario> {
  const names = {
    ordersTopic: uniqueName('orders'),
    resultsTopic: uniqueName('orders-results'),
    groupId: uniqueName('orders-service'),
    prefix: uniqueName('control'),
  };
  await createTopic(admin, names.ordersTopic, partitions);
  await createTopic(admin, names.resultsTopic, partitions);
  return names;
}

function service(names: Scenario, env: Record<string, string> = {}): OrdersServiceProcess {
  const instance = new OrdersServiceProcess(build, {
    KAFKA_BROKERS: config.kafkaBrokers.join(','),
    DATABASE_URL: config.DATABASE_URL,
    ORDERS_TOPIC: names.ordersTopic,
    RESULTS_TOPIC: names.resultsTopic,
    GROUP_ID: names.groupId,
    CONTROL_TOPIC_PREFIX: names.prefix,
    PORT: String(SERVICE_PORT),
    ...env,
  });
  running.push(instance);
  return instance;
}

interface OrderInput {
  orderId: string;
  customerId: string;
  amountCents: number;
  currency: string;
}

function orders(prefix: string, from: number, count: number): OrderInput[] {
  return Array.from({ length: count }, (_, i) => ({
    orderId: `${prefix}-${from + i}`,
    customerId: `${prefix}-customer-${(from + i) % 7}`,
    amountCents: (from + i) * 100 + 1,
    currency: 'EUR',
  }));
}

async function send(topic: string, values: Array<OrderInput | string>, partition?: number): Promise<void> {
  await producer.send({
    topic,
    acks: -1,
    messages: values.map((value) =>
      typeof value === 'string'
        ? { value, partition }
        : { key: value.customerId, value: JSON.stringify(value), partition },
    ),
  });
}

interface StoredOrder {
  order_id: string;
  customer_id: string;
  amount_cents: string;
  currency: string;
  rewritten: boolean;
}

async function storedOrders(prefix: string): Promise<StoredOrder[]> {
  const { rows } = await db.query<StoredOrder>(
    `SELECT order_id, customer_id, amount_cents::text AS amount_cents, currency, updated_at <> stored_at AS rewritten
       FROM orders_service_order WHERE order_id LIKE $1 || '-%' ORDER BY order_id`,
    [prefix],
  );
  return rows;
}

async function storedCount(prefix: string, atLeast: number, timeoutMs = 60_000): Promise<StoredOrder[]> {
  return eventually(
    `${atLeast} orders ${prefix}-* stored`,
    async () => {
      const rows = await storedOrders(prefix);
      return rows.length >= atLeast ? rows : undefined;
    },
    timeoutMs,
  );
}

function expectStoredOnce(rows: StoredOrder[], expected: OrderInput[]): void {
  const byId = [...expected].sort((a, b) => a.orderId.localeCompare(b.orderId));
  expect(rows).toEqual(
    byId.map((order) => ({
      order_id: order.orderId,
      customer_id: order.customerId,
      amount_cents: String(order.amountCents),
      currency: order.currency,
      rewritten: false,
    })),
  );
}

/** Reads `<prefix>.state` from the start until `found` accepts a parsed state; every value must parse. */
async function awaitState(
  prefix: string,
  found: (state: TInstanceState) => boolean,
  timeoutMs = 60_000,
): Promise<TInstanceState> {
  const topic = controlTopicNames(prefix).state;
  await eventually(`the topic ${topic}`, async () => ((await admin.listTopics()).includes(topic) ? true : undefined));
  const reader: Consumer = kafka.consumer({ groupId: uniqueName('state-reader') });
  const states: TInstanceState[] = [];
  const invalid: string[] = [];
  await reader.connect();
  try {
    await reader.subscribe({ topic, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const parsed = ZInstanceState.safeParse(JSON.parse(message.value?.toString('utf8') ?? 'null'));
        if (parsed.success) states.push(parsed.data);
        else invalid.push(parsed.error.message);
      },
    });
    const state = await eventually(
      `a state on ${topic} that matches`,
      async () => {
        if (invalid.length > 0) throw new Error(`state that does not parse: ${invalid[0]}`);
        return states.find(found);
      },
      timeoutMs,
      { rethrow: (error) => error instanceof Error && error.message.startsWith('state that does not parse') },
    );
    return state;
  } finally {
    await reader.disconnect();
  }
}

describe('examples/orders-service, installed from the packed tarball', () => {
  it('passes its own unit tests in the installed copy', async () => {
    const { stdout } = await runCommand('npm', ['test'], { cwd: build.dir });
    expect(stdout).toMatch(/# fail 0/);
    expect(stdout).toMatch(/# pass [1-9]/);
  });

  it('refuses to start on invalid settings, naming each one, with exit code 2', async () => {
    const names = await scenario(1);
    const broken = service(names, { KAFKA_BROKERS: 'no-port-here', PORT: 'eighty' });
    await broken.start(false);
    expect(await broken.exited()).toEqual({ code: 2, signal: null });
    expect(broken.output).toMatch(/KAFKA_BROKERS must be a comma-separated list of host:port \(got "no-port-here"\)/);
    expect(broken.output).toMatch(/PORT must be an integer from 1 to 65535 \(got "eighty"\)/);
  });

  it(
    'stores every order once, answers each on the results topic, and survives kill -9 without duplicates',
    async () => {
      const names = await scenario(3);
      const ids = uniqueName('o');
      const first = service(names);
      await first.start();

      // 30 orders, then one of them again: a redelivered order finds its row and changes nothing.
      const batch = orders(ids, 0, 30);
      await send(names.ordersTopic, batch);
      await send(names.ordersTopic, [batch[0]!]);
      expectStoredOnce(await storedCount(ids, 30), batch);
      const results = await readTopic(kafka, names.resultsTopic, 31);
      for (const result of results) {
        expect(JSON.parse(result.value!)).toEqual({ orderId: result.key, status: 'accepted' });
      }
      expect(new Set(results.map((result) => result.key))).toEqual(new Set(batch.map((order) => order.orderId)));
      expect(results.filter((result) => result.key === batch[0]!.orderId).length).toBeGreaterThanOrEqual(2);

      // kill -9 while the next orders flow: what was stored but not committed is delivered again after the
      // restart, and still stored once.
      const more = orders(ids, 30, 60);
      await send(names.ordersTopic, more);
      await storedCount(ids, 40);
      expect(await first.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      // The killed member holds its partitions until its session times out, so the join takes a while.
      const second = service(names);
      await second.start(true, 120_000);
      const all = [...batch, ...more];
      expectStoredOnce(await storedCount(ids, all.length), all);
      const answered = await readTopic(kafka, names.resultsTopic, all.length + 1);
      expect(new Set(answered.map((result) => result.key))).toEqual(new Set(all.map((order) => order.orderId)));

      await eventually('every order committed', async () => {
        const committed = await committedOffsets(admin, names.groupId, names.ordersTopic);
        const ends = await admin.fetchTopicOffsets(names.ordersTopic);
        return ends.every((end) => committed.get(end.partition) === end.high) ? true : undefined;
      });
      expect(await second.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'holds only the partition of a malformed order, at its offset, and reports the hold on the state topic',
    async () => {
      const names = await scenario(3);
      const ids = uniqueName('q');
      // Partition 1: two orders, the malformed one at offset 2, two more. Partitions 0 and 2: three orders each.
      const held = orders(ids, 0, 4);
      await send(names.ordersTopic, [held[0]!, held[1]!, '{ "orderId": "broken", ', held[2]!, held[3]!], 1);
      const flowing = orders(ids, 10, 6);
      await send(names.ordersTopic, flowing.slice(0, 3), 0);
      await send(names.ordersTopic, flowing.slice(3), 2);

      const instance = service(names);
      await instance.start();
      await eventually('partition 1 held at offset 2, partitions 0 and 2 committed to their end', async () => {
        const committed = await committedOffsets(admin, names.groupId, names.ordersTopic);
        return committed.get(0) === '3' && committed.get(1) === '2' && committed.get(2) === '3' ? true : undefined;
      });
      const stored = (await storedOrders(ids)).map((row) => row.order_id);
      for (const order of [...flowing, held[0]!, held[1]!]) expect(stored).toContain(order.orderId);

      // The other partitions keep flowing while the hold stays where it is.
      const later = orders(ids, 20, 3);
      await send(names.ordersTopic, later, 0);
      await eventually('partition 0 committed past the later orders', async () => {
        const committed = await committedOffsets(admin, names.groupId, names.ordersTopic);
        return committed.get(0) === '6' ? committed : undefined;
      });
      expect((await committedOffsets(admin, names.groupId, names.ordersTopic)).get(1)).toBe('2');
      expect((await instance.readiness()).ready).toBe(true);

      const state = await awaitState(
        names.prefix,
        (candidate) =>
          candidate.groupId === names.groupId &&
          candidate.holds.some((hold) => hold.topic === names.ordersTopic && hold.partition === 1),
      );
      expect(state).toMatchObject({
        status: 'running',
        clientId: names.groupId,
        pid: instance.pid,
        host: hostname(),
        instanceId: `${names.groupId}@${hostname()}/${instance.pid}`,
      });
      expect(state.holds).toEqual([
        expect.objectContaining({
          topic: names.ordersTopic,
          partition: 1,
          offset: '2',
          errorClass: 'malformed-json',
          value: expect.stringContaining('broken'),
        }),
      ]);

      const instanceId = state.instanceId;
      expect(await instance.stop('SIGTERM')).toEqual({ code: 0, signal: null });
      await awaitState(
        names.prefix,
        (candidate) => candidate.instanceId === instanceId && candidate.status === 'stopped',
      );
    },
    TEST_TIMEOUT_MS,
  );
});

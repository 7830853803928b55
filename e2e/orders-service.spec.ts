import { hostname } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Admin, Kafka, Producer } from 'kafkajs';
import pg from 'pg';
import { loadTestConfig } from '../test-support/test-config';
import { testKafka, uniqueName } from '../test-support/integration';
import {
  ordersServiceFromSource,
  OrdersServiceProcess,
  type OrdersServiceLaunch,
} from '../test-support/orders-service';
import { OPERATOR } from '../test-support/credentials';
import { ARTIFACTS, createTopicWhenReady, signIn, startWorker, type WorkerProcess } from './support';

// A team's own service beside Warden, in the browser: the example service (examples/orders-service) embeds
// @warden/consumer with its control option, and a real worker process of this spec ingests what it reports and
// relays the operator's actions to it. A malformed order's hold shows on the Quarantine page naming the
// service's instance; Skip from the dialog reaches the service and the partition flows again; a Resume of a
// record that fails again says so; the group page shows the service's commit prefix, its instance and its
// first join's measured stop; the Audit page names the operator; after kill -9 its partitions turn STOP and its
// instance gone. The service runs from its sources (tsx): its install from the packed tarball is proven by
// packages/consumer/test/orders-service*.it.ts, and a pack and install would take most of this spec's time.

const config = loadTestConfig();
const ORDERS_PARTITIONS = 3;
/** The held partition; partitions 0 and 2 get a steady trickle of orders all along. */
const HELD = 1;
const prefix = uniqueName('e2e-orders-control');
const ordersTopic = uniqueName('e2e-orders');
const resultsTopic = uniqueName('e2e-orders-results');
const ordersGroup = uniqueName('e2e-orders-service');
const workerGroup = uniqueName('e2e-orders-worker');
const workerTopic = uniqueName('e2e-orders-worker-in');
const ids = uniqueName('e2e-order');

let kafka: Kafka;
let admin: Admin;
let producer: Producer;
let db: pg.Pool;
let worker: WorkerProcess | undefined;
let launch: OrdersServiceLaunch | undefined;
let service: OrdersServiceProcess | undefined;
/** How the service names itself: `<group>@<host>/<pid>` (the package's default instance id). */
let instanceId = '';
let trickle: { stop(): Promise<void> } | undefined;

// Each test goes on from where the one before left the service: after a failure the rest are skipped, never
// run on a new setup.
test.describe.configure({ mode: 'serial' });

/** An order named `name` (its id `<ids>-<name>`), keyed by its customer as the service orders them. */
const order = (name: string) => {
  const customerId = `${ids}-customer-of-${name}`;
  return {
    key: customerId,
    value: JSON.stringify({ orderId: `${ids}-${name}`, customerId, amountCents: 1250, currency: 'EUR' }),
  };
};

async function send(partition: number, messages: Array<{ key?: string; value: string }>): Promise<void> {
  await producer.send({ topic: ordersTopic, acks: -1, messages: messages.map((m) => ({ ...m, partition })) });
}

async function logEnd(partition: number): Promise<number> {
  return Number((await admin.fetchTopicOffsets(ordersTopic)).find((p) => p.partition === partition)!.high);
}

/** Orders on every partition but the held one, every 500 ms, until stopped: the group commits steadily. */
function startTrickle(): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const loop = (async () => {
    while (running) {
      for (const partition of [0, 2]) await send(partition, [order(`trickle-${n++}`)]);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

async function storedOrders(names: string[]): Promise<string[]> {
  const { rows } = await db.query<{ order_id: string }>(
    'SELECT order_id FROM orders_service_order WHERE order_id = ANY($1) ORDER BY order_id',
    [names.map((name) => `${ids}-${name}`)],
  );
  return rows.map((row) => row.order_id);
}

test.beforeAll(async () => {
  kafka = testKafka('warden-e2e-orders');
  admin = kafka.admin();
  await admin.connect();
  producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  db = new pg.Pool({ connectionString: config.DATABASE_URL, max: 2 });
  await createTopicWhenReady(admin, ordersTopic, ORDERS_PARTITIONS);
  await createTopicWhenReady(admin, resultsTopic, 1);
  await createTopicWhenReady(admin, workerTopic, 1);
  // The held partition: an order, the malformed one at offset 1, an order behind it.
  await send(HELD, [
    order('before-poison'),
    { value: '{"orderId": "cut off by a buggy checkout' },
    order('behind-poison'),
  ]);

  // The worker's own pipeline consumes a topic of its own; what matters here is its control plane (the ingester
  // and the relay, on this spec's prefix) and its sampler, every round stored (no idle skip) for the STOP rule.
  worker = startWorker({
    WARDEN_GROUP_ID: workerGroup,
    WARDEN_INPUT_TOPIC: workerTopic,
    WARDEN_RESULTS_TOPIC: uniqueName('e2e-orders-worker-results'),
    WARDEN_DLQ_TOPIC: uniqueName('e2e-orders-worker-dlq'),
    WARDEN_INPUT_PARTITIONS: '1',
    WORKER_PORT: String(config.WORKER_PORT + 9),
    WARDEN_CONTROL_TOPIC_PREFIX: prefix,
    COMMAND_POLL_INTERVAL_MS: '500',
    SAMPLER_GROUP_INCLUDE: `^${ordersGroup}$`,
    SAMPLE_IDLE_STORE_MS: '0',
    LOG_LEVEL: 'warn',
  });
  launch = ordersServiceFromSource();
  service = new OrdersServiceProcess(launch, {
    KAFKA_BROKERS: config.kafkaBrokers.join(','),
    DATABASE_URL: config.DATABASE_URL,
    ORDERS_TOPIC: ordersTopic,
    RESULTS_TOPIC: resultsTopic,
    GROUP_ID: ordersGroup,
    CONTROL_TOPIC_PREFIX: prefix,
    PORT: String(config.WARDEN_TEST_PORT_BASE + 670),
  });
  await service.start();
  instanceId = `${ordersGroup}@${hostname()}/${service.pid}`;
  trickle = startTrickle();
});

test.afterAll(async () => {
  await trickle?.stop();
  if (service?.pid) await service.kill();
  await worker?.stop();
  await producer?.disconnect();
  await admin?.disconnect();
  await db?.end();
  launch?.remove();
});

test.afterEach(() => {
  const info = test.info();
  if (info.status !== info.expectedStatus && service)
    console.error(`orders service output:\n${service.output.slice(-6_000)}`);
});

function heldCard(page: Page) {
  return page.locator(`[data-testid="quarantine-card"][data-group-id="${ordersGroup}"][data-partition="${HELD}"]`);
}

const groupPath = `/groups/${encodeURIComponent(ordersGroup)}`;
const skipReason = 'e2e: a checkout bug cut this order off; it is re-sent as a new order';
const resumeReason = 'e2e: maybe the schema fix is deployed';

test("the service's malformed order shows on the Quarantine page naming its instance; Skip from the dialog reaches the service and the partition flows again", async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/quarantine');
  const card = heldCard(page);
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.getByRole('heading', { name: new RegExp(`${ordersTopic}-${HELD} @ 1`) })).toBeVisible();
  await expect(card.getByTestId('quarantine-held-by')).toHaveText(instanceId);
  await expect(card.getByTestId('quarantine-reason')).toContainText('the value is not UTF-8 JSON');
  await expect(card.getByTestId('record-preview')).toContainText('cut off by a buggy checkout');
  // Sampled: the API can check the action against the partition's log, and the card says what the hold costs.
  await expect(card.getByTestId('quarantine-blocking')).toHaveText(/^blocking 2 records/);
  await page.screenshot({ path: path.join(ARTIFACTS, 'orders-service-quarantine.png'), fullPage: true });

  await card.getByRole('button', { name: 'Skip…' }).click();
  const dialog = page.getByRole('dialog', { name: `Skip ${ordersTopic}-${HELD}?` });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(skipReason);
  await dialog.getByRole('button', { name: 'Skip offset 1' }).click();
  await expect(dialog).toBeHidden();

  const progress = page.getByTestId('command-progress').first();
  await expect(progress).toHaveAttribute('data-state', 'applied', { timeout: 30_000 });
  // The example has no dead-letter port: the record is skipped without a copy.
  await expect(progress).toContainText('skipped offset 1 without processing; reading continues at 2');
  await expect(card).toHaveCount(0);

  // The partition flows again: the order behind the skipped one is stored, and so is a later one.
  await send(HELD, [order('after-skip')]);
  await expect
    .poll(() => storedOrders(['before-poison', 'behind-poison', 'after-skip']), { timeout: 30_000 })
    .toEqual([`${ids}-after-skip`, `${ids}-before-poison`, `${ids}-behind-poison`]);
});

test('a Resume of an order that fails again says so on the page, and the hold stays', async ({ page }) => {
  const offset = await logEnd(HELD);
  await send(HELD, [{ value: '{"orderId": 17, "currency": "euro"}' }, order('behind-second-poison')]);
  await signIn(page, OPERATOR, '/quarantine');
  const card = heldCard(page);
  await expect(card.getByRole('heading', { name: new RegExp(`${ordersTopic}-${HELD} @ ${offset}`) })).toBeVisible({
    timeout: 60_000,
  });
  await expect(card.getByTestId('quarantine-reason')).toContainText('not an order');
  await expect(card.getByTestId('quarantine-held-by')).toHaveText(instanceId);
  await expect(card.getByTestId('quarantine-since')).toContainText('failed once');

  await card.getByRole('button', { name: 'Resume…' }).click();
  const dialog = page.getByRole('dialog', { name: `Resume ${ordersTopic}-${HELD}?` });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(resumeReason);
  await dialog.getByRole('button', { name: `Resume offset ${offset}` }).click();
  await expect(dialog).toBeHidden();

  const progress = page.getByTestId('command-progress').first();
  await expect(progress).toHaveAttribute('data-state', 'failed_again', { timeout: 30_000 });
  await expect(progress).toContainText(`resumed, but offset ${offset} failed again with the same error`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('quarantine-since')).toContainText('failed 2 times');
  await expect(card.getByTestId('quarantine-history')).toContainText(`resumed by ${OPERATOR.name} at`);
  expect(await storedOrders(['behind-second-poison'])).toEqual([]);
});

test("the group page shows the service's commit prefix, its live instance and its first join's measured stop; the Audit page names the operator", async ({
  page,
}) => {
  await signIn(page, OPERATOR, groupPath);
  const rows = page.getByTestId('partition-row');
  await expect(rows).toHaveCount(ORDERS_PARTITIONS, { timeout: 30_000 });
  // The commit-prefix column, as the service reports it over the control plane, on every partition.
  for (let partition = 0; partition < ORDERS_PARTITIONS; partition++) {
    const row = page.locator(`[data-testid="partition-row"][data-partition="${partition}"]`);
    await expect(row.getByTitle(new RegExp(`^reported by ${escapeRegExp(instanceId)} at `))).toContainText('watermark');
  }
  await expect(
    page.locator(`[data-testid="partition-row"][data-partition="${HELD}"]`).getByTestId('partition-status'),
  ).toHaveText('Held');

  const instance = page.getByTestId('instances').getByTestId('instance-row');
  await expect(instance).toHaveCount(1);
  await expect(instance.getByTestId('instance-id')).toHaveText(instanceId);
  await expect(instance.getByTestId('instance-state')).toHaveText('Live');
  await expect(instance.getByTestId('instance-partitions')).toContainText(`${ORDERS_PARTITIONS} partitions`);

  // Its join, with the stop the service measured itself (the history loads once scrolled near).
  await page.getByTestId('rebalance-history').scrollIntoViewIfNeeded();
  const join = page.locator('[data-testid="rebalance-item"][data-trigger="join"]');
  await expect(join.getByTestId('rebalance-stop').first()).toContainText(ordersGroup, { timeout: 30_000 });
  await expect(join.getByTestId('rebalance-stop').first()).toContainText('joining');
  await page.screenshot({ path: path.join(ARTIFACTS, 'orders-service-group.png'), fullPage: true });

  await page.getByRole('link', { name: 'Audit' }).click();
  const skip = page.getByTestId('audit-row').filter({ hasText: skipReason });
  await expect(skip).toHaveAttribute('data-status', 'done');
  await expect(skip).toContainText(`${ordersTopic}-${HELD}`);
  await expect(skip.getByRole('cell', { name: OPERATOR.name, exact: true })).toBeVisible();
  const resume = page.getByTestId('audit-row').filter({ hasText: resumeReason });
  await expect(resume).toHaveAttribute('data-status', 'failed_again');
  await expect(resume.getByRole('cell', { name: OPERATOR.name, exact: true })).toBeVisible();
});

test('killed with kill -9, the service stops committing: its partitions turn STOP, the group Error, and its instance gone', async ({
  page,
}) => {
  await signIn(page, OPERATOR, groupPath);
  const instance = page.getByTestId('instances').getByTestId('instance-row');
  await expect(instance.getByTestId('instance-state')).toHaveText('Live');
  expect(await service!.kill()).toEqual({ code: null, signal: 'SIGKILL' });

  // Orders keep arriving on partitions 0 and 2 and nobody commits them: Burrow's STOP once the silence outlasts
  // the commit window's span (the trickle committed every second), or at once when the session times out and
  // the group is left without members.
  for (const partition of [0, 2]) {
    const row = page.locator(`[data-testid="partition-row"][data-partition="${partition}"]`);
    await expect(row.getByTestId('partition-status')).toHaveText('Stopped', { timeout: 60_000 });
    await expect(row.getByTestId('status-reason')).toContainText('no commit for');
  }
  await expect(page.getByTestId('group-status')).toHaveText('Error');
  // Silent for more than max(3 report intervals, 15 s): gone, still listed with what it owned.
  await expect(instance.getByTestId('instance-state')).toHaveText('Gone', { timeout: 30_000 });
  await expect(instance).toContainText('no report for over 15 s');
  await page.screenshot({ path: path.join(ARTIFACTS, 'orders-service-killed.png'), fullPage: true });

  await page.goto('/');
  const overviewRow = page.locator(`[data-testid="group-row"][data-group-id="${ordersGroup}"]`);
  await expect(overviewRow.getByTestId('group-status')).toHaveText('Error');
  await expect(overviewRow.getByTestId('group-status')).toHaveAttribute('title', /STOP/);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Admin, Kafka } from 'kafkajs';
import { ZGroupDetail, ZGroupsResponse } from '../lib/schemas/groups';
import { committedOffsets, eventually, testKafka, uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS, createTopicWhenReady, signIn, startWorker, type WorkerProcess } from './support';

// The whole chain on real parts: records produced through the broker, a real worker process consuming
// and sampling into Postgres, and the production UI in Chromium reading it back.

const PARTITIONS = 3;
const RECORDS = 30;

let kafka: Kafka;
let admin: Admin;
let worker: WorkerProcess | undefined;
const inputTopic = uniqueName('e2e-events');
const resultsTopic = uniqueName('e2e-results');
const workerGroup = uniqueName('e2e-worker');
const laggingGroup = uniqueName('e2e-lagging');

test.beforeAll(async () => {
  kafka = testKafka('warden-e2e');
  admin = kafka.admin();
  await admin.connect();
  await createTopicWhenReady(admin, inputTopic, PARTITIONS);
  await createTopicWhenReady(admin, resultsTopic, 1);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic: inputTopic,
    acks: -1,
    messages: Array.from({ length: RECORDS }, (_, i) => ({
      partition: i % PARTITIONS,
      key: `customer-${i % 5}`,
      value: JSON.stringify({
        eventId: `e2e-${i}`,
        type: 'document.upsert',
        businessId: `doc-${i}`,
        resultKey: `r-${i}`,
        payload: { i },
      }),
    })),
  });
  await producer.disconnect();
  // A group that read only the first 4 records of partition 0 and left: its lag is known exactly.
  await admin.setOffsets({ groupId: laggingGroup, topic: inputTopic, partitions: [{ partition: 0, offset: '4' }] });

  worker = startWorker({
    WARDEN_GROUP_ID: workerGroup,
    WARDEN_INPUT_TOPIC: inputTopic,
    WARDEN_RESULTS_TOPIC: resultsTopic,
    WARDEN_INPUT_PARTITIONS: String(PARTITIONS),
    SAMPLER_GROUP_INCLUDE: `^(${workerGroup}|${laggingGroup})$`,
  });
});

test.afterAll(async () => {
  await worker?.stop();
  await admin?.disconnect();
});

test('the overview lists live groups and the group page shows per-partition lag, refreshed without a reload', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/');
  await expect(page.getByRole('heading', { name: 'Consumer groups' })).toBeVisible();

  const workerRow = page.locator(`[data-testid="group-row"][data-group-id="${workerGroup}"]`);
  await expect(workerRow).toBeVisible({ timeout: 60_000 });
  // The worker processes all 30 records and commits; the next samples show it caught up.
  await expect(workerRow.getByTestId('total-lag')).toHaveText('0', { timeout: 60_000 });
  await expect(workerRow.getByText('never committed')).toHaveCount(0);
  await expect(workerRow.getByText('Stable')).toBeVisible();

  const laggingRow = page.locator(`[data-testid="group-row"][data-group-id="${laggingGroup}"]`);
  await expect(laggingRow.getByTestId('total-lag')).toHaveText(String(RECORDS / PARTITIONS - 4));
  await expect(laggingRow.getByText(`${PARTITIONS - 1} never committed`)).toBeVisible();

  // The filter narrows the table to matching groups.
  await page.getByLabel('Filter groups by name').fill(laggingGroup);
  await expect(page.getByTestId('group-row')).toHaveCount(1);

  await laggingRow.getByRole('link', { name: laggingGroup }).click();
  await expect(page.getByRole('heading', { name: laggingGroup })).toBeVisible();
  const rows = page.getByTestId('partition-row');
  await expect(rows).toHaveCount(PARTITIONS);
  const partitionZero = page.locator('[data-testid="partition-row"][data-partition="0"]');
  await expect(partitionZero.getByTestId('partition-lag')).toHaveText(String(RECORDS / PARTITIONS - 4));
  await expect(partitionZero.getByTestId('committed-offset')).toHaveText('4');
  // Its waiting record's age in human units, with how it was obtained (exact, interpolated or a lower bound).
  await expect(partitionZero.getByTestId('time-lag')).toHaveText(/^(≥ )?\d+ (s|min)/);
  await expect(partitionZero.locator('.timelag-kind')).toHaveText(/^(exact|interpolated|at least)$/);
  // Nobody is left to consume its records: STOP with the reason, and the page says the status rests on every
  // commit read from __consumer_offsets (the worker's offsets-topic reader).
  await expect(partitionZero.getByTestId('partition-status')).toHaveText('Stopped');
  await expect(partitionZero.getByTestId('status-term')).toHaveText('(Burrow: STOP)');
  await expect(partitionZero.getByTestId('status-reason')).toHaveText(/^the group has no members; no commit for /);
  await expect(partitionZero.getByTestId('status-window')).toHaveText(/^window 1\/10$/);
  await expect(page.getByTestId('status-source')).toHaveText(/every commit, read from __consumer_offsets/);

  // New records on partition 0 raise the lag on screen through polling, with no reload.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic: inputTopic,
    acks: -1,
    messages: Array.from({ length: 5 }, (_, i) => ({
      partition: 0,
      key: 'late',
      value: JSON.stringify({ eventId: `late-${i}`, type: 'heartbeat', businessId: `late-${i}` }),
    })),
  });
  await producer.disconnect();
  await expect(partitionZero.getByTestId('partition-lag')).toHaveText(String(RECORDS / PARTITIONS - 4 + 5));
  await page.screenshot({ path: path.join(ARTIFACTS, 'lagging-group.png'), fullPage: true });
});

test('GET /api/groups and GET /api/groups/{groupId} serve the same data, valid against the shared schemas', async ({
  request,
}) => {
  const response = await request.get('/api/groups', { headers: bearer(VIEWER_TOKEN) });
  expect(response.status()).toBe(200);
  const { groups } = ZGroupsResponse.parse(await response.json());
  expect(groups.find((g) => g.groupId === workerGroup)).toMatchObject({
    totalLag: 0,
    partitionsWithoutCommit: 0,
    partitionCount: PARTITIONS,
  });
  expect(groups.find((g) => g.groupId === laggingGroup)?.partitionsWithoutCommit).toBe(PARTITIONS - 1);

  const detail = ZGroupDetail.parse(
    await (
      await request.get(`/api/groups/${encodeURIComponent(laggingGroup)}`, { headers: bearer(VIEWER_TOKEN) })
    ).json(),
  );
  expect(detail.partitions.find((p) => p.partition === 0)?.committedOffset).toBe('4');
  expect(detail.partitions.find((p) => p.partition === 1)).toMatchObject({
    lag: null,
    timeLag: { ms: null, kind: 'unknown' },
  });
  expect(detail.isWardenConsumer).toBe(false);
});

test('an operator resets the offsets of an Empty group from its page, and the table and the audit log show it', async ({
  page,
}) => {
  const logEnd = (await admin.fetchTopicOffsets(inputTopic)).find((p) => p.partition === 0)!.high;
  const before = (await committedOffsets(admin, laggingGroup, inputTopic)).get(0);
  await signIn(page, OPERATOR, `/groups/${encodeURIComponent(laggingGroup)}`);
  const card = page.getByTestId('offset-reset');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('reset-disabled-reason')).toHaveCount(0);
  await card.getByTestId('reset-scope').selectOption('0');
  await card.getByTestId('reset-to').selectOption('latest');
  await card.getByTestId('reset-review').click();
  await expect(card.getByRole('alert')).toHaveText('reason: is required: say why, for the audit log');
  await card.getByTestId('reset-reason').fill('e2e: the backlog of partition 0 is obsolete');
  await card.getByTestId('reset-review').click();
  await expect(card.getByTestId('reset-confirm')).toContainText(`${inputTopic} partition 0`);
  await card.getByTestId('reset-confirm-button').click();
  await expect(card.getByTestId('reset-result')).toContainText(`partition 0: ${before} → ${logEnd}`);
  await eventually('the committed offset moved to the log end', async () =>
    (await committedOffsets(admin, laggingGroup, inputTopic)).get(0) === logEnd ? true : undefined,
  );
  const partitionZero = page.locator('[data-testid="partition-row"][data-partition="0"]');
  await expect(partitionZero.getByTestId('partition-lag')).toHaveText('0', { timeout: 30_000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'offset-reset.png'), fullPage: true });

  // Warden's own group offers no reset: its partitions move through the owning worker.
  await page.goto(`/groups/${encodeURIComponent(workerGroup)}`);
  await expect(page.getByTestId('partition-row')).toHaveCount(PARTITIONS);
  await expect(page.getByTestId('offset-reset')).toHaveCount(0);

  await page.getByRole('link', { name: 'Audit' }).click();
  const row = page.getByTestId('audit-row').filter({ hasText: 'e2e: the backlog of partition 0 is obsolete' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(OPERATOR.name);
  await expect(row).toContainText(`offset reset to ${logEnd}`);
  await expect(row).toHaveAttribute('data-status', 'done');
});

test("the worker's join is one rebalance on its group page and the Rebalances page, its member named as the partition table names it", async ({
  page,
}) => {
  await signIn(page, OPERATOR, `/groups/${encodeURIComponent(workerGroup)}`);
  const owners = page.getByTestId('partition-owner');
  await expect(owners).toHaveCount(PARTITIONS);
  const owner = (await owners.first().textContent())!;
  // Client id, the host as the broker sees it, and the tail of the member id.
  expect(owner).toMatch(/^\S+ 127\.0\.0\.1 #[0-9a-f]{6}$/);

  // The history is drawn once its card nears the viewport (app/groups/[groupId]/page-client.tsx).
  const history = page.getByTestId('rebalance-history');
  await history.scrollIntoViewIfNeeded();
  const item = history.getByTestId('rebalance-item');
  await expect(item).toHaveCount(1);
  await expect(item).toHaveAttribute('data-trigger', 'join');
  await expect(item.getByTestId('rebalance-stop')).toHaveCount(1);
  await expect(item.getByTestId('rebalance-stop').locator('.mono')).toHaveText(owner);
  await expect(item.getByTestId('rebalance-member').locator('.member-name')).toHaveText([owner]);

  await page.getByRole('link', { name: 'Rebalances' }).first().click();
  await page.getByLabel('Group').selectOption(workerGroup);
  const listed = page.getByTestId('rebalance-item');
  await expect(listed).toHaveCount(1);
  await expect(listed.getByTestId('rebalance-stop').locator('.mono')).toHaveText(owner);
});

test("the worker's own consumer reports over the control plane: its group page lists it as a live, ready instance owning every partition", async ({
  page,
}) => {
  await signIn(page, OPERATOR, `/groups/${encodeURIComponent(workerGroup)}`);
  const card = page.getByTestId('instances');
  const row = card.getByTestId('instance-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('instance-state')).toHaveText('Live');
  await expect(row.getByTestId('instance-readiness')).toHaveText('Ready');
  await expect(row.getByTestId('instance-partitions')).toContainText(`${PARTITIONS} partitions`);
  await expect(row.getByTestId('instance-partitions')).toContainText(`${inputTopic} 0, 1, 2`);
  // Named as the package names a process: client id @ host / pid.
  await expect(row.getByTestId('instance-id')).toHaveText(/^\S+@\S+\/\d+$/);
  await expect(card.getByTestId('instances-summary')).toHaveText(/^1 live · /);
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { Admin, Kafka } from 'kafkajs';
import { childProcessEnv } from '../lib/config';
import { ZGroupsResponse } from '../lib/schemas/groups';
import { createTopic, testKafka, uniqueName } from '../test-support/integration';

// The whole chain on real parts: records produced through the broker, a real worker process consuming
// and sampling into Postgres, and the production UI in Chromium reading it back.

const ROOT = path.resolve(__dirname, '..');
const PARTITIONS = 3;
const RECORDS = 30;

let kafka: Kafka;
let admin: Admin;
let worker: ChildProcess | undefined;
const inputTopic = uniqueName('e2e-events');
const resultsTopic = uniqueName('e2e-results');
const workerGroup = uniqueName('e2e-worker');
const laggingGroup = uniqueName('e2e-lagging');

test.beforeAll(async () => {
  kafka = testKafka('warden-e2e');
  admin = kafka.admin();
  await admin.connect();
  await createTopic(admin, inputTopic, PARTITIONS);
  await createTopic(admin, resultsTopic, 1);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({
    topic: inputTopic,
    acks: -1,
    messages: Array.from({ length: RECORDS }, (_, i) => ({
      partition: i % PARTITIONS,
      key: `customer-${i % 5}`,
      value: JSON.stringify({ eventId: `e2e-${i}`, type: 'document.upsert', businessId: `doc-${i}`, resultKey: `r-${i}`, payload: { i } }),
    })),
  });
  await producer.disconnect();
  // A group that read only the first 4 records of partition 0 and left: its lag is known exactly.
  await admin.setOffsets({ groupId: laggingGroup, topic: inputTopic, partitions: [{ partition: 0, offset: '4' }] });

  worker = spawn('npx', ['tsx', 'worker/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
    env: childProcessEnv({
      WARDEN_GROUP_ID: workerGroup,
      WARDEN_INPUT_TOPIC: inputTopic,
      WARDEN_RESULTS_TOPIC: resultsTopic,
      WARDEN_INPUT_PARTITIONS: String(PARTITIONS),
      SAMPLER_GROUP_INCLUDE: `^(${workerGroup}|${laggingGroup})$`,
    }),
  });
});

test.afterAll(async () => {
  if (worker?.pid) {
    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    process.kill(-worker.pid, 'SIGTERM');
    await exited;
  }
  await admin?.disconnect();
});

test('the home page shows live per-partition lag of real groups, refreshed without a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Consumer groups' })).toBeVisible();

  const workerCard = page.locator(`[data-group-id="${workerGroup}"]`);
  await expect(workerCard).toBeVisible({ timeout: 60_000 });
  await expect(workerCard.getByTestId('partition-row')).toHaveCount(PARTITIONS);
  // The worker processes all 30 records and commits; the next samples show it caught up.
  await expect(workerCard.getByTestId('partition-lag')).toHaveText(['0', '0', '0'], { timeout: 60_000 });
  await expect(workerCard.getByTestId('total-lag')).toHaveText('0');
  await expect(workerCard.getByText('never committed')).toHaveCount(0);
  await expect(workerCard.getByText('Stable')).toBeVisible();

  const laggingCard = page.locator(`[data-group-id="${laggingGroup}"]`);
  await expect(laggingCard).toBeVisible();
  const partitionZero = laggingCard.getByTestId('partition-row').filter({ has: page.getByRole('cell', { name: '0', exact: true }) }).first();
  await expect(partitionZero.getByTestId('partition-lag')).toHaveText(String(RECORDS / PARTITIONS - 4));

  // New records on partition 0 raise the lagging group's lag on screen through polling, with no reload.
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
  await page.screenshot({ path: path.join(ROOT, 'test-results', 'home.png'), fullPage: true });
});

test('GET /api/groups serves the same data, valid against the shared schema', async ({ request }) => {
  const response = await request.get('/api/groups');
  expect(response.status()).toBe(200);
  const { groups } = ZGroupsResponse.parse(await response.json());
  const lagging = groups.find((g) => g.groupId === laggingGroup);
  expect(lagging?.partitions.find((p) => p.partition === 0)?.committedOffset).toBe('4');
  expect(lagging?.partitions.find((p) => p.partition === 1)?.lag).toBeNull();
  const worker = groups.find((g) => g.groupId === workerGroup);
  expect(worker?.totalLag).toBe(0);
  expect(worker?.partitionsWithoutCommit).toBe(0);
  expect(lagging?.partitionsWithoutCommit).toBe(PARTITIONS - 1);
});

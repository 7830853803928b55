import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Admin, Kafka } from 'kafkajs';
import { loadTestConfig } from '../test-support/test-config';
import { ZAlertsResponse } from '../lib/schemas/alerts';
import { eventually, testKafka, uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS, createTopicWhenReady, signIn, startWorker, type WorkerProcess } from './support';

// The Alerts page on the real chain: a real worker quarantines a poison record, its sampler round raises the
// quarantine alert (it fires at once by default), and the production UI shows it, lets an operator
// acknowledge it and silence its group, and shows a viewer everything without a button.

let kafka: Kafka;
let admin: Admin;
let worker: WorkerProcess | undefined;
const inputTopic = uniqueName('e2e-alerts-in');
const workerGroup = uniqueName('e2e-alerts-worker');

test.beforeAll(async () => {
  kafka = testKafka('warden-e2e-alerts');
  admin = kafka.admin();
  await admin.connect();
  await createTopicWhenReady(admin, inputTopic, 2);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic: inputTopic, acks: -1, messages: [{ partition: 1, value: '{ not json' }] });
  await producer.disconnect();
  worker = startWorker({
    WARDEN_GROUP_ID: workerGroup,
    WARDEN_INPUT_TOPIC: inputTopic,
    WARDEN_RESULTS_TOPIC: uniqueName('e2e-alerts-results'),
    WARDEN_DLQ_TOPIC: uniqueName('e2e-alerts-dlq'),
    WARDEN_INPUT_PARTITIONS: '2',
    WORKER_PORT: String(loadTestConfig().WORKER_PORT + 3),
    SAMPLE_INTERVAL_MS: '1000',
    LOG_LEVEL: 'warn',
  });
});

test.afterAll(async () => {
  await worker?.stop();
  await admin?.disconnect();
});

const quarantineRow = (page: Page) =>
  page.locator(`[data-testid="open-alert"][data-condition="partition-quarantined"][data-group="${workerGroup}"]`);

test('an operator sees the firing alert, acknowledges it and silences its group; the marks show everywhere', async ({
  page,
  request,
}) => {
  await eventually(
    'the quarantine alert firing',
    async () => {
      const response = await request.get('/api/alerts', { headers: bearer(VIEWER_TOKEN) });
      const alerts = ZAlertsResponse.parse(await response.json());
      return alerts.open.find(
        (a) => a.groupId === workerGroup && a.condition === 'partition-quarantined' && a.phase === 'firing',
      );
    },
    90_000,
  );
  await signIn(page, OPERATOR, '/alerts');
  const row = quarantineRow(page);
  await expect(row).toContainText(`${workerGroup}: 1 partition quarantined`);
  await expect(row).toContainText(`${inputTopic}-1 quarantined at offset 0`);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Alerts/ })).toContainText(
    /\d/,
  );

  await row.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(row.getByTestId('alert-acknowledged')).toHaveText(`acknowledged by ${OPERATOR.name}`);
  await expect(row.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Silence…' }).click();
  const form = page.getByTestId('silence-form');
  await expect(form.getByLabel('Group (empty: every group)')).toHaveValue(workerGroup);
  await form.getByRole('button', { name: 'Silence' }).click();
  await expect(form.getByRole('alert')).toHaveText('reason: is required: say why, for the audit log');
  await form.getByLabel('Reason (for the audit)').fill('poison record from the e2e producer');
  await form.getByRole('button', { name: 'Silence' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('silence').filter({ hasText: workerGroup })).toContainText(
    'poison record from the e2e producer',
  );
  await expect(row.getByTestId('alert-silenced')).toContainText('silenced until');
  await page.screenshot({ path: path.join(ARTIFACTS, 'alerts.png'), fullPage: true });

  // The group page shows the same alert with the same marks.
  await page.goto(`/groups/${encodeURIComponent(workerGroup)}`);
  const banner = page.getByTestId('firing-alerts');
  await expect(banner).toContainText(`${workerGroup}: 1 partition quarantined`);
  await expect(banner.getByTestId('alert-silenced')).toBeVisible();
  await expect(banner.getByTestId('alert-acknowledged')).toBeVisible();
});

test('a viewer sees alerts and silences but has no button, and the API refuses a viewer', async ({
  page,
  request,
  baseURL,
}) => {
  await signIn(page, VIEWER, '/alerts');
  const row = quarantineRow(page);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('alert-silenced')).toBeVisible();
  await expect(page.getByRole('button', { name: /Acknowledge|Silence/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New silence…' })).toHaveCount(0);

  const silence = { groupId: workerGroup, condition: null, durationMinutes: 30, reason: 'viewer tries' };
  const refused = await request.post('/api/alerts/silences', {
    data: silence,
    headers: { ...bearer(VIEWER_TOKEN), origin: baseURL! },
  });
  expect(refused.status()).toBe(403);
  const missingReason = await request.post('/api/alerts/silences', {
    data: { ...silence, reason: '' },
    headers: { ...bearer(OPERATOR_TOKEN), origin: baseURL! },
  });
  expect([missingReason.status(), (await missingReason.json()).error]).toEqual([
    400,
    'reason: is required: say why, for the audit log',
  ]);
});

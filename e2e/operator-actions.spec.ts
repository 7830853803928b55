import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Admin, Consumer, Kafka, Producer } from 'kafkajs';
import pg from 'pg';
import { loadTestConfig } from '../test-support/test-config';
import { ZAuditResponse, ZOperatorAction } from '../lib/schemas/operator-actions';
import { ZQuarantinesResponse } from '../lib/schemas/quarantines';
import { committedOffsets, eventually, readTopic, testKafka, uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS, createTopicWhenReady, signIn, startWorker, type WorkerProcess } from './support';

// Operator actions and the capacity card on the real chain: records through the broker, a real worker
// process that quarantines a poison record and applies the actions an operator takes in Chromium, samples
// in Postgres, and the production UI reading it all back.

const PARTITIONS = 3;

let kafka: Kafka;
let admin: Admin;
let worker: WorkerProcess | undefined;
const inputTopic = uniqueName('e2e-ops-in');
const resultsTopic = uniqueName('e2e-ops-results');
const dlqTopic = uniqueName('e2e-ops-dlq');
const workerGroup = uniqueName('e2e-ops-worker');
const slowTopic = uniqueName('e2e-slow-in');
const slowGroup = uniqueName('e2e-slow-group');

const upsert = (id: string) =>
  JSON.stringify({ eventId: id, type: 'document.upsert', businessId: id, resultKey: `r-${id}`, payload: { id } });
/** A stored type without a result key: admission quarantines it. */
const poison = (id: string) =>
  JSON.stringify({ eventId: id, type: 'document.upsert', businessId: id, payload: { note: '<b>not bold</b>' } });

async function send(messages: Array<{ partition: number; value: string; timestamp?: string }>, topic = inputTopic) {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages });
  await producer.disconnect();
}

async function logEnd(topic: string, partition: number): Promise<string> {
  return (await admin.fetchTopicOffsets(topic)).find((p) => p.partition === partition)!.high;
}

test.beforeAll(async () => {
  kafka = testKafka('warden-e2e-ops');
  admin = kafka.admin();
  await admin.connect();
  await createTopicWhenReady(admin, inputTopic, PARTITIONS);
  await createTopicWhenReady(admin, resultsTopic, 1);
  await createTopicWhenReady(admin, dlqTopic, 1);
  // Partition 1 holds a poison record at offset 2; the other partitions are healthy.
  await send([
    ...[0, 1, 2, 3].map((i) => ({ partition: 0, value: upsert(`${workerGroup}-p0-${i}`) })),
    { partition: 1, value: upsert(`${workerGroup}-p1-0`) },
    { partition: 1, value: upsert(`${workerGroup}-p1-1`) },
    { partition: 1, value: poison(`${workerGroup}-poison`) },
    { partition: 1, value: upsert(`${workerGroup}-p1-3`) },
    ...[0, 1, 2].map((i) => ({ partition: 2, value: upsert(`${workerGroup}-p2-${i}`) })),
  ]);

  worker = startWorker({
    WARDEN_GROUP_ID: workerGroup,
    WARDEN_INPUT_TOPIC: inputTopic,
    WARDEN_RESULTS_TOPIC: resultsTopic,
    WARDEN_DLQ_TOPIC: dlqTopic,
    WARDEN_INPUT_PARTITIONS: String(PARTITIONS),
    WORKER_PORT: String(loadTestConfig().WORKER_PORT + 1),
    COMMAND_POLL_INTERVAL_MS: '500',
    SAMPLER_GROUP_INCLUDE: `^(${workerGroup}|${slowGroup})$`,
    LOG_LEVEL: 'warn',
  });
});

test.afterAll(async () => {
  await worker?.stop();
  await admin?.disconnect();
});

function quarantineCard(page: Page, partition: number) {
  return page.locator(`[data-testid="quarantine-card"][data-group-id="${workerGroup}"][data-partition="${partition}"]`);
}

const actionUrl = (group: string, partition: number | string) =>
  `/api/groups/${encodeURIComponent(group)}/partitions/${inputTopic}/${partition}/actions`;
const auditOf = async (request: Page['request']) =>
  ZAuditResponse.parse(
    await (
      await request.get(`/api/audit?groupId=${encodeURIComponent(workerGroup)}`, { headers: bearer(VIEWER_TOKEN) })
    ).json(),
  ).actions;

test('a viewer sees the quarantined record but no action buttons, and the API refuses a viewer (403), a stranger (401) and another origin (403)', async ({
  page,
  request,
  baseURL,
}) => {
  await signIn(page, VIEWER, '/quarantine');
  const card = quarantineCard(page, 1);
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('record-preview')).toContainText(`${workerGroup}-poison`);
  await expect(card.getByRole('button')).toHaveCount(0);
  await expect(card.getByTestId('viewer-note')).toHaveText(
    'You are signed in as a viewer: resuming, skipping and seeking need the operator role.',
  );
  await expect(page.getByTestId('user-menu')).toContainText(`${VIEWER.name} viewer`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'quarantine-viewer.png'), fullPage: true });

  const skip = { action: 'skip', reason: 'viewer tries' };
  // The viewer's own session, from the dashboard's origin: signed in, but the role is not enough.
  const asViewer = await page.request.post(actionUrl(workerGroup, 1), { data: skip, headers: { origin: baseURL! } });
  expect(asViewer.status()).toBe(403);
  expect((await asViewer.json()).error).toBe(`${VIEWER.name} is a viewer: this needs the operator role`);
  const viewerToken = await request.post(actionUrl(workerGroup, 1), { data: skip, headers: bearer(VIEWER_TOKEN) });
  expect(viewerToken.status()).toBe(403);
  // Nobody signed in: 401 for actions and reads alike.
  for (const headers of [{}, { origin: baseURL! }] as Array<Record<string, string>>) {
    const stranger = await request.post(actionUrl(workerGroup, 1), { data: skip, headers });
    expect(stranger.status()).toBe(401);
    expect((await stranger.json()).error).toBe('sign in first (or send a bearer token)');
  }
  expect((await request.get('/api/quarantine')).status()).toBe(401);
  expect((await request.get('/api/audit', { headers: bearer('not-a-token') })).status()).toBe(401);
  // An operator's credentials from another origin (a forged cross-site form) are refused too.
  const crossSite = await request.post(actionUrl(workerGroup, 1), {
    data: skip,
    headers: { ...bearer(OPERATOR_TOKEN), origin: 'https://evil.example' },
  });
  expect(crossSite.status()).toBe(403);
  expect((await crossSite.json()).error).toMatch(/^cross-origin POST refused/);
  // Every error body names its field, null where none applies.
  expect(await crossSite.json()).toMatchObject({ field: null });
  // The refused attempts of known callers (403) are audit rows; the strangers' (401) are not, nor is the
  // cross-site request, which the access proxy refuses before any handler sees it.
  const refused = await auditOf(request);
  expect(refused.map((a) => [a.status, a.requestedBy, a.action]).sort()).toEqual(
    [
      ['rejected', VIEWER.name, 'skip'],
      ['rejected', 'token:e2e-ci', 'skip'],
    ].sort(),
  );
  expect(refused.every((a) => a.outcome?.startsWith('refused by the API (403): '))).toBe(true);
});

test('a poison record quarantines its partition; an operator skips it with a reason in the UI; the partition drains and the audit lists it', async ({
  page,
  request,
}) => {
  await signIn(page, OPERATOR, '/quarantine');
  await expect(page.getByRole('heading', { name: 'Quarantined partitions' })).toBeVisible();
  const card = quarantineCard(page, 1);
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.getByRole('heading', { name: new RegExp(`${inputTopic}-1 @ 2`) })).toBeVisible();
  await expect(card.getByTestId('quarantine-reason')).toContainText('resultKey');
  // The payload is shown as escaped text: the markup inside it is text, not an element.
  await expect(card.getByTestId('record-preview')).toContainText(`${workerGroup}-poison`);
  await expect(card.getByTestId('record-preview')).toContainText('<b>not bold</b>');
  await expect(card.locator('pre b')).toHaveCount(0);
  // Since when the record is held, how often it failed, what it costs, and the refused attempts on it.
  await expect(card.getByTestId('quarantine-since')).toContainText(/^held since \d\d:\d\d:\d\d \(.+\) · failed once/);
  await expect(card.getByTestId('quarantine-blocking')).toHaveText(
    /^blocking (\d+ records?|an unknown number of records)/,
  );
  await expect(card.getByTestId('quarantine-history')).toContainText(`skipped by ${VIEWER.name} at`);
  await expect(card.getByTestId('quarantine-history')).toContainText('refused');

  // Meanwhile the healthy partitions drained, and partition 1 is held right before the poison record.
  await eventually('healthy partitions committed to their ends', async () => {
    const c = await committedOffsets(admin, workerGroup, inputTopic);
    return c.get(0) === '4' && c.get(2) === '3' && c.get(1) === '2' ? true : undefined;
  });
  await page.screenshot({ path: path.join(ARTIFACTS, 'quarantine.png'), fullPage: true });

  // Keyboard: the dialog opens from the button, Escape cancels it and nothing is sent.
  await card.getByRole('button', { name: 'Skip…' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Skip ${inputTopic}-1?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: /Reason/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card.getByRole('button', { name: 'Skip…' })).toBeFocused();

  // A reason is required before anything is sent.
  await card.getByRole('button', { name: 'Skip…' }).click();
  await dialog.getByRole('button', { name: 'Skip offset 2' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('reason: is required: say why, for the audit log');
  await page.screenshot({ path: path.join(ARTIFACTS, 'quarantine-dialog.png') });
  const reason = 'e2e: poison record without a result key; copied to the DLQ';
  await dialog.getByRole('textbox', { name: /Reason/ }).fill(reason);
  await dialog.getByRole('button', { name: 'Skip offset 2' }).click();
  await expect(dialog).toBeHidden();

  const progress = page.getByTestId('command-progress').first();
  await expect(progress).toHaveAttribute('data-state', 'applied', { timeout: 30_000 });
  await expect(progress).toContainText(
    `skipped offset 2 without processing, copied to ${dlqTopic}; reading continues at 3`,
  );
  await expect(card).toHaveCount(0);

  // The partition flows again: its commit passes the skipped record, and the group page shows it caught up.
  await eventually('partition 1 committed to its end', async () =>
    (await committedOffsets(admin, workerGroup, inputTopic)).get(1) === '4' ? true : undefined,
  );
  const [copy] = await readTopic(kafka, dlqTopic, 1);
  expect(copy?.value).toContain(`${workerGroup}-poison`);
  await page.goto(`/groups/${encodeURIComponent(workerGroup)}`);
  await expect(
    page.locator('[data-testid="partition-row"][data-partition="1"]').getByTestId('committed-offset'),
  ).toHaveText('4', { timeout: 30_000 });

  await page.getByRole('link', { name: 'Audit' }).click();
  const row = page.getByTestId('audit-row').filter({ hasText: reason });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row).toContainText('skipped offset 2 without processing');
  await expect(row).toContainText(`${inputTopic}-1`);
  // Recorded under the operator who signed in.
  await expect(row.getByRole('cell', { name: OPERATOR.name, exact: true })).toBeVisible();
  await page.screenshot({ path: path.join(ARTIFACTS, 'audit.png'), fullPage: true });

  const skips = (await auditOf(request)).filter((a) => a.action === 'skip' && a.status !== 'rejected');
  expect(skips).toHaveLength(1);
  expect(skips[0]).toMatchObject({ requestedBy: OPERATOR.name, reason, status: 'done' });
});

test('seek by time through the UI moves the partition past the poison record, and the table reflects it', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/');
  // Timestamps after every earlier record of the partition, so "first at or after" cannot land before them.
  const base = Date.now() + 1_000;
  const start = Number(await logEnd(inputTopic, 2)); // 3
  await send([
    { partition: 2, value: poison(`${workerGroup}-poison-2`), timestamp: String(base) },
    { partition: 2, value: upsert(`${workerGroup}-late-0`), timestamp: String(base + 10_000) },
    { partition: 2, value: upsert(`${workerGroup}-late-1`), timestamp: String(base + 20_000) },
  ]);
  await page.goto('/quarantine');
  await expect(quarantineCard(page, 2)).toBeVisible({ timeout: 60_000 });
  // The group page reads the held partition as Held, not as a healthy commit status.
  await page.goto(`/groups/${encodeURIComponent(workerGroup)}`);
  const row = page.locator('[data-testid="partition-row"][data-partition="2"]');
  await expect(row.getByTestId('partition-status')).toHaveText('Held');
  // The worker's own consumer reports over the control plane: live on its group page, and named as the holder.
  const instanceRow = page.getByTestId('instances').getByTestId('instance-row');
  await expect(instanceRow).toHaveCount(1);
  await expect(instanceRow.getByTestId('instance-state')).toHaveText('Live');
  const holder = (await instanceRow.getByTestId('instance-id').textContent()) ?? '';
  expect(holder).toMatch(/^\S+@\S+\/\d+$/);
  await page.goto('/quarantine');
  const card = quarantineCard(page, 2);
  await expect(card.getByTestId('quarantine-held-by')).toHaveText(holder);
  await card.getByRole('button', { name: 'Seek…' }).click();
  const dialog = page.getByRole('dialog', { name: `Seek ${inputTopic}-2?` });
  await dialog.getByRole('radio', { name: /first record at or after a time/ }).check();
  // datetime-local takes the viewer's local time; 5 s after the poison record, before the next one.
  const at = new Date(base + 5_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
  await dialog.getByTestId('seek-time').fill(local);
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('e2e: skip to the first record after the bad import');
  await dialog.getByRole('button', { name: `Seek ${inputTopic}-2` }).click();
  await expect(page.getByTestId('command-progress').first()).toHaveAttribute('data-state', 'applied', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('command-progress').first()).toContainText(
    `sought from offset ${start} to ${start + 1}`,
  );

  await page.goto(`/groups/${encodeURIComponent(workerGroup)}`);
  await expect(row.getByTestId('committed-offset')).toHaveText(String(start + 3), { timeout: 30_000 });
  await expect(row.getByTestId('partition-lag')).toHaveText('0');
  await expect(row.getByText(/quarantined @/)).toHaveCount(0);
  await expect(row.getByTestId('partition-status')).not.toHaveText('Held');
});

test('the action API refuses bad input, unknown targets and partitions that are not held, and writes nothing', async ({
  request,
}) => {
  const url = actionUrl;
  const auditCount = async () => (await auditOf(request)).length;
  const before = await auditCount();

  const cases: Array<{ path: string; body: unknown; status: number; error: RegExp }> = [
    { path: url(workerGroup, 0), body: { action: 'skip' }, status: 400, error: /^reason: is required/ },
    {
      path: url(workerGroup, 0),
      body: { action: 'delete', reason: 'x' },
      status: 400,
      error: /^action: must be one of resume, skip, seek/,
    },
    {
      path: url(workerGroup, 0),
      body: { action: 'seek', reason: 'x' },
      status: 400,
      error: /^offset: seek needs exactly one of offset or timestamp/,
    },
    {
      path: url(workerGroup, 0),
      body: { action: 'seek', offset: '-1', reason: 'x' },
      status: 400,
      error: /^offset: must be a whole, non-negative offset/,
    },
    {
      path: url(workerGroup, 0),
      body: { action: 'seek', offset: '999999', reason: 'x' },
      status: 400,
      error: /^offset: 999999 is outside the log/,
    },
    {
      path: url(workerGroup, 0),
      body: { action: 'seek', timestamp: 'yesterday', reason: 'x' },
      status: 400,
      error: /^timestamp: must be an ISO-8601 time/,
    },
    {
      path: url(workerGroup, 'x'),
      body: { action: 'skip', reason: 'x' },
      status: 400,
      error: /^partition: must be a partition number/,
    },
    {
      path: url('no-such-group', 0),
      body: { action: 'skip', reason: 'x' },
      status: 404,
      error: /has never been sampled/,
    },
    { path: url(workerGroup, 9), body: { action: 'skip', reason: 'x' }, status: 404, error: /has never been sampled/ },
    { path: url(workerGroup, 0), body: { action: 'skip', reason: 'x' }, status: 409, error: /is not quarantined/ },
  ];
  for (const c of cases) {
    const response = await request.post(c.path, { data: c.body, headers: bearer(OPERATOR_TOKEN) });
    expect(response.status(), JSON.stringify(c.body)).toBe(c.status);
    const body = await response.json();
    expect(body.error).toMatch(c.error);
    // Every error body carries field: the offending input for a 400, null for a 404 or 409.
    expect(Object.keys(body).sort(), JSON.stringify(c.body)).toEqual(['error', 'field']);
    if (c.status !== 400) expect(body.field).toBeNull();
  }
  // Only the 409 (an operator's attempt that does not apply) is kept, as a rejected row.
  expect(await auditCount()).toBe(before + 1);
  const [refusal] = await auditOf(request);
  expect(refusal).toMatchObject({ status: 'rejected', partition: 0, action: 'skip' });

  const quarantines = ZQuarantinesResponse.parse(
    await (await request.get('/api/quarantine', { headers: bearer(VIEWER_TOKEN) })).json(),
  );
  expect(quarantines.quarantines.filter((q) => q.groupId === workerGroup)).toEqual([]);
  expect((await request.get('/api/commands/123456789', { headers: bearer(VIEWER_TOKEN) })).status()).toBe(404);
  // A command the UI created is readable as pending/applied/failed.
  const first = (await auditOf(request)).filter((a) => a.status === 'done').at(-1)!;
  const command = await (
    await request.get(`/api/commands/${ZOperatorAction.parse(first).id}`, { headers: bearer(VIEWER_TOKEN) })
  ).json();
  expect(command).toMatchObject({ state: 'applied', status: 'done' });
});

test('a resume that fails again is shown and audited as failed again; the card keeps since and counts the failure', async ({
  page,
}) => {
  const start = Number(await logEnd(inputTopic, 0));
  await send([{ partition: 0, value: poison(`${workerGroup}-poison-again`) }]);
  await signIn(page, OPERATOR, '/quarantine');
  const card = quarantineCard(page, 0);
  await expect(card).toBeVisible({ timeout: 60_000 });
  await expect(card.getByTestId('quarantine-since')).toContainText('failed once');
  const since = await card.getByTestId('quarantine-since').locator('time').getAttribute('datetime');

  await card.getByRole('button', { name: 'Resume…' }).click();
  const dialog = page.getByRole('dialog', { name: `Resume ${inputTopic}-0?` });
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('e2e: maybe it was transient');
  await dialog.getByRole('button', { name: `Resume offset ${start}` }).click();
  await expect(dialog).toBeHidden();

  // The record fails admission again: the resume ends failed_again, shown as such, and the card stays the same
  // hold with its first time and a second failure.
  const progress = page.getByTestId('command-progress').first();
  await expect(progress).toHaveAttribute('data-state', 'failed_again', { timeout: 30_000 });
  await expect(progress).toContainText(`resumed, but offset ${start} failed again with the same error`);
  await expect(card.getByTestId('quarantine-since')).toContainText('failed 2 times');
  await expect(card.getByTestId('quarantine-since').locator('time')).toHaveAttribute('datetime', since!);
  await expect(card.getByTestId('quarantine-history')).toContainText(`resumed by ${OPERATOR.name} at`);
  await expect(card.getByTestId('quarantine-history')).toContainText('failed again');
  await page.screenshot({ path: path.join(ARTIFACTS, 'quarantine-failed-again.png'), fullPage: true });

  await page.getByRole('link', { name: 'Audit' }).click();
  const row = page.getByTestId('audit-row').filter({ hasText: 'e2e: maybe it was transient' });
  await expect(row).toHaveAttribute('data-status', 'failed_again');
});

test('while an action is pending its buttons are disabled, and the pending action survives navigation', async ({
  page,
}) => {
  // A held partition nobody applies actions for (its group has no worker): the action stays pending.
  const group = uniqueName('e2e-unowned');
  // Plain SQL: the Prisma client does not load inside Playwright's test runner.
  const db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
         log_end_offset, lag, group_state)
       VALUES (now(), $1, $2, 0, 3, 0, 10, 7, 'Stable')`,
      [group, inputTopic],
    );
    await db.query(
      `INSERT INTO partition_quarantine (group_id, topic, partition, "offset", reason, error_class, since,
         held_since, failures, attempts, record_headers)
       VALUES ($1, $2, 0, 3, 'e2e: held with no worker', 'schema', now() - interval '250 seconds',
         now() - interval '250 seconds', 4, 0, '{}')`,
      [group, inputTopic],
    );
    await signIn(page, OPERATOR, '/quarantine');
    const card = page.locator(`[data-testid="quarantine-card"][data-group-id="${group}"]`);
    await expect(card.getByTestId('quarantine-since')).toContainText(
      /held since \d\d:\d\d:\d\d \(4 min \d+ s\) · failed 4 times/,
    );
    await expect(card.getByTestId('quarantine-blocking')).toHaveText(/^blocking 7 records/);
    await card.getByRole('button', { name: 'Skip…' }).click();
    const dialog = page.getByRole('dialog', { name: `Skip ${inputTopic}-0?` });
    await dialog.getByRole('textbox', { name: /Reason/ }).fill('e2e: nobody will apply this');
    await dialog.getByRole('button', { name: 'Skip offset 3' }).click();
    await expect(dialog).toBeHidden();
    for (const name of ['Resume…', 'Skip…', 'Seek…']) await expect(card.getByRole('button', { name })).toBeDisabled();
    const pending = page
      .getByTestId('command-progress')
      .filter({ hasText: `skip ${inputTopic}-0` })
      .first();
    await expect(pending).toHaveAttribute('data-state', 'pending');

    // Away and back: the list and the disabled buttons come from the API, not from the page's memory.
    await page.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('link', { name: 'Quarantine' }).click();
    await expect(page.getByTestId('command-progress').first()).toHaveAttribute('data-state', 'pending');
    await expect(page.getByTestId('command-progress').first()).toContainText(`skip ${inputTopic}-0`);
    await expect(card.getByRole('button', { name: 'Skip…' })).toBeDisabled();
    // Nobody owns the partition: the action waits for a worker to send it, or (sent) for an owner until it expires.
    await expect(
      card.getByTestId('pending-action').filter({
        hasText: new RegExp(
          `: (waiting for a Warden worker to send it|no live instance of ${group} owns ${inputTopic}-0: it waits, and expires at \\d\\d:\\d\\d:\\d\\d unless an owner appears)\\.$`,
        ),
      }),
    ).toBeVisible();
  } finally {
    for (const table of ['operator_action', 'partition_quarantine', 'lag_sample'])
      await db.query(`DELETE FROM ${table} WHERE group_id = $1`, [group]);
    await db.end();
  }
});

test('the group page of a falling-behind group shows its time lag and "Scale consumers to N to catch up in T"', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await createTopicWhenReady(admin, slowTopic, PARTITIONS);
  const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let producing = true;
  let sent = 0;
  // ~30 records/s over 3 partitions, while one consumer handles ~15/s: the group falls behind.
  const production = (async () => {
    while (producing) {
      await producer.send({
        topic: slowTopic,
        acks: -1,
        messages: Array.from({ length: 3 }, (_, i) => ({ partition: i, value: `slow-${sent++}` })),
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const consumer: Consumer = kafka.consumer({ groupId: slowGroup });
  const second: Consumer = kafka.consumer({ groupId: slowGroup });
  try {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await consumer.connect();
    await consumer.subscribe({ topic: slowTopic, fromBeginning: true });
    await consumer.run({ eachMessage: () => new Promise((resolve) => setTimeout(resolve, 65)) });

    await signIn(page, OPERATOR, `/groups/${encodeURIComponent(slowGroup)}`);
    const summary = page.getByTestId('capacity-summary');
    await expect(summary).toHaveText(/^Scale consumers to [23] to catch up in \d+ (s|min)( \d+ s)?\.$/, {
      timeout: 120_000,
    });
    const recommended = Number(await page.getByTestId('recommended-consumers').textContent());
    expect(recommended).toBeGreaterThan(1);
    expect(recommended).toBeLessThanOrEqual(PARTITIONS);
    // The what-if control reads the curve: at 1 consumer the group never catches up.
    await page.getByTestId('whatif-consumers').fill('1');
    await expect(page.getByTestId('whatif-result')).toHaveText('1 consumer: never catches up');

    // No consumer-count change seen yet: the plan says it assumes linear scaling, and the plan shown is on
    // the card's track record, not yet resolved.
    await expect(page.getByTestId('capacity-scaling')).toContainText('The plan assumes linear scaling');
    await expect(page.getByTestId('capacity-track-record')).toContainText(
      new RegExp(`said ${recommended} consumers, catch up in .+ → not yet`),
    );

    const row = page.locator('[data-testid="partition-row"][data-partition="0"]');
    await expect(row.getByTestId('time-lag')).toHaveText(/^≥? ?\d+ (s|min)/);
    await expect(page.getByTestId('group-worst-time-lag').getByTestId('time-lag')).toHaveText(/\d+ (s|min)/);
    // A live group that is not a Warden consumer: the offset reset is offered, disabled, saying why.
    await expect(page.getByTestId('reset-disabled-reason')).toContainText(
      /It is (Stable|PreparingRebalance|CompletingRebalance) with 1 member: a member would overwrite the reset/,
    );
    await expect(page.getByTestId('reset-review')).toBeDisabled();
    await page.screenshot({ path: path.join(ARTIFACTS, 'group.png'), fullPage: true });
    await page.goto('/');
    await expect(page.locator(`[data-testid="group-row"][data-group-id="${slowGroup}"]`)).toBeVisible();
    await page.screenshot({ path: path.join(ARTIFACTS, 'overview.png'), fullPage: true });

    // A second consumer joins while records wait: the advisor measures the scale-out and says so.
    await second.connect();
    await second.subscribe({ topic: slowTopic, fromBeginning: true });
    await second.run({ eachMessage: () => new Promise((resolve) => setTimeout(resolve, 65)) });
    await page.goto(`/groups/${encodeURIComponent(slowGroup)}`);
    await expect(page.getByTestId('capacity-scaling')).toHaveText(
      /^Scaling measured: 1 → 2 consumers gave \d+(\.\d+)?x, (not |close to linear \()2x\)?/,
      { timeout: 120_000 },
    );
  } finally {
    producing = false;
    await production;
    await producer.disconnect();
    await consumer.disconnect();
    await second.disconnect();
  }
});

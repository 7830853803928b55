import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Admin, Kafka } from 'kafkajs';
import { loadTestConfig } from '../test-support/test-config';
import { REDRIVE_HEADERS, ZDeadLettersResponse } from '../lib/schemas/dead-letters';
import { eventually, readTopic, testKafka, uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER, VIEWER_TOKEN } from '../test-support/credentials';
import {
  ARTIFACTS,
  checkLayout,
  createTopicWhenReady,
  expectAccessible,
  signIn,
  startDashboard,
  startWorker,
  waitForHydration,
  type RunningProcess,
  type WorkerProcess,
} from './support';

// The Dead letters page on the real chain: poison records produced to a topic a real worker consumes with
// WARDEN_QUARANTINE_POLICY=dead-letter, so its pipeline copies them to the dead-letter topic the dashboard
// browses (WARDEN_DLQ_TOPIC, the same setting for both); the same worker runs the redrive jobs an operator
// requests in Chromium. This spec is the only writer of that topic in the suite, so its counts are exact.

const config = loadTestConfig();
const DLQ_TOPIC = config.WARDEN_DLQ_TOPIC;
const sourceTopic = uniqueName('e2e-dlq-in');
const resultsTopic = uniqueName('e2e-dlq-results');
const workerGroup = uniqueName('e2e-dlq-worker');
/** A second dashboard with WARDEN_PAYLOAD_ACCESS=operator (the suite's runs with the default, viewer). */
const OPERATOR_ONLY_PORT = config.UI_PORT + 7;
const operatorOnlyURL = `http://127.0.0.1:${OPERATOR_ONLY_PORT}`;

let kafka: Kafka;
let admin: Admin;
let worker: WorkerProcess | undefined;

interface Poison {
  name: string;
  partition: number;
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
  errorClass: string;
  sourceOffset: string;
  /** Its offset in the dead-letter topic (partition 0), known once the worker wrote it. */
  dlqOffset?: string;
}

const upsert = (id: string) =>
  JSON.stringify({ eventId: id, type: 'document.upsert', businessId: id, resultKey: `r-${id}`, payload: { id } });

// Produced one at a time, oldest first; the dead-letter topic has one partition, so newest first is by offset.
const poisons: Poison[] = [
  {
    name: 'broken-json',
    partition: 0,
    key: 'k-broken-json',
    // Markup and a BEL control character: the page must show both as text.
    value: Buffer.from('{"eventId": "e1", \u0007 <b>not bold</b>'),
    headers: { 'origin-note': 'from-e2e' },
    errorClass: 'malformed-json',
    sourceOffset: '0',
  },
  {
    name: 'no-result-key',
    partition: 1,
    key: 'k-no-result-key',
    value: Buffer.from(JSON.stringify({ eventId: 'e2', type: 'document.upsert', businessId: 'b2', payload: {} })),
    errorClass: 'missing-result-key',
    sourceOffset: '0',
  },
  {
    name: 'binary',
    partition: 0,
    key: 'k-binary',
    value: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
    errorClass: 'invalid-utf8',
    sourceOffset: '1',
  },
  {
    name: 'not-json',
    partition: 1,
    key: 'k-not-json',
    value: Buffer.from('not json at all'),
    errorClass: 'malformed-json',
    // Offset 1 of partition 1 is a healthy record the worker processes.
    sourceOffset: '2',
  },
];
const byName = (name: string) => poisons.find((p) => p.name === name)!;
const newestFirst = () => [...poisons].reverse();

async function dlqEnd(): Promise<bigint> {
  const offsets = await admin.fetchTopicOffsets(DLQ_TOPIC);
  return offsets.reduce((sum, p) => sum + BigInt(p.high), 0n);
}

async function produce(partition: number, key: string, value: Buffer | string, headers?: Record<string, string>) {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic: sourceTopic, acks: -1, messages: [{ partition, key, value, headers }] });
  } finally {
    await producer.disconnect();
  }
}

let operatorOnlyServer: RunningProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  kafka = testKafka('warden-e2e-dlq');
  admin = kafka.admin();
  await admin.connect();
  await createTopicWhenReady(admin, sourceTopic, 2);
  await createTopicWhenReady(admin, resultsTopic, 1);
  await createTopicWhenReady(admin, DLQ_TOPIC, 1);
  worker = startWorker({
    WARDEN_GROUP_ID: workerGroup,
    WARDEN_INPUT_TOPIC: sourceTopic,
    WARDEN_RESULTS_TOPIC: resultsTopic,
    WARDEN_DLQ_TOPIC: DLQ_TOPIC,
    WARDEN_INPUT_PARTITIONS: '2',
    WARDEN_QUARANTINE_POLICY: 'dead-letter',
    WORKER_PORT: String(config.WORKER_PORT + 5),
    COMMAND_POLL_INTERVAL_MS: '500',
    SAMPLER_GROUP_INCLUDE: `^${workerGroup}$`,
    LOG_LEVEL: 'warn',
  });
  // One at a time, each waited for in the dead-letter topic, so their order there is known.
  for (const poison of poisons) {
    if (poison.name === 'not-json') await produce(1, 'k-healthy', upsert(`${workerGroup}-healthy`));
    const before = await dlqEnd();
    await produce(poison.partition, poison.key, poison.value, poison.headers);
    await eventually(
      `${poison.name} dead-lettered`,
      async () => ((await dlqEnd()) > before ? true : undefined),
      90_000,
    );
    poison.dlqOffset = before.toString();
  }
  operatorOnlyServer = await startDashboard(OPERATOR_ONLY_PORT, {
    UI_PORT: String(OPERATOR_ONLY_PORT),
    WARDEN_PAYLOAD_ACCESS: 'operator',
  });
});

test.afterAll(async () => {
  await operatorOnlyServer?.stop();
  await worker?.stop();
  await admin?.disconnect();
});

const rows = (page: Page) => page.getByTestId('dead-letter-row');
const row = (page: Page, poison: Poison) =>
  page.locator(`[data-testid="dead-letter-row"][data-dlq-partition="0"][data-dlq-offset="${poison.dlqOffset}"]`);

/** Fills the filter form (always scoped to this spec's source topic) and applies it. */
async function applyFilter(page: Page, fields: { sourcePartition?: string; errorClass?: string } = {}) {
  const form = page.getByRole('form', { name: 'Filter dead letters' });
  await form.getByLabel('Source topic').fill(sourceTopic);
  await form.getByLabel('Source partition').fill(fields.sourcePartition ?? '');
  await form.getByLabel('Error class').fill(fields.errorClass ?? '');
  await form.getByRole('button', { name: 'Apply filter' }).click();
}

async function expectRowsInOrder(page: Page, expected: Poison[]) {
  await expect(rows(page)).toHaveCount(expected.length);
  await expect
    .poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-dlq-offset'))))
    .toEqual(expected.map((p) => p.dlqOffset));
}

test('browse: the dead letters the worker wrote, newest first, with source, error class, attempts, an escaped preview and counts by class and source', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/dead-letters');
  await expect(page.getByRole('heading', { name: 'Dead letters', level: 1 })).toBeVisible();
  await expect(page.getByText(DLQ_TOPIC, { exact: true })).toBeVisible();
  await applyFilter(page);
  await expectRowsInOrder(page, newestFirst());

  for (const poison of poisons) {
    const r = row(page, poison);
    await expect(r).toContainText(`${sourceTopic}-${poison.partition} @ ${poison.sourceOffset}`);
    await expect(r.locator('.badge')).toHaveText(poison.errorClass);
    // Admission rejects a poison record before any handler attempt.
    await expect(r).toContainText('· 0 attempts');
    await expect(r).toContainText(poison.key);
    await expect(r.getByRole('cell').last()).toHaveText('—');
  }
  const broken = row(page, byName('broken-json'));
  // Escaped: the markup is text, not an element, and the control character is shown as its escape.
  await expect(broken.getByTestId('dead-letter-preview')).toHaveText('{"eventId": "e1", \\u0007 <b>not bold</b>');
  await expect(broken.locator('pre b')).toHaveCount(0);
  await expect(broken.locator('.error-line')).toContainText('record value is not JSON');
  // The headers are drawn only once their disclosure opens.
  await expect(broken.locator('summary')).toHaveText('1 header');
  await expect(broken.locator('dl')).toHaveCount(0);
  await broken.locator('summary').click();
  await expect(broken.locator('dl')).toContainText('origin-note');
  await expect(broken.locator('dl')).toContainText('from-e2e');
  // Not valid UTF-8: shown as hex, never as raw bytes.
  await expect(row(page, byName('binary')).getByTestId('dead-letter-preview')).toHaveText('hex:fffe0041');
  await expect(row(page, byName('no-result-key')).locator('.error-line')).toContainText('must carry resultKey');

  const counts = page.getByTestId('dead-letter-counts');
  await expect(counts).toContainText('(4 records)');
  const byClass = counts.getByRole('table', { name: 'Dead letters by error class' });
  await expect(byClass.getByRole('row')).toHaveText(['malformed-json2', 'invalid-utf81', 'missing-result-key1']);
  const bySource = counts.getByRole('table', { name: 'Dead letters by source partition' });
  await expect(bySource.getByRole('row', { name: `${sourceTopic}-0` })).toHaveText(`${sourceTopic}-02`);
  await expect(bySource.getByRole('row', { name: `${sourceTopic}-1` })).toHaveText(`${sourceTopic}-12`);
  // Side by side (the default 1280 px), each table is as tall as its own rows: the one with fewer rows is not
  // stretched to the other's height, which would draw its rows over 10 px taller than their neighbours (rows of
  // the same table may differ by a pixel, with their borders).
  const rowHeights = await counts
    .locator('tr')
    .evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
  expect(
    Math.max(...rowHeights) - Math.min(...rowHeights),
    `count rows' heights: ${rowHeights.join(', ')}`,
  ).toBeLessThan(2);
  // The filter's buttons stay on one line together: none wraps alone onto a line of its own (at 1,440 px the
  // fields leave room for two of the three on their line).
  await page.setViewportSize({ width: 1440, height: 900 });
  const filterButtonTops = await page
    .getByRole('form', { name: 'Filter dead letters' })
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
  expect(filterButtonTops).toHaveLength(3);
  expect(new Set(filterButtonTops).size, `the filter buttons' tops: ${filterButtonTops.join(', ')}`).toBe(1);
  await page.screenshot({ path: path.join(ARTIFACTS, 'dead-letters.png'), fullPage: true });
  // The page with its records, as every other page is checked (e2e/dashboard-quality.spec.ts).
  await expectAccessible(page, 'dead-letters');
  await checkLayout(page, 'dead-letters', () => expect(rows(page).first()).toBeVisible());
  // On a phone a record reads top to bottom: its cells stack under their labels, and nothing in the table needs
  // a sideways scroll of its card to be read.
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: 844 });
    const wrap = page.getByTestId('dead-letter-table').locator('xpath=..');
    const sideways = await wrap.evaluate((e) => e.scrollWidth - e.clientWidth);
    expect(sideways, `the record table at ${width} px scrolls sideways by`).toBeLessThanOrEqual(0);
    const errorRights = await rows(page)
      .locator('.error-line')
      .evaluateAll((lines) => lines.map((line) => line.getBoundingClientRect().right));
    expect(Math.max(...errorRights), `error messages' right edges at ${width} px`).toBeLessThanOrEqual(width);
    await expect(row(page, byName('no-result-key')).locator('td[data-label="Error"]')).toBeVisible();
  }
  await expectAccessible(page, 'dead-letters at 360 px');
});

test('filter: by source partition and by error class, each narrowing the list', async ({ page }) => {
  await signIn(page, VIEWER, '/dead-letters');
  await applyFilter(page, { sourcePartition: '1' });
  await expectRowsInOrder(page, [byName('not-json'), byName('no-result-key')]);
  await applyFilter(page, { errorClass: 'malformed-json' });
  await expectRowsInOrder(page, [byName('not-json'), byName('broken-json')]);
  await applyFilter(page, { sourcePartition: '0', errorClass: 'malformed-json' });
  await expectRowsInOrder(page, [byName('broken-json')]);
  await applyFilter(page, { errorClass: 'no-such-class' });
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByText('No dead letter matches.')).toBeVisible();
});

test('a viewer sees the dead letters and their payloads (access viewer) but no redrive controls, and the API refuses a viewer redrive (403)', async ({
  page,
  request,
}) => {
  await signIn(page, VIEWER, '/dead-letters');
  await applyFilter(page);
  await expect(rows(page)).toHaveCount(poisons.length);
  await expect(row(page, byName('binary')).getByTestId('dead-letter-preview')).toHaveText('hex:fffe0041');
  await expect(page.getByRole('button', { name: /Redrive/ })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  const refused = await request.post('/api/dead-letters/redrives', {
    headers: bearer(VIEWER_TOKEN),
    data: {
      selection: { kind: 'records', records: [{ partition: 0, offset: byName('binary').dlqOffset }] },
      reason: 'viewer tries',
      expectedCount: 1,
    },
  });
  expect(refused.status()).toBe(403);
});

test('redrive: an operator selects two records, gives a reason, confirms the count and watches the job finish; the records are back on their source partitions; a second redrive of them is refused naming who and when', async ({
  page,
}) => {
  const chosen = [byName('binary'), byName('no-result-key')];
  await signIn(page, OPERATOR, '/dead-letters');
  await applyFilter(page);
  await expect(rows(page)).toHaveCount(poisons.length);
  await expect(page.getByRole('button', { name: 'Redrive selected (0)' })).toBeDisabled();
  for (const p of chosen) await page.getByRole('checkbox', { name: `Select ${DLQ_TOPIC}-0 @ ${p.dlqOffset}` }).check();
  await page.getByRole('button', { name: 'Redrive selected (2)' }).click();

  const dialog = page.getByRole('dialog', { name: 'Redrive dead letters' });
  await expect(dialog.getByTestId('redrive-count')).toHaveText(
    '2 records will be produced back to their source topics, with their original key, value and headers.',
  );
  // A reason is required: the confirmation stays disabled without one.
  await expect(dialog.getByRole('button', { name: 'Redrive 2 records' })).toBeDisabled();
  const reason = 'e2e: admission fixed; send them back';
  await dialog.getByLabel('Reason (for the audit log)').fill(reason);
  await dialog.getByRole('button', { name: 'Redrive 2 records' }).click();
  await expect(dialog).toBeHidden();
  // The request clears the selection.
  await expect(page.getByRole('button', { name: 'Redrive selected (0)' })).toBeDisabled();
  for (const p of chosen) {
    await expect(page.getByRole('checkbox', { name: `Select ${DLQ_TOPIC}-0 @ ${p.dlqOffset}` })).not.toBeChecked();
  }

  // The worker (not the dashboard) runs the job; its progress reaches done.
  const job = page.getByTestId('redrive-job').filter({ hasText: reason });
  await expect(job).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(job.getByTestId('redrive-progress')).toHaveText('2 of 2 sent');
  await expect(job).toContainText(OPERATOR.name);
  const jobId = (await job.locator('strong').textContent())!.replace('#', '');
  for (const p of chosen)
    await expect(row(page, p).getByRole('cell').last()).toContainText(`#${jobId} by ${OPERATOR.name}, `);
  await page.screenshot({ path: path.join(ARTIFACTS, 'dead-letters-redriven.png'), fullPage: true });

  // Back on their source partitions with their original key and value, naming the dead letter they came from.
  const onSource = await readTopic(kafka, sourceTopic, poisons.length + 1 + chosen.length);
  const redriven = onSource.filter((m) => m.headers[REDRIVE_HEADERS.of] !== undefined);
  expect(redriven.map((m) => [m.partition, m.key, m.headers[REDRIVE_HEADERS.of]]).sort()).toEqual(
    chosen.map((p) => [p.partition, p.key, `${DLQ_TOPIC}/0/${p.dlqOffset}`]).sort(),
  );

  // The same records again, without force: refused, naming who redrove them and when; nothing is queued.
  for (const p of chosen) await page.getByRole('checkbox', { name: `Select ${DLQ_TOPIC}-0 @ ${p.dlqOffset}` }).check();
  await page.getByRole('button', { name: 'Redrive selected (2)' }).click();
  await dialog.getByLabel('Reason (for the audit log)').fill('e2e: once more');
  await dialog.getByRole('button', { name: 'Redrive 2 records' }).click();
  await expect(dialog.getByRole('alert')).toContainText('2 of the 2 selected record(s) were redriven before');
  await expect(dialog.getByRole('alert')).toContainText(
    new RegExp(`by ${OPERATOR.name} at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(redrive #${jobId}, to ${sourceTopic}\\)`),
  );
  await page.screenshot({ path: path.join(ARTIFACTS, 'dead-letters-refused.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('redrive-job').filter({ hasText: 'e2e: once more' })).toHaveAttribute(
    'data-status',
    'rejected',
  );

  // The Audit page lists both: who sent which records back where, why, and how far each job got.
  await page.goto('/audit');
  const done = page.getByTestId('redrive-audit-row').filter({ hasText: reason });
  await expect(done).toHaveAttribute('data-status', 'done');
  await expect(done).toContainText(OPERATOR.name);
  await expect(done).toContainText('2 chosen records');
  await expect(done).toContainText(`${DLQ_TOPIC} → their source partitions`);
  await expect(done.getByTestId('redrive-audit-progress')).toHaveText('2 / 2');
  await expect(page.getByTestId('redrive-audit-row').filter({ hasText: 'e2e: once more' })).toHaveAttribute(
    'data-status',
    'rejected',
  );
});

test('redrive of everything a filter matches: the confirmation counts the matches and the job sends exactly those', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/dead-letters');
  await applyFilter(page, { errorClass: 'malformed-json' });
  await expectRowsInOrder(page, [byName('not-json'), byName('broken-json')]);
  await page.getByRole('button', { name: 'Redrive all matching…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Redrive dead letters' });
  await expect(dialog.getByTestId('redrive-count')).toContainText('2 records will be produced back');
  const reason = 'e2e: redrive every malformed-json record';
  await dialog.getByLabel('Reason (for the audit log)').fill(reason);
  await dialog.getByRole('button', { name: 'Redrive 2 records' }).click();
  await expect(dialog).toBeHidden();
  const job = page.getByTestId('redrive-job').filter({ hasText: reason });
  await expect(job).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(job.getByTestId('redrive-progress')).toHaveText('2 of 2 sent');
  const matched = [byName('not-json'), byName('broken-json')];
  for (const p of matched) {
    await expect(row(page, p).getByRole('cell').last()).toContainText(`by ${OPERATOR.name}, `);
  }
  // Exactly the matched records went back: the source topic holds the two of the previous test and these two.
  const onSource = await readTopic(kafka, sourceTopic, poisons.length + 1 + 4);
  const ofMatched = new Set(matched.map((p) => `${DLQ_TOPIC}/0/${p.dlqOffset}`));
  const sentByThisJob = onSource.filter((m) => ofMatched.has(m.headers[REDRIVE_HEADERS.of] ?? ''));
  expect(onSource.filter((m) => m.headers[REDRIVE_HEADERS.of] !== undefined)).toHaveLength(4);
  expect(sentByThisJob.map((m) => [m.partition, m.key]).sort()).toEqual(
    matched.map((p) => [p.partition, p.key]).sort(),
  );
  // With the original value and headers.
  const broken = sentByThisJob.find((m) => m.key === 'k-broken-json')!;
  expect([broken.value, broken.headers['origin-note']]).toEqual([byName('broken-json').value.toString(), 'from-e2e']);
});

test('a filter the API refuses is not offered for redrive: the page says which field, and no job is asked for', async ({
  page,
}) => {
  await signIn(page, OPERATOR, '/dead-letters');
  const jobsBefore = await page.getByTestId('redrive-job').count();
  const form = page.getByRole('form', { name: 'Filter dead letters' });
  await form.getByLabel('Source topic').fill(sourceTopic);
  await form.getByLabel('From', { exact: true }).fill('2026-12-02T10:00');
  await form.getByLabel('To', { exact: true }).fill('2026-12-01T10:00');
  await form.getByRole('button', { name: 'Apply filter' }).click();
  await page.getByRole('button', { name: 'Redrive all matching…' }).click();
  await expect(page.getByTestId('redrive-filter-refused')).toHaveText(
    'The filter cannot be redriven: to: must be after from',
  );
  await expect(page.getByRole('dialog', { name: 'Redrive dead letters' })).toHaveCount(0);
  await expect(page.getByTestId('redrive-job')).toHaveCount(jobsBefore);
});

test.describe('in a time zone the server is not in', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test("the page keeps its server HTML, then shows its times in the viewer's zone and in UTC on the switch", async ({
    page,
  }) => {
    // The server renders every time in UTC and the browser, 5 h 30 min ahead of it here, must hydrate the same text:
    // on any difference React reports error #418 and renders the whole page again on the client.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, OPERATOR, '/dead-letters');
    // A full load, so the page hydrates its own server HTML rather than rendering after a client-side navigation.
    await page.goto('/dead-letters');
    await waitForHydration(page);
    await expect(page.getByTestId('refresh-state')).toHaveText(/\S/);
    expect(errors, 'errors while hydrating').toEqual([]);

    const time = rows(page).first().locator('time');
    const at = Date.parse((await time.getAttribute('datetime')) ?? '');
    const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    await expect(time).toHaveText(wall(at + 5.5 * 3_600_000));
    await page.getByTestId('time-zone-toggle').click();
    await expect(time).toHaveText(wall(at));
  });
});

test.describe('with WARDEN_PAYLOAD_ACCESS=operator', () => {
  test.use({ baseURL: operatorOnlyURL });

  test('a viewer sees the dead letters without keys, values or headers, on the page and from the API; an operator sees them', async ({
    page,
    request,
  }) => {
    await signIn(page, VIEWER, '/dead-letters');
    await applyFilter(page);
    await expect(row(page, byName('broken-json'))).toBeVisible();
    await expect(page.getByTestId('payloads-hidden')).toHaveText(
      'Payloads are hidden from you (WARDEN_PAYLOAD_ACCESS=operator).',
    );
    await expect(page.getByTestId('dead-letter-preview')).toHaveCount(0);
    await expect(page.getByText('k-broken-json')).toHaveCount(0);
    await expect(page.locator('summary')).toHaveCount(0);
    await expect(row(page, byName('broken-json')).locator('.badge')).toHaveText('malformed-json');
    await page.screenshot({ path: path.join(ARTIFACTS, 'dead-letters-payloads-hidden.png'), fullPage: true });

    const query = `/api/dead-letters?sourceTopic=${encodeURIComponent(sourceTopic)}`;
    const asViewer = ZDeadLettersResponse.parse(
      await (await request.get(query, { headers: bearer(VIEWER_TOKEN) })).json(),
    );
    expect(asViewer.payloadAccess).toBe('operator');
    expect(asViewer.records.length).toBeGreaterThan(0);
    for (const r of asViewer.records) {
      expect({ key: r.key, preview: r.preview, headers: r.headers, hidden: r.payloadHidden }).toEqual({
        key: null,
        preview: null,
        headers: {},
        hidden: true,
      });
    }
    // Nor can a viewer probe for keys through the filter.
    const byKey = await request.get(`${query}&key=k-binary`, { headers: bearer(VIEWER_TOKEN) });
    expect(byKey.status()).toBe(403);

    const asOperator = ZDeadLettersResponse.parse(
      await (await request.get(query, { headers: bearer(OPERATOR_TOKEN) })).json(),
    );
    const binary = asOperator.records.find((r) => r.dlq.offset === byName('binary').dlqOffset)!;
    expect({ key: binary.key, preview: binary.preview, hidden: binary.payloadHidden }).toEqual({
      key: 'k-binary',
      preview: 'hex:fffe0041',
      hidden: false,
    });
  });
});

import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import { loadTestConfig } from '../test-support/test-config';
import { ZGroupDetail } from '../lib/schemas/groups';
import { ZQuarantinesResponse } from '../lib/schemas/quarantines';
import { uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, VIEWER_TOKEN } from '../test-support/credentials';
import { ARTIFACTS, cutOffContent, expectAccessible, signIn } from './support';

// The dashboard's side of services that report over the control plane, on rows as Warden's ingester stores
// them (consumer_instance, partition_quarantine.held_by, operator_action.relayed_at / expires_at): the group
// page's Instances card (live, gone, stopped, readiness, partitions, refused commands; the text for a group
// that does not report), and the Quarantine page naming each hold's instance and saying where a pending action
// stands as a worker relays it and an owner appears. Both pages pass axe and fit at 1440 and 390 px. No worker
// runs here: every state is seeded, and the relay is played by an UPDATE.

// Times on the page are in the viewer's zone; this one is half an hour off UTC, so a time in UTC cannot pass.
const ZONE = 'Asia/Kolkata';
test.use({ timezoneId: ZONE });

const group = uniqueName('e2e-inst-orders');
const plainGroup = uniqueName('e2e-inst-plain');
const topic = uniqueName('e2e-inst-in');
const instance = (name: string) => `${name}@host-${name}/4242`;
const names = {
  // Reports every 2 min: live for the whole spec (6 min of silence before it is gone).
  first: `${group}-a`,
  second: `${group}-b`,
  gone: `${group}-gone`,
  stopped: `${group}-stopped`,
  longGone: `${group}-long-gone`,
  newOwner: `${group}-new-owner`,
};

let db: pg.Client;

async function seedInstance(
  name: string,
  over: {
    startedAgo: string;
    reportedAgo: string;
    status?: 'running' | 'stopped';
    intervalMs?: number;
    ready?: boolean;
    detail?: string;
    partitions?: number[];
    refused?: number;
    lastRefusal?: string | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO consumer_instance (cluster, group_id, instance_id, client_id, host, pid, package_version,
       started_at, reported_at, state_interval_ms, status, ready, readiness_detail, assignment, refused_commands,
       last_refusal)
     VALUES ('default', $1, $2, $3, $4, 4242, '0.1.0', now() - $5::interval, now() - $6::interval, $7, $8, $9, $10,
       $11::jsonb, $12, $13)
     ON CONFLICT (cluster, group_id, instance_id) DO UPDATE SET reported_at = EXCLUDED.reported_at,
       assignment = EXCLUDED.assignment, status = EXCLUDED.status`,
    [
      group,
      instance(name),
      name,
      `host-${name}`,
      over.startedAgo,
      over.reportedAgo,
      over.intervalMs ?? 120_000,
      over.status ?? 'running',
      over.ready ?? true,
      over.detail ?? 'joined; fetching and completing',
      JSON.stringify((over.partitions ?? []).map((partition) => ({ topic, partition }))),
      over.refused ?? 0,
      over.lastRefusal ?? null,
    ],
  );
}

test.beforeAll(async () => {
  db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  // One round per group: its partitions share one sampled_at (one statement's now()).
  for (const [g, partitions] of [
    [group, [0, 1, 2, 3]],
    [plainGroup, [0]],
  ] as const) {
    await db.query(
      `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
         log_end_offset, lag, group_state)
       SELECT now(), $1, $2, p, 12, 0, 40, 28, 'Stable' FROM unnest($3::int[]) AS p`,
      [g, topic, partitions],
    );
  }
  await seedInstance(names.first, { startedAgo: '2 hours', reportedAgo: '1 second', partitions: [0, 1] });
  await seedInstance(names.second, {
    startedAgo: '5 minutes',
    reportedAgo: '2 seconds',
    ready: false,
    detail: 'no completion for 40 s while 12 records are held',
    partitions: [2],
    refused: 2,
    lastRefusal: 'command 3f2a… is not signed, and a command key is configured',
  });
  await seedInstance(names.gone, {
    startedAgo: '3 hours',
    reportedAgo: '40 seconds',
    intervalMs: 5_000,
    partitions: [3],
  });
  await seedInstance(names.stopped, {
    startedAgo: '4 hours',
    reportedAgo: '10 minutes',
    status: 'stopped',
    ready: false,
    detail: 'stopped',
  });
  await seedInstance(names.longGone, { startedAgo: '6 hours', reportedAgo: '2 hours', intervalMs: 5_000 });
  for (const [partition, heldBy] of [
    [1, instance(names.first)],
    [3, instance(names.gone)],
  ] as const) {
    await db.query(
      `INSERT INTO partition_quarantine (group_id, topic, partition, "offset", reason, error_class, since,
         held_since, failures, attempts, record_headers, held_by)
       VALUES ($1, $2, $3, 12, 'e2e: result key missing', 'missing-result-key', now() - interval '90 seconds',
         now() - interval '90 seconds', 1, 0, '{}', $4)`,
      [group, topic, partition, heldBy],
    );
  }
});

test.afterAll(async () => {
  for (const table of ['operator_action', 'partition_quarantine', 'consumer_instance', 'lag_sample'])
    await db?.query(`DELETE FROM ${table} WHERE group_id = ANY($1)`, [[group, plainGroup]]);
  await db?.end();
});

const groupPath = (g: string) => `/groups/${encodeURIComponent(g)}`;

/** No serious axe violation in either theme at 1440 px, and nothing cut off at 390 px (with `ready` again there). */
async function checkPage(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await ready();
  await expectAccessible(page, name);
  // From the top: the top bar is sticky.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-1440.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await ready();
  // Charts follow a new width a frame or two later (a resize observer): polled, as a reader would see it settle.
  await expect.poll(() => cutOffContent(page), { message: `${name} at 390 px: cut off`, timeout: 5_000 }).toEqual([]);
  await expectAccessible(page, `${name} at 390 px`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test("the group page's Instances card: live ones first, then gone and stopped, in words, with readiness, partitions and refusals", async ({
  page,
  request,
}) => {
  const detail = ZGroupDetail.parse(
    await (await request.get(`/api/groups/${encodeURIComponent(group)}`, { headers: bearer(VIEWER_TOKEN) })).json(),
  );
  expect(detail.instances.map((i) => [i.instanceId, i.state])).toEqual([
    [instance(names.second), 'live'],
    [instance(names.first), 'live'],
    [instance(names.gone), 'gone'],
    [instance(names.stopped), 'stopped'],
  ]);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, OPERATOR, groupPath(group));
  await expect(page.getByTestId('partition-row')).toHaveCount(4);
  const card = page.getByTestId('instances');
  // Right after the partition table, where the owners are.
  const partitionsCard = page.locator('section[aria-labelledby="partitions-heading"]');
  expect(await partitionsCard.evaluate((s) => s.nextElementSibling?.getAttribute('data-testid') ?? null)).toBe(
    'instances',
  );
  await expect(card.getByRole('heading', { name: 'Instances' })).toBeVisible();
  await expect(card.getByTestId('instances-summary')).toHaveText(
    '2 live · 1 gone · 1 stopped · gone and stopped ones stay listed for an hour',
  );
  const rows = card.getByTestId('instance-row');
  await expect(rows).toHaveCount(4);
  await expect(rows.getByTestId('instance-id')).toHaveText([
    instance(names.second),
    instance(names.first),
    instance(names.gone),
    instance(names.stopped),
  ]);
  await expect(rows.getByTestId('instance-state')).toHaveText(['Live', 'Live', 'Gone', 'Stopped']);
  const row = (name: string) => card.locator(`[data-testid="instance-row"][data-instance-id="${instance(name)}"]`);
  // A table with headers: each cell is named by its column for a screen reader.
  await expect(card.getByRole('columnheader')).toHaveText([
    'Instance',
    'State',
    'Readiness',
    'Partitions',
    'Refused commands',
    'Started',
    'Last report',
  ]);
  await expect(card.getByRole('rowheader', { name: new RegExp(instance(names.first)) })).toBeVisible();
  await expect(row(names.first).getByTestId('instance-readiness')).toHaveText('Ready');
  await expect(row(names.first).getByTestId('instance-partitions')).toContainText('2 partitions');
  await expect(row(names.first).getByTestId('instance-partitions')).toContainText(`${topic} 0, 1`);
  await expect(row(names.second).getByTestId('instance-readiness')).toHaveText('Not ready');
  await expect(row(names.second)).toContainText('no completion for 40 s while 12 records are held');
  await expect(row(names.second).getByTestId('instance-refused')).toContainText('2');
  await expect(row(names.second).getByTestId('instance-refused')).toContainText(
    'last: command 3f2a… is not signed, and a command key is configured',
  );
  await expect(row(names.first).getByTestId('instance-refused')).toHaveText('0');
  await expect(row(names.gone)).toContainText('no report for over 15 s');
  await expect(row(names.gone).getByTestId('instance-partitions')).toContainText('at its last report');
  await expect(row(names.stopped)).toContainText('shut down cleanly');
  await expect(row(names.stopped).getByTestId('instance-readiness')).toHaveText('Was not ready');
  await expect(row(names.first)).toContainText(`client ${names.first} · host host-${names.first} · pid 4242`);
  // Its last report ticks on the viewer's clock.
  await expect(row(names.first).locator('time').last()).toHaveText(/^\d+ s ago$/);
  // A group that reports is a Warden consumer: no offset reset from outside.
  await expect(page.getByTestId('offset-reset')).toHaveCount(0);

  await checkPage(page, 'group-instances', () => expect(rows).toHaveCount(4));
});

test('a group whose consumers do not report says so, and why its quarantines cannot be acted on', async ({ page }) => {
  await signIn(page, OPERATOR, groupPath(plainGroup));
  const card = page.getByTestId('instances');
  await expect(card).toContainText('No consumer of this group reports to Warden.');
  await expect(card).toContainText(
    'Its consumers do not use the control option of @warden/consumer (control: { topicPrefix }), so Warden sees no instance of it, and its quarantines cannot be acted on from here.',
  );
  await expect(card.getByTestId('instance-row')).toHaveCount(0);
  await checkPage(page, 'group-no-instances', () => expect(card).toBeVisible());
});

test("the Quarantine page names each hold's instance, and says where a pending action stands as it is relayed and an owner appears", async ({
  page,
  request,
}) => {
  const quarantines = ZQuarantinesResponse.parse(
    await (await request.get('/api/quarantine', { headers: bearer(VIEWER_TOKEN) })).json(),
  ).quarantines.filter((q) => q.groupId === group);
  expect(quarantines.map((q) => [q.partition, q.heldBy, q.liveOwner])).toEqual([
    [1, instance(names.first), instance(names.first)],
    [3, instance(names.gone), null],
  ]);

  await signIn(page, OPERATOR, '/quarantine');
  const card = (partition: number) =>
    page.locator(`[data-testid="quarantine-card"][data-group-id="${group}"][data-partition="${partition}"]`);
  await expect(card(1).getByTestId('quarantine-held-by')).toHaveText(instance(names.first));
  await expect(
    card(1)
      .getByRole('definition')
      .filter({ hasText: instance(names.first) }),
  ).toBeVisible();
  await expect(card(3).getByTestId('quarantine-held-by')).toHaveText(instance(names.gone));

  // Partition 3's holder is gone and nobody live owns it: the dialog warns before the operator asks.
  await card(3).getByRole('button', { name: 'Skip…' }).click();
  const dialog = page.getByRole('dialog', { name: `Skip ${topic}-3?` });
  await expect(dialog.getByTestId('no-live-owner')).toHaveText(
    `No live instance of ${group} owns ${topic}-3 now: the action waits until one does, and expires if none does in time.`,
  );
  await dialog.getByRole('textbox', { name: /Reason/ }).fill('e2e: the holder is gone');
  await dialog.getByRole('button', { name: 'Skip offset 12' }).click();
  await expect(dialog).toBeHidden();

  // 1. No worker has sent it yet.
  const pending = card(3).getByTestId('pending-action');
  await expect(pending).toContainText(': waiting for a Warden worker to send it.');
  const progress = page.getByTestId('command-progress').filter({ hasText: `skip ${topic}-3` });
  await expect(progress).toContainText('waiting for a Warden worker to send it');

  // 2. A worker relays it; no live instance owns the partition: it waits, until its expiry in the viewer's zone.
  const relayed = await db.query<{ expires_at: Date }>(
    `UPDATE operator_action SET relayed_at = now(), expires_at = now() + interval '5 minutes'
     WHERE group_id = $1 AND status = 'pending' RETURNING expires_at`,
    [group],
  );
  const expiresAt = relayed.rows[0]!.expires_at;
  const clock = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(expiresAt);
  const waiting = `no live instance of ${group} owns ${topic}-3: it waits, and expires at ${clock} unless an owner appears`;
  await expect(pending).toContainText(`${waiting}.`);
  await expect(progress).toContainText(waiting);
  await checkPage(page, 'quarantine-instances', () => expect(pending).toBeVisible());

  // 3. A live instance takes the partition over: the action waits for it to apply it.
  await seedInstance(names.newOwner, { startedAgo: '10 seconds', reportedAgo: '0 seconds', partitions: [3] });
  await expect(pending).toContainText(`sent; waiting for ${instance(names.newOwner)} to apply it.`);
  await expect(progress).toContainText(`sent; waiting for ${instance(names.newOwner)} to apply it`);
});

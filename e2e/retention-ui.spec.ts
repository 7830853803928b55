import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { loadTestConfig } from '../test-support/test-config';
import { uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER } from '../test-support/credentials';
import { expectAccessible, signIn } from './support';

// The retention and record-loss pages in the browser, on the production server and its real database: a sampled
// group whose partitions are at risk of deletion, caught up, below their log start and on a topic whose settings
// were never read shows each in the partition table's Retention column, its two loss episodes in the Records lost
// card, its soonest deletion on the overview (LOST first, and under the LOST filter). A viewer has no Acknowledge
// button; an operator's acknowledgement needs a reason, shows the API's refusal of an episode acknowledged
// meanwhile, and once both are acknowledged the group is no longer LOST and the audit lists who and why.

const groupId = uniqueName('e2e-retention-ui');
const topic = `${groupId}-orders`;
/** A topic without a topic_retention row: the sampler has not read its settings, so its risk is unknown. */
const unreadTopic = `${groupId}-events`;
const groupUrl = `/groups/${encodeURIComponent(groupId)}`;
let db: pg.Client;
/** orders-1 (1,204 records) and orders-2 (100 records, the older episode). */
let lossOnCaughtUp = '';
let lossBelowStart = '';

interface SampleRow {
  topic: string;
  partition: number;
  committed: (back: number) => number;
  logStart: number;
  logEnd: (back: number) => number;
  /** The exact time lag of the newest round (older rounds have none). */
  timeLagMs: number | null;
  arrival: number;
  consumption: number;
}

const SAMPLES: SampleRow[] = [
  // At risk: 2 h 40 min old of 3 h retention, nothing read: deletable from 20 min, gone by 55 min (retention +
  // segment.ms + the check interval, less its age).
  {
    topic,
    partition: 0,
    committed: () => 1000,
    logStart: 900,
    logEnd: (back) => 2000 - back * 50,
    timeLagMs: 9_600_000,
    arrival: 10,
    consumption: 0,
  },
  // Caught up: its loss episode is history, the records it reads now are all read.
  {
    topic,
    partition: 1,
    committed: (back) => 2000 - back * 50,
    logStart: 900,
    logEnd: (back) => 2000 - back * 50,
    timeLagMs: null,
    arrival: 10,
    consumption: 10,
  },
  // Committed below the log start: offsets 800–899 are gone.
  {
    topic,
    partition: 2,
    committed: () => 800,
    logStart: 900,
    logEnd: (back) => 2000 - back * 50,
    timeLagMs: 9_600_000,
    arrival: 10,
    consumption: 0,
  },
  {
    topic: unreadTopic,
    partition: 0,
    committed: () => 1000,
    logStart: 0,
    logEnd: () => 1500,
    timeLagMs: 60_000,
    arrival: 10,
    consumption: 5,
  },
];

test.beforeAll(async () => {
  db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  // One transaction: now() is its start, so every partition of a round has the same sampled_at (a round is
  // the rows of one sampled_at).
  await db.query('BEGIN');
  for (const back of [2, 1, 0]) {
    for (const s of SAMPLES) {
      const committed = s.committed(back);
      const logEnd = s.logEnd(back);
      await db.query(
        `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
           log_end_offset, lag, group_state, exact_time_lag_ms, arrival_rate_per_sec, consumption_rate_per_sec)
         VALUES (now() - make_interval(secs => $4::int * 5), $1, $2, $3, $5, $6, $7, $8, 'Stable', $9, $10, $11)`,
        [
          groupId,
          s.topic,
          s.partition,
          back,
          committed,
          s.logStart,
          logEnd,
          logEnd - committed,
          back === 0 ? s.timeLagMs : null,
          s.arrival,
          s.consumption,
        ],
      );
    }
  }
  await db.query('COMMIT');
  await db.query(
    `INSERT INTO topic_retention (cluster, topic, cleanup_policy, retention_ms, retention_bytes, segment_ms,
       segment_bytes, check_interval_ms, read_at, changed_at)
     VALUES ('default', $1, 'delete', 10800000, -1, 1800000, 1073741824, 300000, now(), now())`,
    [topic],
  );
  const loss = async (partition: number, from: number, to: number, minutesAgo: number) =>
    (
      await db.query<{ id: string }>(
        `INSERT INTO record_loss (cluster, group_id, topic, partition, from_offset, to_offset, count, basis,
           detected_at, updated_at)
         VALUES ('default', $1, $2, $3, $4::bigint, $5::bigint, $5::bigint - $4::bigint + 1, 'below-log-start',
           now() - make_interval(mins => $6::int), now() - make_interval(mins => $6::int))
         RETURNING id::text`,
        [groupId, topic, partition, from, to, minutesAgo],
      )
    ).rows[0]!.id;
  lossOnCaughtUp = await loss(1, 88_100, 89_303, 0);
  lossBelowStart = await loss(2, 800, 899, 1);
});

test.afterAll(async () => {
  await db?.query(`DELETE FROM lag_sample WHERE group_id = $1`, [groupId]);
  await db?.query(`DELETE FROM record_loss WHERE group_id = $1`, [groupId]);
  await db?.query(`DELETE FROM topic_retention WHERE topic = $1`, [topic]);
  await db?.end();
});

const partitionRow = (page: Page, name: string) =>
  page.getByTestId('partition-row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const lossItem = (page: Page, id: string) => page.locator(`[data-testid="record-loss"][data-loss-id="${id}"]`);

test("a viewer sees each partition's retention, the losses and the soonest deletion, and no Acknowledge button", async ({
  page,
}) => {
  await signIn(page, VIEWER, groupUrl);
  await expect(page.getByTestId('group-status')).toHaveText('Records lost');

  const atRisk = partitionRow(page, `${topic}-0`);
  await expect(atRisk.getByTestId('retention-risk')).toHaveText('deleted from 20 min, at the latest 55 min');
  await expect(atRisk.getByTestId('retention-risk')).toHaveAttribute(
    'title',
    new RegExp(
      `^In 20 min to 55 min records of ${topic}-0 start being deleted unread\\. Time retention: oldest unread record 2 h 40 min old`,
    ),
  );
  await expect(atRisk).toHaveClass(/row-at-risk/);
  await expect(partitionRow(page, `${topic}-1`).getByTestId('retention-risk')).toHaveText('caught up');
  await expect(partitionRow(page, `${topic}-1`)).toHaveClass(/row-lost/);
  await expect(partitionRow(page, `${topic}-1`).getByTestId('status-term')).toHaveText('(Burrow: OK)');
  await expect(partitionRow(page, `${topic}-2`).getByTestId('retention-risk')).toHaveText('lost: 100 records');
  const unknown = partitionRow(page, `${unreadTopic}-0`).getByTestId('retention-risk');
  await expect(unknown).toHaveText('unknown');
  await expect(unknown).toHaveAttribute('title', 'Retention risk unknown: not read yet');

  // Worst first: the lost records, the soonest deletion, the unknown, then the rest.
  await page.getByTestId('sort-retention').click();
  await expect(page.getByTestId('partition-row').getByRole('rowheader')).toHaveText([
    `${topic}-2`,
    `${topic}-0`,
    `${unreadTopic}-0`,
    `${topic}-1`,
  ]);

  const card = page.getByTestId('record-losses-card');
  await expect(card.getByTestId('record-losses-count')).toHaveText('2 episodes · 2 not acknowledged');
  const newest = lossItem(page, lossOnCaughtUp);
  await expect(newest.getByTestId('loss-summary')).toHaveText(
    /^1,204 records \(offsets 88,100–89,303\) deleted unread, first seen \d\d:\d\d UTC$/,
  );
  await expect(newest.getByTestId('loss-state')).toHaveText('open');
  await expect(newest.getByTestId('loss-acknowledged')).toHaveText('not acknowledged');
  await expect(lossItem(page, lossBelowStart).getByTestId('loss-summary')).toHaveText(
    /^100 records \(offsets 800–899\) deleted unread/,
  );
  await expect(card.getByTestId('loss-viewer-note')).toBeVisible();
  await expect(page.getByTestId('record-losses-card').getByRole('button', { name: /Acknowledge/ })).toHaveCount(0);

  const retention = page.getByTestId('capacity-retention');
  await expect(retention.getByTestId('capacity-retention-statement')).toContainText(
    `records of ${topic}-0 start being deleted unread`,
  );
  await expectAccessible(page, 'the group page with record losses');

  await page.goto('/');
  await expect(page.getByTestId('group-row').first().getByTestId('group-status')).toHaveText('Records lost');
  await page.getByLabel('Filter groups by status').selectOption('LOST');
  await expect(page).toHaveURL(/[?&]status=LOST/);
  const row = page.locator(`[data-testid="group-row"][data-group-id="${groupId}"]`);
  await expect(row.getByTestId('group-status')).toHaveText('Records lost');
  await expect(row.getByTestId('soonest-deletion')).toHaveText(`${topic}-0 in 20 min`);
  await expect(row).toContainText('1 partition not judged');
});

test('an operator acknowledges with a reason; a refusal shows in the dialog; the group leaves LOST and the audit lists both', async ({
  page,
  request,
}) => {
  await signIn(page, OPERATOR, groupUrl);
  const dialog = page.getByTestId('loss-acknowledge-dialog');

  // Without a reason nothing is sent; acknowledged meanwhile by someone else, the API's refusal shows in place.
  await lossItem(page, lossBelowStart)
    .getByRole('button', { name: /Acknowledge/ })
    .click();
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('confirm-loss-acknowledge').click();
  await expect(dialog.getByTestId('loss-acknowledge-problem')).toHaveText(
    'reason: is required: say why, for the audit log',
  );
  const meanwhile = await request.post(
    `/api/groups/${encodeURIComponent(groupId)}/losses/${lossBelowStart}/acknowledge`,
    { headers: bearer(OPERATOR_TOKEN), data: { reason: 'reset past them on purpose' } },
  );
  expect(meanwhile.status()).toBe(200);
  await dialog.getByTestId('loss-acknowledge-reason').fill('they are gone');
  await dialog.getByTestId('confirm-loss-acknowledge').click();
  await expect(dialog.getByTestId('loss-acknowledge-problem')).toHaveText(
    new RegExp(`^record loss #${lossBelowStart} is already acknowledged by token:e2e-bot at `),
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(lossItem(page, lossBelowStart).getByTestId('loss-acknowledgement')).toHaveText(
    /^acknowledged by token:e2e-bot at .+: reset past them on purpose$/,
  );
  await expect(page.getByTestId('group-status')).toHaveText('Records lost');

  const newest = lossItem(page, lossOnCaughtUp);
  await newest.getByRole('button', { name: /Acknowledge/ }).click();
  await dialog.getByTestId('loss-acknowledge-reason').fill('replayed from the producer');
  await dialog.getByTestId('confirm-loss-acknowledge').click();
  await expect(dialog).toHaveCount(0);
  await expect(newest.getByTestId('loss-acknowledged')).toHaveText('acknowledged');
  await expect(newest.getByTestId('loss-acknowledgement')).toHaveText(
    new RegExp(`^acknowledged by ${OPERATOR.name} at .+: replayed from the producer$`),
  );
  await expect(page.getByTestId('record-losses-card').getByTestId('record-losses-count')).toHaveText(
    '2 episodes · all acknowledged',
  );
  await expect(page.getByTestId('record-losses-card').getByRole('button', { name: /Acknowledge/ })).toHaveCount(0);
  await expect(page.getByTestId('group-status')).not.toHaveText('Records lost');
  await expect(partitionRow(page, `${topic}-1`)).not.toHaveClass(/row-lost/);

  await page.goto('/audit');
  const rows = page.getByTestId('loss-audit-row').filter({ hasText: groupId });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'replayed from the producer' })).toContainText(OPERATOR.name);
  await expect(rows.filter({ hasText: 'reset past them on purpose' })).toContainText('token:e2e-bot');
});

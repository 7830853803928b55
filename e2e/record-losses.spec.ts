import pg from 'pg';
import { expect, request as requests, test } from '@playwright/test';
import { loadTestConfig } from '../test-support/test-config';
import { uniqueName } from '../test-support/integration';
import { bearer, OPERATOR, OPERATOR_TOKEN, VIEWER_TOKEN } from '../test-support/credentials';
import { ZApiError } from '../lib/schemas/common';
import { ZGroupDetail } from '../lib/schemas/groups';
import { ZAuditResponse } from '../lib/schemas/operator-actions';
import { ZRecordLossOfGroup } from '../lib/schemas/record-losses';

// The acknowledge route on the production server and its real database: a sampled group whose partition lost
// records reads LOST with its retention risk; a viewer, another Origin, a missing reason and an unknown loss are
// refused and change nothing; an operator's acknowledgement is recorded once (a second is 409), ends LOST and
// is listed by the audit with its reason.

const groupId = uniqueName('e2e-losses');
const topic = `${groupId}-orders`;
let db: pg.Client;
let lossId = '';

test.beforeAll(async () => {
  db = new pg.Client({ connectionString: loadTestConfig().DATABASE_URL });
  await db.connect();
  // Both partitions of a round share its time (now() would differ between the statements): a round is one time.
  const newestRound = Date.now();
  for (const back of [2, 1, 0]) {
    for (const partition of [0, 1]) {
      await db.query(
        `INSERT INTO lag_sample (sampled_at, group_id, topic, partition, committed_offset, log_start_offset,
           log_end_offset, lag, group_state, exact_time_lag_ms, arrival_rate_per_sec, consumption_rate_per_sec)
         VALUES ($6, $1, $2, $3, 1000, 900, 2000 - $4::int * 50, 1000 - $4::int * 50, 'Stable', $5, 10, 0)`,
        [groupId, topic, partition, back, back === 0 ? 9_600_000 : null, new Date(newestRound - back * 5_000)],
      );
    }
  }
  await db.query(
    `INSERT INTO topic_retention (cluster, topic, cleanup_policy, retention_ms, retention_bytes, segment_ms,
       segment_bytes, check_interval_ms, read_at, changed_at)
     VALUES ('default', $1, 'delete', 10800000, -1, 1800000, 1073741824, 300000, now(), now())`,
    [topic],
  );
  const loss = await db.query<{ id: string }>(
    `INSERT INTO record_loss (cluster, group_id, topic, partition, from_offset, to_offset, count, basis, detected_at,
       updated_at)
     VALUES ('default', $1, $2, 1, 88100, 89303, 1204, 'below-log-start', now(), now()) RETURNING id::text`,
    [groupId, topic],
  );
  lossId = loss.rows[0]!.id;
});

test.afterAll(async () => {
  await db?.query(`DELETE FROM lag_sample WHERE group_id = $1`, [groupId]);
  await db?.query(`DELETE FROM record_loss WHERE group_id = $1`, [groupId]);
  await db?.query(`DELETE FROM topic_retention WHERE topic = $1`, [topic]);
  await db?.end();
});

/** How the audit names the operator's API token (test-support/credentials.ts WARDEN_API_TOKENS). */
const TOKEN_OPERATOR = 'token:e2e-bot';

const ackUrl = (id: string) => `/api/groups/${encodeURIComponent(groupId)}/losses/${id}/acknowledge`;
const acknowledgement = async () =>
  (await db.query(`SELECT acknowledged_by, acknowledge_reason FROM record_loss WHERE id = $1`, [lossId])).rows[0];

test('an operator acknowledges records lost; the group is no longer LOST and the audit says who, when and why', async ({
  request,
}) => {
  const detail = async () =>
    ZGroupDetail.parse(
      await (await request.get(`/api/groups/${encodeURIComponent(groupId)}`, { headers: bearer(VIEWER_TOKEN) })).json(),
    );
  const before = await detail();
  expect(before.status).toBe('LOST');
  expect(before.partitions[1]).toMatchObject({
    status: 'LOST',
    statusReason: expect.stringMatching(/^1,204 records \(offsets 88,100–89,303\) deleted unread, first seen/),
  });
  expect(before.partitions[0]!.retentionRisk).toMatchObject({ kind: 'at-risk', earliestMs: 1_200_000 });
  expect(before.losses).toEqual([expect.objectContaining({ id: lossId, acknowledged: false, open: true })]);

  const refused = async (response: Awaited<ReturnType<typeof request.post>>, status: number) => {
    expect(response.status()).toBe(status);
    return ZApiError.parse(await response.json());
  };
  await refused(await request.post(ackUrl(lossId), { headers: bearer(VIEWER_TOKEN), data: { reason: 'x' } }), 403);
  await refused(
    await request.post(ackUrl(lossId), {
      headers: { cookie: await operatorCookie(), origin: 'https://evil.example' },
      data: { reason: 'x' },
    }),
    403,
  );
  expect(
    await refused(await request.post(ackUrl(lossId), { headers: bearer(OPERATOR_TOKEN), data: {} }), 400),
  ).toMatchObject({ field: 'reason' });
  await refused(
    await request.post(ackUrl('999999999'), { headers: bearer(OPERATOR_TOKEN), data: { reason: 'x' } }),
    404,
  );
  expect(await acknowledgement()).toEqual({ acknowledged_by: null, acknowledge_reason: null });

  const response = await request.post(ackUrl(lossId), {
    headers: bearer(OPERATOR_TOKEN),
    data: { reason: 'replayed from the producer' },
  });
  expect(response.status()).toBe(200);
  expect(ZRecordLossOfGroup.parse(await response.json())).toMatchObject({
    id: lossId,
    groupId,
    acknowledged: true,
    acknowledgedBy: TOKEN_OPERATOR,
    acknowledgeReason: 'replayed from the producer',
  });
  expect(
    (
      await refused(
        await request.post(ackUrl(lossId), { headers: bearer(OPERATOR_TOKEN), data: { reason: 'again' } }),
        409,
      )
    ).error,
  ).toMatch(new RegExp(`already acknowledged by ${TOKEN_OPERATOR}`));

  const after = await detail();
  expect(after.status).not.toBe('LOST');
  expect(after.partitions[1]!.status).not.toBe('LOST');
  const audit = ZAuditResponse.parse(
    await (
      await request.get(`/api/audit?groupId=${encodeURIComponent(groupId)}`, { headers: bearer(VIEWER_TOKEN) })
    ).json(),
  );
  expect(audit.lossAcknowledgements).toEqual([
    expect.objectContaining({
      id: lossId,
      acknowledgedBy: TOKEN_OPERATOR,
      acknowledgeReason: 'replayed from the producer',
    }),
  ]);
});

/** A session cookie of the operator, signed in through the API from a context of its own (it keeps no cookie). */
async function operatorCookie(): Promise<string> {
  const own = await requests.newContext({ baseURL: `http://127.0.0.1:${loadTestConfig().UI_PORT}` });
  try {
    const response = await own.post('/api/auth/sign-in', {
      headers: { origin: `http://127.0.0.1:${loadTestConfig().UI_PORT}` },
      data: { name: OPERATOR.name, password: OPERATOR.password },
    });
    expect(response.status()).toBe(200);
    const cookie = /^(warden_session=[^;]+)/.exec(response.headers()['set-cookie'] ?? '')?.[1];
    if (!cookie) throw new Error('the sign-in set no session cookie');
    return cookie;
  } finally {
    await own.dispose();
  }
}

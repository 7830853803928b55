import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { summarizeGroups } from '../groups/summarize-groups';
import { acknowledgeRecordLoss } from './acknowledge-record-loss';
import { ApiError } from './api-error';
import { getGroupAdvice } from './get-group-advice';
import { getGroupDetail } from './get-group-detail';
import { listAudit } from './list-audit';

// Retention risk and record losses on the read side, from seeded rows on real Postgres: the group's detail (each
// partition's risk, LOST, the losses listed), the overview's summary, the capacity card's retention verdict, the
// acknowledgement (its refusals, its audit row, a loss that grows afterwards) and the audit listing.

let db: Database;
const NOW = Date.now() - 1_000;
const EVERY_MS = 5_000;
const ROUNDS = 61;
const HOUR = 3_600_000;
const options = { timeLagObjectiveMs: null, rateWindowMs: 300_000, targetCatchUpSec: 300 };

beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

/**
 * Three partitions over five minutes of rounds: 0 and 1 read as fast as records arrive; 2 stopped at offset
 * 1,000 while 10 records/s arrive, its oldest unread record 2 h 40 min old at the newest round (the sampler's
 * exact time lag), of a topic kept 3 h.
 */
async function seedGroup(groupId: string, topic: string) {
  const data = [];
  for (let round = 0; round < ROUNDS; round++) {
    const back = ROUNDS - 1 - round;
    const newest = back === 0;
    for (let partition = 0; partition < 3; partition++) {
      const logEnd = 100_000 - back * 50;
      const committed = partition === 2 ? 1_000 : logEnd - 20;
      data.push({
        sampledAt: new Date(NOW - back * EVERY_MS),
        groupId,
        topic,
        partition,
        committedOffset: BigInt(committed),
        logStartOffset: 0n,
        logEndOffset: BigInt(logEnd),
        lag: BigInt(logEnd - committed),
        groupState: 'Stable',
        memberClientId: `consumer-${partition}`,
        memberHost: '/10.0.0.9',
        ...(newest && partition === 2
          ? { exactTimeLagMs: BigInt(2 * HOUR + 40 * 60_000), arrivalRatePerSec: 10, consumptionRatePerSec: 0 }
          : {}),
      });
    }
  }
  await db.lagSample.createMany({ data });
}

const settingsRow = (topic: string) => ({
  cluster: 'default',
  topic,
  cleanupPolicy: 'delete',
  retentionMs: BigInt(3 * HOUR),
  retentionBytes: -1n,
  segmentMs: BigInt(30 * 60_000),
  segmentBytes: 1_073_741_824n,
  checkIntervalMs: 300_000n,
  readError: null,
  recordBytes: null,
  readAt: new Date(NOW),
  changedAt: new Date(NOW),
});

const lossRow = (groupId: string, topic: string, fields: Record<string, unknown> = {}) => ({
  cluster: 'default',
  groupId,
  topic,
  partition: 1,
  fromOffset: 88_100n,
  toOffset: 89_303n,
  count: 1_204n,
  basis: 'below-log-start',
  detectedAt: new Date(NOW - 60_000),
  updatedAt: new Date(NOW - 60_000),
  ...fields,
});

/** The refusal of `promise` as [status, message], or null when it resolves. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof ApiError ? [error.status, error.message] : String(error)),
  );

describe('retention risk and record losses', () => {
  const groupId = `losses-${randomUUID().slice(0, 8)}`;
  const topic = `${groupId}-orders`;
  const unreadGroup = `${groupId}-unread`;
  let lossId: bigint;

  beforeAll(async () => {
    await seedGroup(groupId, topic);
    await seedGroup(unreadGroup, `${unreadGroup}-orders`);
    await db.topicRetention.create({ data: settingsRow(topic) });
    lossId = (await db.recordLoss.create({ data: lossRow(groupId, topic) })).id;
    await db.recordLoss.createMany({
      data: [
        // Acknowledged three days ago: listed, not LOST.
        lossRow(groupId, topic, {
          partition: 0,
          fromOffset: 10n,
          toOffset: 19n,
          count: 10n,
          detectedAt: new Date(NOW - 3 * 24 * HOUR),
          updatedAt: new Date(NOW - 3 * 24 * HOUR),
          endedAt: new Date(NOW - 3 * 24 * HOUR + 60_000),
          acknowledgedAt: new Date(NOW - 3 * 24 * HOUR + 120_000),
          acknowledgedBy: 'bob',
          acknowledgeReason: 'replayed from the source',
          acknowledgedToOffset: 19n,
        }),
        // Acknowledged and ended ten days ago: no longer listed.
        lossRow(groupId, topic, {
          partition: 0,
          detectedAt: new Date(NOW - 10 * 24 * HOUR),
          updatedAt: new Date(NOW - 10 * 24 * HOUR),
          endedAt: new Date(NOW - 10 * 24 * HOUR),
          acknowledgedAt: new Date(NOW - 10 * 24 * HOUR),
          acknowledgedBy: 'bob',
          acknowledgeReason: 'old',
          acknowledgedToOffset: 89_303n,
        }),
        // Another cluster's group of the same name.
        { ...lossRow(groupId, topic), cluster: 'elsewhere' },
      ],
    });
  });

  it("GET /api/groups/{id}: each partition's retention risk, LOST over STOP, and the group's losses", async () => {
    const detail = await getGroupDetail(db, 'default', groupId, { ...options, nowMs: NOW });
    expect(detail.status).toBe('LOST');
    expect(detail.statusReasons[0]).toMatch(
      new RegExp(
        `^${topic}-1 LOST: 1,204 records \\(offsets 88,100–89,303\\) deleted unread, first seen \\d\\d:\\d\\d UTC$`,
      ),
    );
    expect(detail.statusReasons[1]).toMatch(new RegExp(`^${topic}-2 STOP: no commit for`));
    const [p0, p1, p2] = detail.partitions;
    // Read as fast as records arrive, 20 behind at each commit: Burrow's WARN (the lag never decreased).
    expect(p1).toMatchObject({ status: 'LOST', burrowStatus: 'WARN' });
    expect(p1!.burrowReason).toMatch(/^lag grew at each of \d+ commits, to 20$/);
    expect(p1!.statusReason).toMatch(/^1,204 records \(offsets 88,100–89,303\) deleted unread, first seen/);
    expect(p2).toMatchObject({ status: 'STOP', burrowStatus: 'STOP' });
    expect(p2!.retentionRisk).toMatchObject({
      kind: 'at-risk',
      earliestMs: 20 * 60_000,
      latestMs: 55 * 60_000,
      earliestAt: new Date(NOW + 20 * 60_000).toISOString(),
      rules: ['time'],
      alsoCompacted: false,
      summary: `In 20 min to 55 min records of ${topic}-2 start being deleted unread`,
    });
    expect(p0!.retentionRisk.kind).not.toBe('at-risk');
    expect(detail).toMatchObject({
      soonestDeletion: { topic, partition: 2, earliestMs: 20 * 60_000 },
      retentionAtRiskPartitions: 1,
      unacknowledgedLosses: 1,
    });
    expect(detail.losses.map((l) => [l.partition, l.fromOffset, l.toOffset, l.acknowledged, l.open])).toEqual([
      [1, '88100', '89303', false, true],
      [0, '10', '19', true, false],
    ]);
    expect(detail.losses[1]).toMatchObject({ acknowledgedBy: 'bob', acknowledgeReason: 'replayed from the source' });

    // Its topic's settings never read: unknown, never safe.
    const unread = await getGroupDetail(db, 'default', unreadGroup, { ...options, nowMs: NOW });
    expect(unread.partitions[2]!.retentionRisk).toEqual({
      kind: 'unknown',
      reason: 'not read yet',
      summary: 'retention risk unknown: not read yet',
    });
    expect(unread).toMatchObject({ status: 'ERR', retentionUnknownPartitions: 3, soonestDeletion: null });
  });

  it('the overview carries LOST and the soonest deletion; the card says when and what the plan does about it', async () => {
    const summaries = await summarizeGroups(db, ['default'], { ...options, now: new Date(NOW + 1_000) });
    expect(summaries.find((g) => g.groupId === groupId)).toMatchObject({
      status: 'LOST',
      unacknowledgedLosses: 1,
      soonestDeletion: { topic, partition: 2 },
    });
    const advice = await getGroupAdvice(db, 'default', groupId, options);
    expect(advice.retention?.partitions.map((p) => [p.topic, p.partition, p.fromOffset])).toEqual([[topic, 2, '1000']]);
    expect(advice.retention?.statement).toMatch(
      new RegExp(
        `^In 20 min to 55 min records of ${topic}-2 start being deleted unread \\(around \\d\\d:\\d\\d UTC\\)\\.`,
      ),
    );
  });

  it('an acknowledgement: refused for another group or cluster and twice; recorded, audited, undone by a new loss', async () => {
    expect(
      await refusal(acknowledgeRecordLoss(db, { cluster: 'default', groupId: unreadGroup, lossId }, 'x', 'alice')),
    ).toEqual([404, `record loss #${lossId} of group "${unreadGroup}" not found`]);
    expect(await refusal(acknowledgeRecordLoss(db, { cluster: 'elsewhere', groupId, lossId }, 'x', 'alice'))).toEqual([
      404,
      `record loss #${lossId} of group "${groupId}" not found in cluster "elsewhere"`,
    ]);

    const at = new Date(NOW + 2_000);
    const acknowledged = await acknowledgeRecordLoss(
      db,
      { cluster: 'default', groupId, lossId },
      'replayed from the producer',
      'alice',
      at,
    );
    expect(acknowledged).toMatchObject({
      cluster: 'default',
      groupId,
      id: lossId.toString(),
      acknowledged: true,
      acknowledgedBy: 'alice',
      acknowledgedAt: at.toISOString(),
      acknowledgeReason: 'replayed from the producer',
      acknowledgedToOffset: '89303',
    });
    expect(await refusal(acknowledgeRecordLoss(db, { cluster: 'default', groupId, lossId }, 'again', 'bob'))).toEqual([
      409,
      `record loss #${lossId} is already acknowledged by alice at ${at.toISOString()}`,
    ]);
    const after = await getGroupDetail(db, 'default', groupId, { ...options, nowMs: NOW });
    expect(after.status).toBe('ERR');
    expect(after.partitions[1]!.status).toBe('WARN');

    const audit = await listAudit(db, { groupId });
    expect(audit.lossAcknowledgements.map((a) => [a.id, a.acknowledgedBy, a.acknowledgeReason])).toEqual([
      [lossId.toString(), 'alice', 'replayed from the producer'],
      [expect.any(String), 'bob', 'replayed from the source'],
      [expect.any(String), 'bob', 'old'],
    ]);
    expect((await listAudit(db, { kind: 'access' })).lossAcknowledgements).toEqual([]);
    expect((await listAudit(db, { cluster: 'elsewhere', groupId })).lossAcknowledgements).toEqual([]);
    expect((await listAudit(db, { kind: 'actions' })).lossAcknowledgements.map((a) => a.id)).toContain(
      lossId.toString(),
    );

    // The sampler extends the episode past what was acknowledged: LOST again, and it can be acknowledged again.
    await db.recordLoss.update({ where: { id: lossId }, data: { toOffset: 89_400n, count: 1_301n } });
    const grown = await getGroupDetail(db, 'default', groupId, { ...options, nowMs: NOW });
    expect(grown.partitions[1]!.status).toBe('LOST');
    expect(grown.losses[0]).toMatchObject({
      acknowledged: false,
      acknowledgedBy: 'alice',
      acknowledgedToOffset: '89303',
    });
    const again = await acknowledgeRecordLoss(db, { cluster: 'default', groupId, lossId }, 'still fine', 'bob');
    expect(again).toMatchObject({ acknowledged: true, acknowledgedBy: 'bob', acknowledgedToOffset: '89400' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { ZLagSeriesQuery } from '../schemas/groups';
import { DEFAULT_REBALANCE_PAUSE_SEC } from '../advisor/rebalance-pause';
import { getCommand } from './get-command';
import { getGroupAdvice } from './get-group-advice';
import { getGroupDetail } from './get-group-detail';
import { getLagSeries, resolveSeriesWindow } from './get-lag-series';
import { listAudit } from './list-audit';
import { summarizeGroups } from '../groups/summarize-groups';
import { listQuarantines } from './list-quarantines';
import { listRebalances } from './list-rebalances';
import { rollUpTenMinutes } from '../../worker/sampler/retention';

// The read side of the API on real Postgres, from seeded samples: the SQL (date_bin buckets, lateral joins,
// DISTINCT ON) and the analysis over it. Groups get unique names; other tests' rows are simply ignored.

let db: Database;
const NOW = Date.now() - 1_000;
const EVERY_MS = 5_000;
const ROUNDS = 61; // five minutes of 5-second rounds

beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await db?.$disconnect();
});

const options = { timeLagObjectiveMs: null, rateWindowMs: 300_000, targetCatchUpSec: 300 };

/**
 * The short-of-capacity group in stored samples: 6 partitions receiving 200/s each, 3 members each committing 150/s on each of
 * its 2 partitions, 30,000 behind each at the newest round.
 */
async function seedFallingBehindGroup(groupId: string, topic: string) {
  const data = [];
  for (let round = 0; round < ROUNDS; round++) {
    const back = ROUNDS - 1 - round;
    const sampledAt = new Date(NOW - back * EVERY_MS);
    for (let partition = 0; partition < 6; partition++) {
      const logEnd = 10_000_000 - back * 200 * 5;
      const committed = 10_000_000 - 30_000 - back * 150 * 5;
      data.push({
        sampledAt,
        groupId,
        topic,
        partition,
        committedOffset: BigInt(committed),
        logStartOffset: 0n,
        logEndOffset: BigInt(logEnd),
        lag: BigInt(logEnd - committed),
        groupState: 'Stable',
        memberClientId: `consumer-${Math.floor(partition / 2)}`,
        memberHost: '/10.0.0.7',
        groupProtocol: 'RoundRobinAssigner',
      });
    }
  }
  await db.lagSample.createMany({ data });
}

describe('group reads from stored samples', () => {
  const groupId = `read-${randomUUID().slice(0, 8)}`;
  const topic = `${groupId}-orders`;

  // The same load with nothing quarantined: the short-of-capacity group exactly.
  const plainGroupId = `${groupId}-plain`;

  beforeAll(async () => {
    await seedFallingBehindGroup(groupId, topic);
    await seedFallingBehindGroup(plainGroupId, `${plainGroupId}-orders`);
    await db.partitionQuarantine.create({
      data: {
        groupId,
        topic,
        partition: 4,
        offset: 9_970_000n,
        reason: 'result key missing',
        errorClass: 'missing-result-key',
        since: new Date(NOW - 2 * 3_600_000),
        attempts: 0,
        recordKey: 'k',
        recordPreview: '{"a":"<script>alert(1)</script>"}',
        recordHeaders: { 'content-type': 'application/json', empty: null },
        recordTimestamp: new Date(NOW - 3 * 3_600_000),
      },
    });
    await db.consumerPartitionState.create({
      data: {
        groupId,
        topic,
        partition: 0,
        instanceId: 'warden@host/1',
        sampledAt: new Date(NOW),
        watermark: 9_970_000n,
        highestCompleted: 9_970_040n,
        inFlight: 16,
        completedUncommitted: 30,
        buffered: 100,
        bufferedBytes: 4_096,
        oldestUnfinishedOffset: 9_970_001n,
        oldestUnfinishedAgeMs: 1_200,
        paused: false,
      },
    });
    await db.rebalanceEvent.create({
      data: {
        groupId,
        source: 'describe-groups',
        startedAt: new Date(NOW - 600_000),
        endedAt: new Date(NOW - 590_000),
        durationMs: 10_000,
        durationIsBound: true,
        membersBefore: [{ clientId: 'consumer-0', clientHost: '/10.0.0.7' }],
        membersAfter: [
          'consumer-0 /10.0.0.7',
          { memberId: 'm-2' },
          { clientId: 'c', clientHost: '/h', memberId: 'c-0123456789' },
          42,
        ],
        partitionsMoved: 3,
        trigger: 'join',
      },
    });
  });

  it('GET /api/groups: status, totals, worst time lag, trend, quarantines, last rebalance', async () => {
    const groups = await summarizeGroups(db, ['default'], { ...options, now: new Date(NOW + 1_000) });
    const group = groups.find((g) => g.groupId === groupId);
    expect(group).toMatchObject({
      state: 'Stable',
      protocol: 'RoundRobinAssigner',
      status: 'QUARANTINED',
      totalLag: 180_000,
      partitionsWithoutCommit: 0,
      partitionCount: 6,
      members: 3,
      quarantinedPartitions: 1,
      lastRebalance: { durationMs: 10_000, durationIsBound: true },
    });
    // 30,000 behind at 200/s arriving: the waiting record was produced 150 s before the newest round.
    expect(group?.worstTimeLag).toMatchObject({ kind: 'interpolated', basis: 'lag-samples', ms: 150_000 });
    expect(group?.trend).toHaveLength(30);
    expect(group?.trend.at(-1)?.totalLag).toBe(180_000);
    expect(group?.statusReasons[0]).toMatch(/-4 is quarantined/);
  });

  it('GET /api/groups/{groupId}: per-partition time lag, rates, owner, quarantine and commit prefix', async () => {
    const detail = await getGroupDetail(db, 'default', groupId, options);
    expect(detail.isWardenConsumer).toBe(true);
    expect(detail.partitions).toHaveLength(6);
    const p0 = detail.partitions[0]!;
    expect(p0).toMatchObject({
      partition: 0,
      lag: 30_000,
      committedOffset: '9970000',
      timeLag: { ms: 150_000, kind: 'interpolated', basis: 'lag-samples' },
      arrivalRatePerSec: 200,
      consumptionRatePerSec: 150,
      ratesBasis: 'lag-samples',
      owner: { clientId: 'consumer-0', host: '/10.0.0.7' },
      status: 'WARN',
      quarantine: null,
      commitPrefix: {
        watermark: '9970000',
        inFlight: 16,
        completedUncommitted: 30,
        oldestUnfinishedOffset: '9970001',
        oldestUnfinishedAgeMs: 1_200,
      },
    });
    expect(detail.partitions[4]?.quarantine).toMatchObject({ offset: '9970000', errorClass: 'missing-result-key' });
    expect(detail.memberList.map((m) => m.partitions.length)).toEqual([2, 2, 2]);
  });

  it('GET /api/groups/{groupId} is 404 for a group never sampled', async () => {
    await expect(getGroupDetail(db, 'default', 'no-such-group', options)).rejects.toMatchObject({ status: 404 });
  });

  it('GET /api/groups/{groupId}/advice: the short-of-capacity group measured from samples', async () => {
    // A 5.5-minute target: 6 consumers meet it once the change's rebalance pause is counted (below).
    const advice = await getGroupAdvice(db, 'default', plainGroupId, { ...options, targetCatchUpSec: 330 });
    expect(advice.consumers).toBe(3);
    expect(advice.perConsumerRate).toMatchObject({ isLowerBound: false });
    expect(advice.planState).toBe('planned');
    expect(advice.perConsumerRate.ratePerSec).toBeCloseTo(300, 6);
    expect(advice.plan?.recommendedConsumers).toBe(6);
    // No rebalance on record: the change to 6 costs the default pause first, while 200/s keep arriving on each
    // partition; then each of the 6 drains its 30,000 and the pause's arrivals at 300 - 200 = 100/s.
    expect(advice.rebalancePause).toMatchObject({ sec: DEFAULT_REBALANCE_PAUSE_SEC, basis: 'default' });
    const pause = DEFAULT_REBALANCE_PAUSE_SEC;
    expect(advice.plan?.catchUpSec).toBeCloseTo(pause + (30_000 + 200 * pause) / 100, 6);
    expect(advice.plan?.summary).toMatch(
      /^Scale consumers to 6 to catch up in 5 min 15 s\. At the current 3 it never catches up\./,
    );
    expect(advice.plan?.catchUpSecByConsumers).toHaveLength(6);
    expect(advice.advice.map((a) => a.id)).toContain('eager-protocol');

    // With partition 4 held, it is left out of the plan, and the long quarantine is advice of its own.
    const held = await getGroupAdvice(db, 'default', groupId, options);
    expect(held.notes).toContain(
      '1 quarantined partition is left out of the plan: it waits for an operator, not for more consumers.',
    );
    expect(held.plan?.catchUpSecByConsumers).toHaveLength(5);
    expect(held.advice.find((a) => a.id === `quarantine-age:${topic}-4`)?.severity).toBe('critical');
  });

  it('GET /api/groups/{groupId}/advice: a rebalance every Warden member measured counts once', async () => {
    const churnGroup = `${groupId}-churn`;
    await seedFallingBehindGroup(churnGroup, `${churnGroup}-orders`);
    const row = (source: string, startMs: number, endMs: number) => ({
      groupId: churnGroup,
      source,
      startedAt: new Date(NOW - startMs),
      endedAt: new Date(NOW - endMs),
      durationMs: startMs - endMs,
      durationIsBound: source === 'describe-groups',
      membersBefore: [],
      membersAfter: [],
      trigger: 'unknown',
    });
    // Three rebalances in the hour, each measured by two Warden members and inferred once by the sampler:
    // nine rows, which a row count would report as nine rebalances per hour.
    const rebalancesAgoMs = [3_000_000, 1_800_000, 600_000];
    await db.rebalanceEvent.createMany({
      data: rebalancesAgoMs.flatMap((agoMs) => [
        row('own-consumer', agoMs, agoMs - 2_000),
        row('own-consumer', agoMs - 1_500, agoMs - 2_010),
        row('describe-groups', agoMs + 4_000, agoMs - 5_000),
      ]),
    });
    const advice = await getGroupAdvice(db, 'default', churnGroup, options);
    const rate = advice.advice.find((a) => a.id === 'rebalance-rate');
    expect(rate).toMatchObject({
      severity: 'warning',
      title: '3 rebalances per hour',
      evidence: { rebalancesPerHour: 3 },
    });
  });

  it('GET /api/groups/{groupId}/lag: buckets with the maximum, rates from consecutive buckets, gaps as null', async () => {
    const window = resolveSeriesWindow(
      ZLagSeriesQuery.parse({
        from: new Date(NOW - 120_000).toISOString(),
        to: new Date(NOW + 1).toISOString(),
        step: '30',
      }),
      NOW,
    );
    const series = await getLagSeries(db, 'default', groupId, window, 7);
    expect(series.source).toBe('samples');
    expect(series.stepMs).toBe(30_000);
    expect(series.partitions).toHaveLength(6);
    const p0 = series.partitions[0]!;
    const filled = p0.lag.map((v, i) => ({ v, i })).filter(({ v }) => v !== null);
    expect(filled.length).toBeGreaterThanOrEqual(4);
    // The lag grows 250 per round: each bucket holds its newest (largest) round.
    expect(filled.at(-1)?.v).toBe(30_000);
    const rates = p0.arrivalRatePerSec.filter((v): v is number => v !== null);
    expect(rates.length).toBeGreaterThan(0);
    for (const rate of rates) expect(rate).toBeCloseTo(200, 6);
    for (const rate of p0.consumptionRatePerSec.filter((v): v is number => v !== null))
      expect(rate).toBeCloseTo(150, 6);
    expect(p0.timeLagKind.filter((k) => k !== null)).toContain('interpolated');
    expect(series.totals.lag[filled.at(-1)!.i]).toBe(180_000);
  });

  it('GET /api/groups/{groupId}/lag: steps of whole ten minutes read the ten-minute rollup', async () => {
    // Thirty one-minute rollups as the sampler writes them, then its ten-minute rollup of them; the one-minute
    // rows are removed afterwards, so only the ten-minute table can answer.
    const rolled = `${groupId}-rolled`;
    const t0 = Math.floor((NOW - 2 * 3_600_000) / 600_000) * 600_000;
    await db.lagSample.create({
      data: {
        sampledAt: new Date(t0),
        groupId: rolled,
        topic,
        partition: 0,
        committedOffset: 0n,
        logStartOffset: 0n,
        logEndOffset: 0n,
        lag: 0n,
        groupState: 'Stable',
      },
    });
    await db.lagRollup.createMany({
      data: Array.from({ length: 30 }, (_, m) => ({
        groupId: rolled,
        topic,
        partition: 0,
        bucket: new Date(t0 + m * 60_000),
        maxLag: BigInt(m * 10),
        avgLag: m * 10 - 5,
        maxTimeLagMs: BigInt(m * 1_000),
        lastCommitted: BigInt(1_000 + m * 590),
        lastLogEnd: BigInt(1_000 + m * 600),
        samples: 12,
      })),
    });
    await rollUpTenMinutes(db, new Date(t0), new Date(t0 + 30 * 60_000));
    await db.lagRollup.deleteMany({ where: { groupId: rolled } });
    const query = (step: string) =>
      resolveSeriesWindow(
        ZLagSeriesQuery.parse({ from: new Date(t0).toISOString(), to: new Date(t0 + 30 * 60_000).toISOString(), step }),
        NOW,
      );

    const series = await getLagSeries(db, 'default', rolled, query('600'), 7);
    expect(series.source).toBe('rollup');
    const p0 = series.partitions[0]!;
    // The maximum of each ten minutes, and rates between the newest minutes of consecutive ten minutes.
    expect(p0.lag).toEqual([90, 190, 290]);
    expect(p0.timeLagMs).toEqual([9_000, 19_000, 29_000]);
    expect(p0.arrivalRatePerSec.slice(1)).toEqual([10, 10]);
    for (const rate of p0.consumptionRatePerSec.slice(1)) expect(rate).toBeCloseTo(5_900 / 600, 9);
    // A range starting mid-way through ten minutes still gets its first step, from those whole ten minutes.
    const midway = resolveSeriesWindow(
      ZLagSeriesQuery.parse({
        from: new Date(t0 + 5 * 60_000).toISOString(),
        to: new Date(t0 + 30 * 60_000).toISOString(),
        step: '600',
      }),
      NOW,
    );
    expect((await getLagSeries(db, 'default', rolled, midway, 7)).partitions[0]?.lag).toEqual([90, 190, 290]);
    // A step ten minutes do not divide (15 min) cannot use them: it falls back to the raw samples.
    expect((await getLagSeries(db, 'default', rolled, query('900'), 7)).source).toBe('samples');
    await db.lagRollup10m.deleteMany({ where: { groupId: rolled } });
  });

  it('refuses a series with too many points or a reversed range, naming the field', () => {
    expect(() => resolveSeriesWindow(ZLagSeriesQuery.parse({ range: '7d', step: '1' }), NOW)).toThrow(
      /^step: 1 s gives more than 2000 points/,
    );
    expect(() => ZLagSeriesQuery.parse({ from: '2026-11-29T13:00:00Z', to: '2026-11-29T12:00:00Z' })).toThrow(
      /must be before to/,
    );
    expect(() => ZLagSeriesQuery.parse({ range: '2h' })).toThrow();
  });

  it("GET /api/quarantine: the held record capped and with the partition's log range", async () => {
    const { quarantines } = await listQuarantines(db);
    const q = quarantines.find((x) => x.groupId === groupId);
    expect(q).toMatchObject({
      topic,
      partition: 4,
      offset: '9970000',
      logStartOffset: '0',
      logEndOffset: '10000000',
      owner: { clientId: 'consumer-2' },
      record: {
        key: 'k',
        preview: '{"a":"<script>alert(1)</script>"}',
        headers: { 'content-type': 'application/json', empty: null },
        previewTruncated: false,
      },
      pendingAction: null,
      failures: 1,
      retrying: null,
      history: [],
    });
    // What the hold costs comes from the partition's newest sample: the records behind the commit.
    expect(q?.blocking.records).toBe(30_000);
    // No time lag stored with the samples: estimated from them, as the group page does for the same sample.
    expect(q?.blocking.timeLag).toEqual({ ms: 150_000, kind: 'interpolated', basis: 'lag-samples' });
    // A caller WARDEN_PAYLOAD_ACCESS keeps from payloads gets the card without key, value or headers.
    const hidden = (await listQuarantines(db, { showPayloads: false })).quarantines.find((x) => x.groupId === groupId);
    expect(hidden?.record).toMatchObject({ key: null, preview: null, headers: {}, payloadHidden: true });
    expect(hidden?.reason).toBe(q?.reason);
  });

  it('GET /api/rebalances: newest first, members as display names whatever their stored shape', async () => {
    const { rebalances } = await listRebalances(db, 'default', { groupId });
    expect(rebalances).toHaveLength(1);
    expect(rebalances[0]).toMatchObject({ durationIsBound: true, partitionsMoved: 3, stops: [], trigger: 'join' });
    expect(rebalances[0]?.membersBefore.map((m) => m.name)).toEqual(['consumer-0 10.0.0.7']);
    expect(rebalances[0]?.membersAfter.map((m) => m.name)).toEqual([
      'consumer-0 /10.0.0.7',
      'm-2',
      'c h #456789',
      '42',
    ]);
  });

  it('GET /api/rebalances?cluster=: one cluster only; the same group id on another cluster is another group', async () => {
    const other = `${groupId}-cluster`;
    await db.rebalanceEvent.create({
      data: {
        cluster: other,
        groupId,
        source: 'describe-groups',
        // Ends together with the default cluster's row: merged by group id alone, the two would be one rebalance.
        startedAt: new Date(NOW - 600_000),
        endedAt: new Date(NOW - 590_000),
        durationMs: 10_000,
        durationIsBound: true,
        membersBefore: [],
        membersAfter: [{ clientId: 'elsewhere', clientHost: '/10.9.9.9' }],
        partitionsMoved: 1,
        trigger: 'join',
      },
    });
    const elsewhere = await listRebalances(db, other, { groupId });
    expect(elsewhere.cluster).toBe(other);
    expect(elsewhere.rebalances.map((r) => [r.partitionsMoved, r.membersAfter.map((m) => m.name)])).toEqual([
      [1, ['elsewhere 10.9.9.9']],
    ]);
    const here = await listRebalances(db, 'default', { groupId });
    expect(here.cluster).toBe('default');
    expect(here.rebalances.map((r) => r.partitionsMoved)).toEqual([3]);
    // Every group of the cluster: this group's entries are still the default cluster's only (other test files'
    // groups may have rebalances of any size).
    const everyGroup = (await listRebalances(db, 'default', { limit: 1_000 })).rebalances.filter(
      (r) => r.groupId === groupId,
    );
    expect(everyGroup.map((r) => r.partitionsMoved)).toEqual([3]);
  });

  it("GET /api/audit?cluster=: one cluster's actions and redrives, no access events; without it every cluster", async () => {
    const other = `audit-${randomUUID().slice(0, 8)}`;
    const base = { groupId, topic, partition: 5, reason: 'cluster filter', requestedBy: 'carol', status: 'done' };
    const here = await db.operatorAction.create({ data: { ...base, action: 'resume' } });
    const there = await db.operatorAction.create({ data: { ...base, action: 'skip', cluster: other } });
    const ids = (actions: { id: string }[]) => actions.map((a) => a.id);
    const scoped = await listAudit(db, { cluster: other, limit: 1000 });
    expect(ids(scoped.actions)).toEqual([there.id.toString()]);
    expect(scoped.actions[0]).toMatchObject({ cluster: other, action: 'skip' });
    expect(scoped.access).toEqual([]);
    expect(scoped.redrives.every((job) => job.cluster === other)).toBe(true);
    const defaults = await listAudit(db, { cluster: 'default', groupId, limit: 1000 });
    expect(ids(defaults.actions)).toContain(here.id.toString());
    expect(ids(defaults.actions)).not.toContain(there.id.toString());
    const every = await listAudit(db, { groupId, limit: 1000 });
    expect(ids(every.actions)).toEqual(expect.arrayContaining([here.id.toString(), there.id.toString()]));
    await db.operatorAction.deleteMany({ where: { id: { in: [here.id, there.id] } } });
  });

  it('GET /api/audit and /api/commands/{id}: newest first, with the folded state', async () => {
    const base = { groupId, topic, partition: 4, reason: 'why', requestedBy: 'alice' };
    const first = await db.operatorAction.create({
      data: {
        ...base,
        action: 'skip',
        status: 'done',
        outcome: 'skipped offset 9970000',
        requestedAt: new Date(NOW - 5_000),
      },
    });
    const second = await db.operatorAction.create({
      data: { ...base, action: 'resume', status: 'pending', requestedAt: new Date(NOW) },
    });
    const { actions } = await listAudit(db, { groupId });
    expect(actions.map((a) => a.id)).toEqual([second.id.toString(), first.id.toString()]);
    expect(await getCommand(db, first.id.toString())).toMatchObject({
      state: 'applied',
      message: 'skipped offset 9970000',
    });
    // Every action carries the id its command has on the control topic.
    expect(actions[0]?.commandId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(actions[0]?.commandId).not.toBe(actions[1]?.commandId);
    expect(await getCommand(db, second.id.toString())).toMatchObject({
      state: 'pending',
      relayedAt: null,
      message: 'waiting for a Warden worker to send it',
    });
    // A worker relayed it: it waits for the owner, until its expiry.
    const expiresAt = new Date(NOW + 300_000);
    await db.operatorAction.update({ where: { id: second.id }, data: { relayedAt: new Date(NOW), expiresAt } });
    expect(await getCommand(db, second.id.toString())).toMatchObject({
      state: 'pending',
      relayedAt: new Date(NOW).toISOString(),
      expiresAt: expiresAt.toISOString(),
      message: `sent; waiting for the instance that owns ${topic}-4 to apply it (it expires at ${expiresAt.toISOString()})`,
    });
    await expect(getCommand(db, '999999999999')).rejects.toMatchObject({ status: 404 });
    const { quarantines } = await listQuarantines(db);
    expect(quarantines.find((q) => q.groupId === groupId)?.pendingAction?.id).toBe(second.id.toString());
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { createTopic, eventually, testKafka, uniqueName } from '../../test-support/integration';
import { startPipelineConsumer } from '../../test-support/pipeline-consumer';
import type { LagSampler } from '../../worker/sampler/lag-sampler';
import { testSampler } from '../../test-support/test-sampler';
import { getGroupAdvice } from './get-group-advice';
import { getGroupDetail } from './get-group-detail';
import { listRebalances } from './list-rebalances';

// The rebalance history end to end on the real broker and Postgres: two Warden consumers, each reporting its
// measured stops over the control plane (stored by the worker's ingester, named as the group names the member),
// and the sampler inferring the same changes from describeGroups every 250 ms. A second Warden member joins,
// then leaves: the API answers one rebalance per change, and the group's instances say who is live.

const PARTITIONS = 4;

describe('GET /api/rebalances: one rebalance per change of the group', () => {
  const prefix = uniqueName('rebal');
  const topic = `${prefix}-in`;
  const groupId = `${prefix}-group`;
  let admin: Admin;
  let db: Database;
  let sampler: LagSampler;
  let sampling: Promise<void> | null = null;
  let keepSampling = true;
  const stops: Array<() => Promise<void>> = [];

  /** The group's control prefix: the first member's call runs the worker's side of it for both members. */
  let controlPrefix: string | undefined;
  const instanceIdOf = (clientId: string) => `${clientId}@rebalances-it/${process.pid}`;

  /** A Warden consumer of the group, reporting its state (and its rebalances) as the worker's own consumer does. */
  async function startWardenMember(clientId: string) {
    const pipeline = await startPipelineConsumer({
      kafka: testKafka(clientId),
      db,
      groupId,
      topics: [topic],
      resultsTopic: `${prefix}-results`,
      // Both members live in this process: each names itself, as two processes' pids would.
      control: controlPrefix
        ? { topicPrefix: controlPrefix, workerSide: false, instanceId: instanceIdOf(clientId) }
        : { instanceId: instanceIdOf(clientId) },
      consumer: { kafkaConsumerConfig: { heartbeatInterval: 300, sessionTimeout: 10_000 } },
    });
    controlPrefix ??= pipeline.control?.topicPrefix;
    stops.push(pipeline.stop);
    return pipeline;
  }

  const rowsOf = (source: string) => db.rebalanceEvent.findMany({ where: { groupId, source } });

  beforeAll(async () => {
    const kafka = testKafka('warden-rebalances-it');
    admin = kafka.admin();
    await admin.connect();
    db = testDatabase();
    await createTopic(admin, topic, PARTITIONS);
    sampler = testSampler(kafka, db, new RegExp(`^${groupId}$`), {
      instanceId: 'rebalances-it',
      state: { exactTimeLagMaxPartitions: 0 },
    });
  });

  afterAll(async () => {
    keepSampling = false;
    await sampling;
    for (const stop of stops.splice(0)) await stop().catch(() => undefined);
    await admin?.disconnect();
    await db?.$disconnect();
  });

  it('merges the measured stops of both Warden members and the inferred rows into one rebalance per change', async () => {
    await startWardenMember(`${prefix}-a`);
    await eventually('the first member measured its join', async () =>
      (await rowsOf('own-consumer')).length === 1 ? true : undefined,
    );
    // The sampler tracks the group from a settled state on, as the worker's sampler does every round.
    sampling = (async () => {
      while (keepSampling) {
        await sampler.sampleOnce().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    await eventually('a sample of the settled group', async () =>
      (await db.lagSample.count({ where: { groupId, groupState: 'Stable', memberId: { not: null } } })) > 0
        ? true
        : undefined,
    );

    const second = await startWardenMember(`${prefix}-b`);
    await eventually('the join measured by both members and inferred by the sampler', async () =>
      (await rowsOf('own-consumer')).length === 3 && (await rowsOf('describe-groups')).length === 1 ? true : undefined,
    );
    await second.stop();
    await eventually('the leave measured by the first member and inferred by the sampler', async () =>
      (await rowsOf('own-consumer')).length === 4 && (await rowsOf('describe-groups')).length === 2 ? true : undefined,
    );
    keepSampling = false;
    await sampling;

    const { rebalances } = await listRebalances(db, 'default', { groupId });
    // Six rows (four measured stops, two inferred) are three rebalances: the first join, the join, the leave.
    expect(await db.rebalanceEvent.count({ where: { groupId } })).toBe(6);
    expect(rebalances.map((r) => [r.trigger, r.stops.length, r.sampledBetween !== null, r.membersSeenBy])).toEqual([
      ['leave', 1, true, 'group'],
      ['join', 2, true, 'group'],
      ['join', 1, false, 'measuring-members'],
    ]);
    const [leave, join, first] = rebalances;

    // One name per member, the group's: the partition table's owner column names the first member the same way.
    // Member b's clean stop reached the ingester: the group lists a live and b stopped.
    await eventually('the second member reported its clean stop', async () =>
      (await db.consumerInstance.findFirst({ where: { groupId, instanceId: instanceIdOf(`${prefix}-b`) } }))?.status ===
      'stopped'
        ? true
        : undefined,
    );
    const detail = await getGroupDetail(db, 'default', groupId, { timeLagObjectiveMs: null, rateWindowMs: 60_000 });
    expect(detail.instances.map((i) => [i.instanceId, i.state])).toEqual([
      [instanceIdOf(`${prefix}-a`), 'live'],
      [instanceIdOf(`${prefix}-b`), 'stopped'],
    ]);
    expect(detail.instances[0]?.partitionCount).toBe(PARTITIONS);
    const owners = new Set(detail.partitions.map((p) => p.owner?.name));
    expect(owners.size).toBe(1);
    const a = [...owners][0]!;
    expect(a).toMatch(new RegExp(`^${prefix}-a 127\\.0\\.0\\.1 #[0-9a-f]{6}$`));
    expect(detail.memberList.map((m) => m.name)).toEqual([a]);
    const b = join!.membersAfter.find((m) => m.change === 'joined')!.name;
    expect(b).toMatch(new RegExp(`^${prefix}-b 127\\.0\\.0\\.1 #[0-9a-f]{6}$`));

    expect(first!.stops.map((s) => s.name)).toEqual([a]);
    expect(first!.membersAfter.map((m) => [m.name, m.change])).toEqual([[a, 'joined']]);
    expect(first!.partitionsMoved).toBe(PARTITIONS);

    // The join: the joining member's stop and the running one's, exact; the group's view before and after.
    expect(join!.stops.map((s) => [s.name, s.joining])).toEqual([
      [b, true],
      [a, false],
    ]);
    expect(join!.durationIsBound).toBe(false);
    expect(Date.parse(join!.startedAt)).toBe(Math.min(...join!.stops.map((s) => Date.parse(s.startedAt))));
    expect(Date.parse(join!.endedAt)).toBeLessThanOrEqual(Date.parse(join!.sampledBetween!.to) + 1_000);
    expect(join!.membersBefore.map((m) => [m.name, m.change])).toEqual([[a, 'stayed']]);
    expect(join!.membersAfter.map((m) => m.name).sort()).toEqual([a, b].sort());
    expect(join!.partitionsMoved).toBe(PARTITIONS / 2);

    // The leave: only the member that stayed measured a stop; the sampler says who left.
    expect(leave!.stops.map((s) => [s.name, s.joining])).toEqual([[a, false]]);
    expect(leave!.membersBefore.find((m) => m.change === 'left')?.name).toBe(b);
    expect(leave!.membersAfter.map((m) => [m.name, m.change])).toEqual([[a, 'stayed']]);
    expect(leave!.partitionsMoved).toBe(PARTITIONS / 2);

    // The group's last rebalance and the rebalance rate read the same merged rebalances.
    expect(detail.lastRebalance).toEqual({
      startedAt: leave!.startedAt,
      durationMs: leave!.durationMs,
      durationIsBound: false,
    });
    const advice = await getGroupAdvice(db, 'default', groupId, {
      rateWindowMs: 60_000,
      targetCatchUpSec: 300,
      timeLagObjectiveMs: null,
    });
    expect(advice.advice.find((item) => item.id === 'rebalance-rate')?.evidence).toMatchObject({
      rebalancesPerHour: 3,
    });
  });
});

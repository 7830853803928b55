import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { testDatabase } from '../../test-support/database';
import { INSTANCE_PARTITIONS_LISTED } from '../schemas/values';
import { getGroupDetail } from './get-group-detail';
import { listQuarantines } from './list-quarantines';

// The instances of groups that report over the control plane, as the group page and the Quarantine page read
// them from consumer_instance on real Postgres: the live / gone / stopped rule at the time asked for, the
// hour a departed instance stays listed, the order, and which live instance owns a held partition.

let db: Database;
// Judged at a fixed time, so every state below is decided by the seeded report times alone.
const NOW = Date.now() - 1_000;
const options = { timeLagObjectiveMs: null, rateWindowMs: 60_000, nowMs: NOW };
const id = randomUUID().slice(0, 8);
const group = `inst-${id}`;
const topic = `${group}-orders`;
const silentGroup = `${group}-silent`;

beforeAll(async () => {
  db = testDatabase();
  for (const g of [group, silentGroup]) {
    await db.lagSample.createMany({
      data: [0, 1, 2, 3].map((partition) => ({
        sampledAt: new Date(NOW - 2_000),
        groupId: g,
        topic,
        partition,
        committedOffset: 10n,
        logStartOffset: 0n,
        logEndOffset: 20n,
        lag: 10n,
        groupState: 'Stable',
      })),
    });
  }
});

afterAll(async () => {
  const where = { groupId: { in: [group, silentGroup] } };
  await db.consumerInstance.deleteMany({ where });
  await db.partitionQuarantine.deleteMany({ where });
  await db.operatorAction.deleteMany({ where });
  await db.lagSample.deleteMany({ where });
  await db?.$disconnect();
});

interface Seed {
  name: string;
  cluster?: string;
  groupId?: string;
  startedAgoMs: number;
  reportedAgoMs: number;
  status?: 'running' | 'stopped';
  stateIntervalMs?: number;
  ready?: boolean;
  readinessDetail?: string;
  assignment?: unknown;
  refusedCommands?: number;
  lastRefusal?: string | null;
}

function instanceId(name: string): string {
  return `${name}@host-${name}/4242`;
}

async function seedInstance(seed: Seed): Promise<void> {
  await db.consumerInstance.create({
    data: {
      cluster: seed.cluster ?? 'default',
      groupId: seed.groupId ?? group,
      instanceId: instanceId(seed.name),
      clientId: seed.name,
      host: `host-${seed.name}`,
      pid: 4242,
      packageVersion: '0.1.0',
      startedAt: new Date(NOW - seed.startedAgoMs),
      reportedAt: new Date(NOW - seed.reportedAgoMs),
      stateIntervalMs: seed.stateIntervalMs ?? 5_000,
      status: seed.status ?? 'running',
      ready: seed.ready ?? true,
      readinessDetail: seed.readinessDetail ?? 'joined, fetching',
      assignment: (seed.assignment ?? []) as object,
      refusedCommands: seed.refusedCommands ?? 0,
      lastRefusal: seed.lastRefusal ?? null,
    },
  });
}

describe('GET /api/groups/{groupId}: the instances that report', () => {
  beforeAll(async () => {
    await seedInstance({
      name: 'live-old',
      startedAgoMs: 3_600_000,
      reportedAgoMs: 2_000,
      assignment: [
        { topic, partition: 1 },
        { topic, partition: 0 },
      ],
      refusedCommands: 3,
      lastRefusal: 'unsigned command 7f1c…: a command key is configured',
    });
    await seedInstance({
      name: 'live-new',
      startedAgoMs: 60_000,
      // Silent 14 s: still inside the 15 s floor.
      reportedAgoMs: 14_000,
      ready: false,
      readinessDetail: 'no completion for 40 s while 12 records are held',
      assignment: [{ topic, partition: 2 }],
    });
    // Reports every 20 s: 50 s of silence is inside 3 intervals.
    await seedInstance({ name: 'live-slow', startedAgoMs: 30_000, reportedAgoMs: 50_000, stateIntervalMs: 20_000 });
    await seedInstance({
      name: 'gone',
      startedAgoMs: 7_200_000,
      reportedAgoMs: 16_000,
      assignment: [{ topic, partition: 3 }],
    });
    await seedInstance({ name: 'stopped', startedAgoMs: 7_200_000, reportedAgoMs: 600_000, status: 'stopped' });
    // Departed more than an hour ago: left out.
    await seedInstance({ name: 'gone-long-ago', startedAgoMs: 9_000_000, reportedAgoMs: 3_600_001 });
    await seedInstance({
      name: 'stopped-long-ago',
      startedAgoMs: 9_000_000,
      reportedAgoMs: 3_700_000,
      status: 'stopped',
    });
    // The same group id on another cluster, and another group: not this group's.
    await seedInstance({ name: 'elsewhere', cluster: `c-${id}`, startedAgoMs: 1_000, reportedAgoMs: 1_000 });
  });

  it('lists live instances first (newest started first), then gone and stopped ones by their last report, for an hour', async () => {
    const detail = await getGroupDetail(db, 'default', group, options);
    expect(detail.instances.map((i) => [i.instanceId, i.state])).toEqual([
      [instanceId('live-slow'), 'live'],
      [instanceId('live-new'), 'live'],
      [instanceId('live-old'), 'live'],
      [instanceId('gone'), 'gone'],
      [instanceId('stopped'), 'stopped'],
    ]);
    expect(detail.isWardenConsumer).toBe(true);
  });

  it('says who each instance is, what it owns, its readiness and the commands it refused', async () => {
    const detail = await getGroupDetail(db, 'default', group, options);
    const byName = new Map(detail.instances.map((i) => [i.clientId, i]));
    expect(byName.get('live-old')).toEqual({
      instanceId: instanceId('live-old'),
      clientId: 'live-old',
      host: 'host-live-old',
      pid: 4242,
      packageVersion: '0.1.0',
      startedAt: new Date(NOW - 3_600_000).toISOString(),
      reportedAt: new Date(NOW - 2_000).toISOString(),
      stateIntervalMs: 5_000,
      state: 'live',
      goneAfterMs: 15_000,
      ready: true,
      readinessDetail: 'joined, fetching',
      partitionCount: 2,
      // In partition order, whatever order the report gave.
      partitions: [
        { topic, partition: 0 },
        { topic, partition: 1 },
      ],
      refusedCommands: 3,
      lastRefusal: 'unsigned command 7f1c…: a command key is configured',
    });
    expect(byName.get('live-new')).toMatchObject({
      ready: false,
      readinessDetail: 'no completion for 40 s while 12 records are held',
      partitionCount: 1,
    });
    expect(byName.get('live-slow')?.goneAfterMs).toBe(60_000);
    expect(byName.get('gone')).toMatchObject({ state: 'gone', partitions: [{ topic, partition: 3 }] });
  });

  it('judges at the time asked: a few seconds later the quiet instance is gone', async () => {
    const later = await getGroupDetail(db, 'default', group, { ...options, nowMs: NOW + 2_000 });
    expect(later.instances.find((i) => i.clientId === 'live-new')?.state).toBe('gone');
    expect(later.instances.filter((i) => i.state === 'live').map((i) => i.clientId)).toEqual(['live-slow', 'live-old']);
  });

  it('answers no instances for a group whose consumers do not report, and it stays a plain group', async () => {
    const detail = await getGroupDetail(db, 'default', silentGroup, options);
    expect(detail.instances).toEqual([]);
    expect(detail.isWardenConsumer).toBe(false);
  });

  it('lists at most INSTANCE_PARTITIONS_LISTED partitions but counts them all; a stored assignment of another shape reads as none', async () => {
    const wide = `${group}-wide`;
    try {
      await db.lagSample.create({
        data: {
          sampledAt: new Date(NOW - 2_000),
          groupId: wide,
          topic,
          partition: 0,
          committedOffset: 1n,
          logStartOffset: 0n,
          logEndOffset: 1n,
          lag: 0n,
          groupState: 'Stable',
        },
      });
      const count = INSTANCE_PARTITIONS_LISTED + 7;
      await seedInstance({
        name: 'wide',
        groupId: wide,
        startedAgoMs: 10_000,
        reportedAgoMs: 1_000,
        assignment: Array.from({ length: count }, (_, partition) => ({ topic, partition })),
      });
      await seedInstance({
        name: 'odd',
        groupId: wide,
        startedAgoMs: 20_000,
        reportedAgoMs: 1_000,
        assignment: { topic, partitions: [0] },
      });
      const detail = await getGroupDetail(db, 'default', wide, options);
      const [widest, odd] = detail.instances;
      expect(widest?.partitionCount).toBe(count);
      expect(widest?.partitions).toHaveLength(INSTANCE_PARTITIONS_LISTED);
      expect(widest?.partitions.at(-1)).toEqual({ topic, partition: INSTANCE_PARTITIONS_LISTED - 1 });
      expect(odd).toMatchObject({ clientId: 'odd', state: 'live', partitionCount: 0, partitions: [] });
    } finally {
      await db.consumerInstance.deleteMany({ where: { groupId: wide } });
      await db.lagSample.deleteMany({ where: { groupId: wide } });
    }
  });
});

describe('GET /api/quarantine: who holds a partition, and who would apply an action', () => {
  beforeAll(async () => {
    for (const partition of [0, 2, 3]) {
      await db.partitionQuarantine.create({
        data: {
          groupId: group,
          topic,
          partition,
          offset: 12n,
          reason: 'bad record',
          errorClass: 'schema',
          since: new Date(NOW - 60_000),
          attempts: 1,
          recordHeaders: {},
          heldBy: partition === 0 ? instanceId('live-old') : partition === 3 ? instanceId('gone') : null,
        },
      });
    }
  });

  it('names the holder, and the live instance that owns the partition by its newest report', async () => {
    const { quarantines } = await listQuarantines(db, { nowMs: NOW });
    const of = (partition: number) => quarantines.find((q) => q.groupId === group && q.partition === partition);
    expect(of(0)).toMatchObject({ heldBy: instanceId('live-old'), liveOwner: instanceId('live-old') });
    // A hold stored without its holder (before the control plane) says so.
    expect(of(2)).toMatchObject({ heldBy: null, liveOwner: instanceId('live-new') });
    // Held by an instance that is gone, and no live instance owns it: an action would wait.
    expect(of(3)).toMatchObject({ heldBy: instanceId('gone'), liveOwner: null });
    // Once the quiet instance is gone, partition 2 has no live owner either.
    const later = await listQuarantines(db, { nowMs: NOW + 2_000 });
    expect(later.quarantines.find((q) => q.groupId === group && q.partition === 2)?.liveOwner).toBeNull();
  });

  it('across a rebalance two live instances may claim a partition: the later report owns it', async () => {
    await seedInstance({
      name: 'new-owner',
      startedAgoMs: 5_000,
      reportedAgoMs: 500,
      assignment: [{ topic, partition: 0 }],
    });
    try {
      const { quarantines } = await listQuarantines(db, { nowMs: NOW });
      expect(quarantines.find((q) => q.groupId === group && q.partition === 0)?.liveOwner).toBe(
        instanceId('new-owner'),
      );
    } finally {
      await db.consumerInstance.delete({
        where: {
          cluster_groupId_instanceId: { cluster: 'default', groupId: group, instanceId: instanceId('new-owner') },
        },
      });
    }
  });

  it('a pending action carries where it stands: its command id, when a worker relayed it and when it expires', async () => {
    const expiresAt = new Date(NOW + 300_000);
    const action = await db.operatorAction.create({
      data: {
        groupId: group,
        topic,
        partition: 3,
        action: 'skip',
        reason: 'why',
        requestedBy: 'alice',
        quarantineOffset: 12n,
        relayedAt: new Date(NOW - 1_000),
        expiresAt,
      },
    });
    const { quarantines } = await listQuarantines(db, { nowMs: NOW });
    const q = quarantines.find((x) => x.groupId === group && x.partition === 3);
    expect(q?.pendingAction).toMatchObject({
      id: action.id.toString(),
      commandId: action.commandId,
      relayedAt: new Date(NOW - 1_000).toISOString(),
      expiresAt: expiresAt.toISOString(),
    });
    expect(q?.liveOwner).toBeNull();
  });
});

import { z } from 'zod';
import type { Database } from '../db';
import type { ConsumerInstance } from '../generated/prisma/client';
import { ZTopicPartition } from '../schemas/common';
import type { TConsumerInstance } from '../schemas/groups';
import { INSTANCE_PARTITIONS_LISTED } from '../schemas/values';
import {
  compareInstances,
  goneAfterMs,
  INSTANCE_RETENTION_MS,
  instanceState,
  isListed,
  type InstanceState,
  LIVE_BEYOND_RETENTION_INTERVAL_MS,
} from '../instances/instance-liveness';

// The instances of consumer groups that report over the control plane (consumer_instance, written by the
// worker's ingester), as the group page and the Quarantine page read them.

export interface GroupRef {
  cluster: string;
  groupId: string;
}

const ZAssignment = z.array(ZTopicPartition);

/** The map key of a group. */
export function groupKey(group: GroupRef): string {
  return `${group.cluster}\u0000${group.groupId}`;
}

/** A group's listed instances and which live instance owns each of its partitions. */
export interface GroupInstances {
  /** In the Instances card's order (instance-liveness.ts compareInstances). */
  instances: TConsumerInstance[];
  /**
   * Partition (`topic\u0000partition`) to the live instance that owns it by its newest report, over the whole
   * assignment (not only the listed part). Two live instances claim one partition only across a rebalance,
   * before the old owner's next report: the one that reported later wins.
   */
  liveOwners: Map<string, string>;
}

/** The key of a partition in GroupInstances.liveOwners. */
export function partitionOwnerKey(p: { topic: string; partition: number }): string {
  return `${p.topic}\u0000${p.partition}`;
}

/**
 * The listed instances of each group asked for (instance-liveness.ts: live ones, and gone or stopped ones for
 * an hour after their last report), judged at `nowMs`. Every group asked for has an entry, empty when none of
 * its instances reports.
 */
export async function loadConsumerInstances(
  db: Database,
  groups: readonly GroupRef[],
  nowMs: number,
): Promise<Map<string, GroupInstances>> {
  const byGroup = new Map<string, GroupInstances>(
    groups.map((g) => [groupKey(g), { instances: [], liveOwners: new Map() }]),
  );
  if (groups.length === 0) return byGroup;
  const rows = await db.consumerInstance.findMany({
    where: {
      OR: groups.map((g) => ({ cluster: g.cluster, groupId: g.groupId })),
      AND: {
        OR: [
          { reportedAt: { gte: new Date(nowMs - INSTANCE_RETENTION_MS) } },
          // Silent past the retention, yet live: only an instance that reports this rarely.
          { status: 'running', stateIntervalMs: { gt: LIVE_BEYOND_RETENTION_INTERVAL_MS } },
        ],
      },
    },
  });
  const listed = rows
    .filter((row) => isListed(reportOf(row), nowMs))
    .map((row) => ({ row, assignment: assignmentOf(row), state: instanceState(reportOf(row), nowMs) }))
    .sort((a, b) => compareInstances(orderOf(a.row, a.state), orderOf(b.row, b.state)));
  const claims = new Map<string, Map<string, number>>();
  for (const { row, assignment, state } of listed) {
    const entry = byGroup.get(groupKey(row));
    if (!entry) continue;
    entry.instances.push(instanceJson(row, assignment, state));
    if (state !== 'live') continue;
    const reportedAtMs = row.reportedAt.getTime();
    const newest = claims.get(groupKey(row)) ?? new Map<string, number>();
    claims.set(groupKey(row), newest);
    for (const p of assignment) {
      const key = partitionOwnerKey(p);
      if ((newest.get(key) ?? -Infinity) >= reportedAtMs) continue;
      newest.set(key, reportedAtMs);
      entry.liveOwners.set(key, row.instanceId);
    }
  }
  return byGroup;
}

function reportOf(row: ConsumerInstance) {
  return { status: row.status, reportedAtMs: row.reportedAt.getTime(), stateIntervalMs: row.stateIntervalMs };
}

function orderOf(row: ConsumerInstance, state: InstanceState) {
  return {
    state,
    startedAtMs: row.startedAt.getTime(),
    reportedAtMs: row.reportedAt.getTime(),
    instanceId: row.instanceId,
  };
}

/**
 * The partitions a stored row owned, by topic and partition. The ingester stores the assignment its schema
 * accepted; a stored value of another shape reads as no partitions rather than failing the page.
 */
export function assignmentOf(row: Pick<ConsumerInstance, 'assignment'>): Array<{ topic: string; partition: number }> {
  const parsed = ZAssignment.safeParse(row.assignment);
  if (!parsed.success) return [];
  return [...parsed.data].sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition));
}

/** A stored row as the API shows it. */
function instanceJson(
  row: ConsumerInstance,
  assignment: Array<{ topic: string; partition: number }>,
  state: InstanceState,
): TConsumerInstance {
  return {
    instanceId: row.instanceId,
    clientId: row.clientId,
    host: row.host,
    pid: row.pid,
    packageVersion: row.packageVersion,
    startedAt: row.startedAt.toISOString(),
    reportedAt: row.reportedAt.toISOString(),
    stateIntervalMs: row.stateIntervalMs,
    state,
    goneAfterMs: goneAfterMs(row.stateIntervalMs),
    ready: row.ready,
    readinessDetail: row.readinessDetail,
    partitionCount: assignment.length,
    partitions: assignment.slice(0, INSTANCE_PARTITIONS_LISTED),
    refusedCommands: row.refusedCommands,
    lastRefusal: row.lastRefusal,
  };
}

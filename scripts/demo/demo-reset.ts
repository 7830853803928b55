import type { Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
import { eventually } from '../lib/eventually';

// A story run starts from a clean slate. The bundled broker and the database keep everything between runs, so
// without this a second `npm run demo` plays its story over the first one's leftovers: partition 1 still held at the
// old poison record, the old surge's backlog draining, time lag read from the old topics' log-end points.
// Only the demo's own names are touched, and the caller does this only on the bundled broker with the story's
// traffic on. The audit log stays; operator actions still pending for the old records expire.

export interface DemoNames {
  groupId: string;
  /** The demo's other groups (its plain kafkajs consumer): their commits and samples go too. */
  otherGroupIds?: string[];
  /** Input, results and dead-letter topics. */
  topics: string[];
}

export interface DemoResetResult {
  topicsDeleted: string[];
  samplesDeleted: number;
  quarantinesDeleted: number;
  actionsExpired: number;
}

export async function resetDemoState(admin: Admin, db: Database, names: DemoNames): Promise<DemoResetResult> {
  const groups = await admin.describeGroups([names.groupId]);
  const live = groups.groups.find((g) => g.groupId === names.groupId)?.members.length ?? 0;
  if (live > 0) {
    throw new Error(
      `consumer group ${names.groupId} has ${live} live member(s): stop them before the demo starts over (or run it with --keep-state)`,
    );
  }
  const existing = new Set(await admin.listTopics());
  const topicsDeleted = names.topics.filter((topic) => existing.has(topic));
  if (topicsDeleted.length > 0) {
    await admin.deleteTopics({ topics: topicsDeleted, timeout: 30_000 });
    await eventually('the old demo topics to be gone', async () => {
      const left = new Set(await admin.listTopics());
      return topicsDeleted.every((topic) => !left.has(topic)) ? true : undefined;
    });
  }
  // The group's commits went with its topics; the empty group itself may remain (GROUP_ID_NOT_FOUND is fine).
  const groupIds = [names.groupId, ...(names.otherGroupIds ?? [])];
  await admin.deleteGroups(groupIds).catch(() => undefined);

  const group = { groupId: { in: groupIds } };
  const [samples, , , , , quarantines, , actions] = await db.$transaction([
    db.lagSample.deleteMany({ where: group }),
    db.lagRollup.deleteMany({ where: group }),
    db.lagRollup10m.deleteMany({ where: group }),
    db.consumerPartitionState.deleteMany({ where: group }),
    db.rebalanceEvent.deleteMany({ where: group }),
    db.partitionQuarantine.deleteMany({ where: group }),
    db.logEndPoint.deleteMany({ where: { topic: { in: names.topics } } }),
    db.operatorAction.updateMany({
      where: { groupId: names.groupId, status: 'pending' },
      data: { status: 'expired', outcome: 'the demo started over: its records are gone', completedAt: new Date() },
    }),
    db.commitObservation.deleteMany({ where: group }),
  ]);
  return {
    topicsDeleted,
    samplesDeleted: samples.count,
    quarantinesDeleted: quarantines.count,
    actionsExpired: actions.count,
  };
}

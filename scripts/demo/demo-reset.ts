import type { Admin } from 'kafkajs';
import type { Database } from '../../lib/db';
import { eventually } from '../../test-support/eventually';

// A story run starts from a clean slate. The bundled broker and the database keep everything between runs, so
// without this a second `npm run demo` plays its story over the first one's leftovers: partition 1 still held at the
// old poison record, the old surge's backlog draining, time lag read from the old topics' log-end points.
// Only the demo's own names are touched, and the caller does this only on the bundled broker with the story's
// traffic on. The audit log stays, but for the old groups' record losses (and their acknowledgements), which go with
// their topics; operator actions still pending for the old records expire.

export interface DemoNames {
  groupId: string;
  /**
   * The demo's other groups (its plain kafkajs consumer, the orders service, the audit archiver): their commits,
   * samples, instances, holds and record losses go too, and none may have live members.
   */
  otherGroupIds?: string[];
  /** Input, results and dead-letter topics, the orders service's and the audit topic: their retention settings go too. */
  topics: string[];
}

export interface DemoResetResult {
  topicsDeleted: string[];
  samplesDeleted: number;
  quarantinesDeleted: number;
  actionsExpired: number;
}

export async function resetDemoState(admin: Admin, db: Database, names: DemoNames): Promise<DemoResetResult> {
  const groupIds = [names.groupId, ...(names.otherGroupIds ?? [])];
  const { groups } = await admin.describeGroups(groupIds);
  for (const groupId of groupIds) {
    const live = groups.find((g) => g.groupId === groupId)?.members.length ?? 0;
    if (live > 0) {
      throw new Error(
        `consumer group ${groupId} has ${live} live member(s): stop them before the demo starts over (or run it with --keep-state)`,
      );
    }
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
  // The groups' commits went with their topics; the empty groups may remain (GROUP_ID_NOT_FOUND is fine).
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
      where: { ...group, status: 'pending' },
      data: { status: 'expired', outcome: 'the demo started over: its records are gone', completedAt: new Date() },
    }),
    db.commitObservation.deleteMany({ where: group }),
    // The previous run's processes: without this they would stay listed, gone, on the Instances cards for an hour.
    db.consumerInstance.deleteMany({ where: group }),
    // Losses of records of topics that no longer exist: left, they would show the new run's groups LOST at once.
    db.recordLoss.deleteMany({ where: group }),
    db.topicRetention.deleteMany({ where: { topic: { in: names.topics } } }),
  ]);
  return {
    topicsDeleted,
    samplesDeleted: samples.count,
    quarantinesDeleted: quarantines.count,
    actionsExpired: actions.count,
  };
}

import type { Database } from '../db';
import { ZGroupLagResponse, type TGroupLag, type TGroupLagResponse } from '../schemas/groups';

/**
 * The latest sampler round of every group seen in the last `withinMs`, per partition, worst total lag first:
 * the raw view the sampler's integration tests read back (the dashboard uses listGroups and getGroupDetail).
 * Groups not sampled for that long are considered gone and omitted.
 */
export async function listGroupLag(
  db: Database,
  options: { now?: Date; withinMs?: number } = {},
): Promise<TGroupLagResponse> {
  const now = options.now ?? new Date();
  const since = new Date(now.getTime() - (options.withinMs ?? 10 * 60_000));
  const latest = await db.lagSample.groupBy({
    by: ['groupId'],
    where: { sampledAt: { gte: since } },
    _max: { sampledAt: true },
  });
  const rounds = latest.flatMap((g) => (g._max.sampledAt ? [{ groupId: g.groupId, sampledAt: g._max.sampledAt }] : []));
  if (rounds.length === 0) return { groups: [] };
  const rows = await db.lagSample.findMany({
    where: { OR: rounds },
    orderBy: [{ groupId: 'asc' }, { topic: 'asc' }, { partition: 'asc' }],
  });
  const groups = new Map<string, TGroupLag>();
  for (const row of rows) {
    let group = groups.get(row.groupId);
    if (!group) {
      group = {
        groupId: row.groupId,
        state: row.groupState,
        sampledAt: row.sampledAt.toISOString(),
        totalLag: 0,
        partitionsWithoutCommit: 0,
        partitions: [],
      };
      groups.set(row.groupId, group);
    }
    const lag = row.lag === null ? null : Number(row.lag);
    if (lag === null) group.partitionsWithoutCommit += 1;
    else group.totalLag += lag;
    group.partitions.push({
      topic: row.topic,
      partition: row.partition,
      committedOffset: row.committedOffset?.toString() ?? null,
      logStartOffset: row.logStartOffset.toString(),
      logEndOffset: row.logEndOffset.toString(),
      lag,
      memberClientId: row.memberClientId,
      memberHost: row.memberHost,
    });
  }
  const sorted = [...groups.values()].sort((a, b) => b.totalLag - a.totalLag || a.groupId.localeCompare(b.groupId));
  return ZGroupLagResponse.parse({ groups: sorted });
}

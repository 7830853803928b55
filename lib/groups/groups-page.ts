import {
  ZGroupStatus,
  type TGroupSort,
  type TGroupStatus,
  type TGroupStatusCounts,
  type TGroupSummary,
  type TGroupsQuery,
} from '../schemas/groups';

/** The overview's request as both ways of answering it (stored summaries in SQL, live in memory) take it. */
export interface GroupsPageRequest {
  clusters: readonly string[];
  /** Lower-cased, trimmed; '' matches every group. */
  needle: string;
  status: TGroupStatus | null;
  sort: TGroupSort;
  reversed: boolean;
  limit: number | null;
  offset: number;
}

export function groupsPageRequest(clusters: readonly string[], query: TGroupsQuery): GroupsPageRequest {
  return {
    clusters,
    needle: (query.q ?? '').trim().toLowerCase(),
    status: query.status ?? null,
    sort: query.sort ?? 'worst',
    reversed: query.order === 'reversed',
    limit: query.limit ?? null,
    offset: query.offset ?? 0,
  };
}

/**
 * Worst first. LOST ranks before ERR at -1, so the ranks stored in group_summary before LOST existed still sort
 * the same way beside new ones.
 */
export const STATUS_RANK: Record<TGroupStatus, number> = { LOST: -1, ERR: 0, QUARANTINED: 1, WARN: 2, OK: 3 };

/**
 * Strings in byte order of their UTF-8 form, which is how Postgres orders them under `COLLATE "C"`: the
 * stored-summary path sorts in SQL and this one in memory, and the two must give the same pages.
 */
export function compareBytes(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

const timeLagOf = (g: TGroupSummary) => g.worstTimeLag?.ms ?? -1;
const rebalanceOf = (g: TGroupSummary) => (g.lastRebalance ? Date.parse(g.lastRebalance.startedAt) : -1);

/** Worst first: status, oldest waiting record, largest total lag; then cluster and id, so no two tie. */
export function compareWorstFirst(a: TGroupSummary, b: TGroupSummary): number {
  return (
    STATUS_RANK[a.status] - STATUS_RANK[b.status] ||
    timeLagOf(b) - timeLagOf(a) ||
    b.totalLag - a.totalLag ||
    compareBytes(a.cluster, b.cluster) ||
    compareBytes(a.groupId, b.groupId)
  );
}

/** Each order's natural direction; ties fall back to worst first (see groupsOrderBy for the SQL twin). */
const PRIMARY: Record<Exclude<TGroupSort, 'worst'>, (a: TGroupSummary, b: TGroupSummary) => number> = {
  cluster: (a, b) => compareBytes(a.cluster, b.cluster),
  group: (a, b) => compareBytes(a.groupId, b.groupId),
  totalLag: (a, b) => b.totalLag - a.totalLag,
  timeLag: (a, b) => timeLagOf(b) - timeLagOf(a),
  quarantined: (a, b) => b.quarantinedPartitions - a.quarantinedPartitions,
  rebalance: (a, b) => rebalanceOf(b) - rebalanceOf(a),
};

export function groupComparator(sort: TGroupSort, reversed: boolean): (a: TGroupSummary, b: TGroupSummary) => number {
  const direction = reversed ? -1 : 1;
  if (sort === 'worst') return (a, b) => direction * compareWorstFirst(a, b);
  const primary = PRIMARY[sort];
  return (a, b) => direction * primary(a, b) || compareWorstFirst(a, b);
}

export function emptyStatusCounts(): TGroupStatusCounts {
  return Object.fromEntries(ZGroupStatus.options.map((s) => [s, 0])) as TGroupStatusCounts;
}

/**
 * Reasons an overview row carries. A group of 50 stopped partitions has 50 reasons, which made them two thirds
 * of an overview page's bytes (377 of 570 KiB for 100 such groups) for a tooltip nobody reads to the end; the
 * group page lists them all.
 */
export const OVERVIEW_STATUS_REASONS = 5;

/** `summary` as an overview row: its most severe reasons only, `statusReasonCount` still counting them all. */
export function overviewRow(summary: TGroupSummary): TGroupSummary {
  return summary.statusReasons.length <= OVERVIEW_STATUS_REASONS
    ? summary
    : { ...summary, statusReasons: summary.statusReasons.slice(0, OVERVIEW_STATUS_REASONS) };
}

/** The requested page of `groups` (every group of the requested clusters), with its totals and facets. */
export function pageGroups(
  groups: readonly TGroupSummary[],
  request: GroupsPageRequest,
): { groups: TGroupSummary[]; total: number; counts: TGroupStatusCounts; clusters: string[] } {
  const counts = emptyStatusCounts();
  const clusters = new Set<string>();
  const matching: TGroupSummary[] = [];
  for (const group of groups) {
    clusters.add(group.cluster);
    if (request.needle !== '' && !group.groupId.toLowerCase().includes(request.needle)) continue;
    counts[group.status] += 1;
    if (request.status === null || group.status === request.status) matching.push(group);
  }
  matching.sort(groupComparator(request.sort, request.reversed));
  const end = request.limit === null ? undefined : request.offset + request.limit;
  return {
    groups: matching.slice(request.offset, end).map(overviewRow),
    total: matching.length,
    counts,
    clusters: [...clusters].sort(compareBytes),
  };
}

// One rebalance, however many rebalance_event rows observed it. Pure. The rebalance history
// (lib/server/list-rebalances.ts) and the rebalance rate (lib/advisor/rebalance-count.ts) both use this rule.
//
// What the rows are:
// - measured ('own-consumer'): each Warden member writes its own stop, from when it stopped (kafkajs
//   REBALANCING, a crash, or the start of its first join) to when its new assignment arrived (GROUP_JOIN).
//   Every member's stop in one rebalance ends when the same generation's SyncGroup answers, so the stops of
//   one rebalance end together, however far apart they started (a member notices up to a heartbeat later, a
//   joining member began before the others were told).
// - inferred ('describe-groups'): the sampler's bound: the group was settled at the sample `startedAt` and
//   settled again, changed, at the sample `endedAt`; the rebalance ended within (startedAt, endedAt].
//
// The rule, with a tolerance T (REBALANCE_MERGE_TOLERANCE_MS) for clock skew between hosts and for the moment
// between the broker settling the group and a member or the sampler seeing it:
// 1. Measured stops whose ends lie within T of each other (chained) are one rebalance; but one member never
//    stops twice in one rebalance, so a chain in which a member repeats is cut at its widest gaps until none
//    does (each stop stays with the ends nearest it).
// 2. An inferred row belongs to the measured rebalance whose end lies inside its bound widened by T. The
//    closest fit wins; when one bound holds several measured rebalances (two rebalances between two samples)
//    it belongs to the last of them, whose after-state it saw; the earlier ones keep their measured view.
// 3. Everything else stands alone: an inferred row no Warden member measured (a group of other clients), a
//    measured rebalance the sampler did not see (a first join before the sampler tracked the group, the
//    earlier of two rebalances between two samples, a sampler outage).
// Ends, not overlapping spans, because a member that crashed and rejoined 30 s later has one stop across two
// of the group's rebalances (its expulsion and its return): overlap would chain them into one.
// What it cannot tell apart: two rebalances whose stops end within T of each other count as one.

import { countMoved, type AssignedMember } from './partitions-moved';
import { triggerOf } from './rebalance-trigger';
import { readStoredMembers, storedMemberName, type StoredMember } from './stored-members';

/** Clock skew between hosts plus the delay until a settled group is seen; far below a rebalance's own length. */
export const REBALANCE_MERGE_TOLERANCE_MS = 1_000;

export const MEASURED_SOURCE = 'own-consumer';

export interface RebalanceRowSpan {
  /** Rows of different groups never merge; absent: all rows are of one group. */
  groupId?: string;
  source: string;
  startedAtMs: number;
  /** null: the row was written without an end (its start stands for both). */
  endedAtMs: number | null;
  /** Measured rows: the member id of the member that measured it; null or absent when unknown. */
  measuredBy?: string | null;
}

export interface RebalanceCluster<T extends RebalanceRowSpan> {
  groupId: string;
  /** The measured stops, earliest start first. */
  measured: T[];
  inferred: T | null;
  /** The last measured resume; for an inferred-only rebalance, the sample that saw it settled. */
  endedAtMs: number;
}

export const isMeasured = (row: RebalanceRowSpan): boolean => row.source === MEASURED_SOURCE;
/** A row's end; a row without one, or ending before it starts, is an instant at its start. */
export const endOf = (row: RebalanceRowSpan): number => Math.max(row.startedAtMs, row.endedAtMs ?? row.startedAtMs);

/** The rebalances `rows` stand for, newest end first (rule above). */
export function clusterRebalanceRows<T extends RebalanceRowSpan>(
  rows: readonly T[],
  toleranceMs: number = REBALANCE_MERGE_TOLERANCE_MS,
): RebalanceCluster<T>[] {
  const byGroup = new Map<string, T[]>();
  for (const row of rows) {
    const groupId = row.groupId ?? '';
    const list = byGroup.get(groupId);
    if (list) list.push(row);
    else byGroup.set(groupId, [row]);
  }
  const clusters = [...byGroup].flatMap(([groupId, groupRows]) => clusterGroup(groupId, groupRows, toleranceMs));
  return clusters.sort((a, b) => b.endedAtMs - a.endedAtMs || a.groupId.localeCompare(b.groupId));
}

function clusterGroup<T extends RebalanceRowSpan>(
  groupId: string,
  rows: readonly T[],
  toleranceMs: number,
): RebalanceCluster<T>[] {
  const byEnd = (a: T, b: T) => endOf(a) - endOf(b) || a.startedAtMs - b.startedAtMs;
  const chains: T[][] = [];
  for (const row of rows.filter(isMeasured).sort(byEnd)) {
    const last = chains[chains.length - 1];
    if (last && endOf(row) - endOf(last[last.length - 1]!) <= toleranceMs) last.push(row);
    else chains.push([row]);
  }
  const stops = chains
    .flatMap(splitRepeatedMembers)
    .map((chain) => ({ rows: chain, endMs: endOf(chain[chain.length - 1]!) }));

  const inferred = rows.filter((row) => !isMeasured(row)).sort(byEnd);
  const owner = matchInferred(
    stops.map((s) => s.endMs),
    inferred,
    toleranceMs,
  );
  const clusters: RebalanceCluster<T>[] = stops.map((stop, i) => ({
    groupId,
    measured: [...stop.rows].sort((a, b) => a.startedAtMs - b.startedAtMs),
    inferred: owner.has(i) ? inferred[owner.get(i)!]! : null,
    endedAtMs: stop.endMs,
  }));
  const taken = new Set(owner.values());
  inferred.forEach((row, j) => {
    if (!taken.has(j)) clusters.push({ groupId, measured: [], inferred: row, endedAtMs: endOf(row) });
  });
  return clusters;
}

/**
 * A chain of stops (sorted by end) in which one member stopped twice holds more than one rebalance: it is cut at
 * its widest gap between two ends, again until no member repeats, so each stop stays with the ends nearest it
 * (a stop ending 900 ms after one rebalance and 30 ms before the next belongs to the next).
 */
function splitRepeatedMembers<T extends RebalanceRowSpan>(chain: T[]): T[][] {
  const members = chain.map((row) => row.measuredBy ?? null).filter((m) => m !== null);
  if (new Set(members).size === members.length) return [chain];
  let cutAt = 1;
  for (let i = 2; i < chain.length; i++)
    if (endOf(chain[i]!) - endOf(chain[i - 1]!) > endOf(chain[cutAt]!) - endOf(chain[cutAt - 1]!)) cutAt = i;
  return [...splitRepeatedMembers(chain.slice(0, cutAt)), ...splitRepeatedMembers(chain.slice(cutAt))];
}

/**
 * Measured rebalance index -> inferred row index, one to one: every pair whose measured end lies in the
 * inferred bound widened by the tolerance, closest fit first (0 inside the bound), later measured end first.
 * `inferred` is sorted by end, so each end scans only the bounds that can hold it.
 */
function matchInferred(
  stopEnds: readonly number[],
  inferred: readonly RebalanceRowSpan[],
  toleranceMs: number,
): Map<number, number> {
  const ends = inferred.map(endOf);
  const longestBoundMs = Math.max(0, ...inferred.map((row, i) => ends[i]! - row.startedAtMs));
  const pairs: Array<{ stop: number; row: number; misfitMs: number }> = [];
  stopEnds.forEach((endMs, stop) => {
    // The first bound ending at or after endMs - tolerance; a later bound starts after endMs + tolerance once
    // its end is longestBoundMs past that.
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! < endMs - toleranceMs) lo = mid + 1;
      else hi = mid;
    }
    for (let index = lo; index < ends.length && ends[index]! - longestBoundMs < endMs + toleranceMs; index++) {
      const fromMs = inferred[index]!.startedAtMs;
      const toMs = ends[index]!;
      if (endMs <= fromMs - toleranceMs || endMs > toMs + toleranceMs) continue;
      pairs.push({ stop, row: index, misfitMs: endMs <= fromMs ? fromMs - endMs : endMs > toMs ? endMs - toMs : 0 });
    }
  });
  pairs.sort((a, b) => a.misfitMs - b.misfitMs || stopEnds[b.stop]! - stopEnds[a.stop]! || a.row - b.row);
  const owner = new Map<number, number>();
  const used = new Set<number>();
  for (const pair of pairs) {
    if (owner.has(pair.stop) || used.has(pair.row)) continue;
    owner.set(pair.stop, pair.row);
    used.add(pair.row);
  }
  return owner;
}

/**
 * Whether every row that could belong to `cluster` ends after `cutMs`: true when rows ending at or before
 * `cutMs` were not read and the cluster must not be shown as if complete. (A measured stop joins within the
 * tolerance of the cluster's ends; an inferred bound holds the cluster's end; see the rule above.)
 */
export function isCompleteAfter(
  cluster: RebalanceCluster<RebalanceRowSpan>,
  cutMs: number,
  toleranceMs: number = REBALANCE_MERGE_TOLERANCE_MS,
): boolean {
  const lowest = Math.min(...cluster.measured.map(endOf), ...(cluster.inferred ? [cluster.inferred.startedAtMs] : []));
  return lowest - toleranceMs > cutMs;
}

// --- The merged view -----------------------------------------------------------------------------------

/** A rebalance_event row as stored (the member columns as read from JSON). */
export interface StoredRebalanceRow {
  id: string;
  groupId: string;
  source: string;
  startedAtMs: number;
  endedAtMs: number | null;
  trigger: string;
  membersBefore: unknown;
  membersAfter: unknown;
  partitionsMoved: number;
}

export interface RebalanceMember {
  name: string;
  memberId: string | null;
  /** Compared with the other side of the rebalance (by member id, or by name when there is none). */
  change: 'joined' | 'left' | 'stayed';
}

export interface MemberStop {
  name: string;
  memberId: string | null;
  startedAtMs: number;
  endedAtMs: number;
  durationMs: number;
  /** It joined from scratch (start-up, crash, rebuilt client) rather than being rebalanced while running. */
  joining: boolean;
}

export interface MergedRebalance {
  /** The first-written row's id: stable while more rows of the same rebalance arrive. */
  id: string;
  groupId: string;
  rowIds: string[];
  /** Measured: the first member's stop to the last one's resume. Inferred only: the sample bound. */
  startedAtMs: number;
  endedAtMs: number;
  durationMs: number;
  /** True when no Warden member measured it: the duration is an upper bound between two samples. */
  durationIsBound: boolean;
  /** One per Warden member that measured it, earliest first. */
  stops: MemberStop[];
  /** The samples around it when the sampler saw it: it ended within (fromMs, toMs]. */
  sampledBetween: { fromMs: number; toMs: number } | null;
  /** lib/rebalances/rebalance-trigger.ts; a stored row may hold another word, shown as it is. */
  trigger: string;
  /** 'group': every member as describeGroups showed the group; 'measuring-members': only the Warden members that measured it (the sampler did not see it). */
  membersSeenBy: 'group' | 'measuring-members';
  membersBefore: RebalanceMember[];
  membersAfter: RebalanceMember[];
  partitionsMoved: number;
}

interface ParsedRow extends RebalanceRowSpan {
  stored: StoredRebalanceRow;
  groupId: string;
  before: StoredMember[];
  after: StoredMember[];
}

/** The rebalances stored rows stand for, newest first, each described once (rule above). */
export function mergeRebalanceRows(
  rows: readonly StoredRebalanceRow[],
  toleranceMs: number = REBALANCE_MERGE_TOLERANCE_MS,
): MergedRebalance[] {
  return describeClusters(clusterStoredRows(rows, toleranceMs));
}

/** clusterRebalanceRows over stored rows, with their member columns read once. */
export function clusterStoredRows(
  rows: readonly StoredRebalanceRow[],
  toleranceMs: number = REBALANCE_MERGE_TOLERANCE_MS,
): RebalanceCluster<ParsedRow>[] {
  const parsed = rows.map((stored): ParsedRow => {
    const before = readStoredMembers(stored.membersBefore);
    const after = readStoredMembers(stored.membersAfter);
    return {
      stored,
      groupId: stored.groupId,
      source: stored.source,
      startedAtMs: stored.startedAtMs,
      endedAtMs: stored.endedAtMs,
      measuredBy: measuringMember(stored.source, before, after),
      before,
      after,
    };
  });
  return clusterRebalanceRows(parsed, toleranceMs);
}

/** A measured row's member id (its member lists hold only itself); null for inferred rows or when unknown. */
export function measuringMemberId(row: Pick<StoredRebalanceRow, 'source' | 'membersBefore' | 'membersAfter'>) {
  return measuringMember(row.source, readStoredMembers(row.membersBefore), readStoredMembers(row.membersAfter));
}

function measuringMember(source: string, before: StoredMember[], after: StoredMember[]): string | null {
  return source === MEASURED_SOURCE ? (after[0]?.memberId ?? before[0]?.memberId ?? null) : null;
}

/** The merged view of clusters of stored rows; members are named as the group saw them wherever it did. */
export function describeClusters(clusters: readonly RebalanceCluster<ParsedRow>[]): MergedRebalance[] {
  const directories = new Map<string, Map<string, StoredMember>>();
  for (const cluster of clusters) {
    let directory = directories.get(cluster.groupId);
    if (!directory) directories.set(cluster.groupId, (directory = new Map()));
    for (const member of cluster.inferred ? [...cluster.inferred.before, ...cluster.inferred.after] : [])
      if (member.memberId !== null && member.label === null) directory.set(member.memberId, member);
  }
  return clusters.map((cluster) => describeCluster(cluster, directories.get(cluster.groupId)!));
}

function describeCluster(cluster: RebalanceCluster<ParsedRow>, directory: ReadonlyMap<string, StoredMember>) {
  const { measured, inferred } = cluster;
  const name = (member: StoredMember) =>
    storedMemberName((member.memberId !== null && directory.get(member.memberId)) || member);
  const stops = measured.map((row): MemberStop => {
    const self = row.after[0] ?? row.before[0] ?? null;
    return {
      name: self ? name(self) : 'unknown member',
      memberId: self?.memberId ?? null,
      startedAtMs: row.startedAtMs,
      endedAtMs: endOf(row),
      durationMs: endOf(row) - row.startedAtMs,
      joining: row.stored.trigger === 'join',
    };
  });

  const before = inferred ? inferred.before : distinctMembers(measured.flatMap((row) => row.before));
  const after = inferred ? inferred.after : distinctMembers(measured.flatMap((row) => row.after));
  const membersBefore = compareSides(before, after, 'left', name);
  const membersAfter = compareSides(after, before, 'joined', name);
  const partitionsMoved = inferred
    ? inferred.stored.partitionsMoved
    : (movedBetween(before, after) ?? Math.max(0, ...measured.map((row) => row.stored.partitionsMoved)));
  const joined = membersAfter.filter((m) => m.change === 'joined').length;
  const left = membersBefore.filter((m) => m.change === 'left').length;
  // A stored inferred trigger is kept, except an 'unknown' written before the inference named every visible
  // change: it is named from the stored members here, so no row says "unknown" next to what moved.
  const trigger = inferred
    ? inferred.stored.trigger === 'unknown'
      ? triggerOf({ joined, left, leftSilently: false, partitionsMoved })
      : inferred.stored.trigger
    : stops.some((s) => s.joining)
      ? 'join'
      : 'unknown';

  const startedAtMs = measured.length > 0 ? Math.min(...stops.map((s) => s.startedAtMs)) : inferred!.startedAtMs;
  const endedAtMs = cluster.endedAtMs;
  const rowIds = [...measured, ...(inferred ? [inferred] : [])].map((row) => row.stored.id).sort(compareIds);
  return {
    id: rowIds[0]!,
    groupId: cluster.groupId,
    rowIds,
    startedAtMs,
    endedAtMs,
    durationMs: endedAtMs - startedAtMs,
    durationIsBound: measured.length === 0,
    stops,
    sampledBetween: inferred ? { fromMs: inferred.startedAtMs, toMs: endOf(inferred) } : null,
    trigger,
    membersSeenBy: inferred ? 'group' : 'measuring-members',
    membersBefore,
    membersAfter,
    partitionsMoved,
  } satisfies MergedRebalance;
}

const memberKey = (member: StoredMember) => member.memberId ?? storedMemberName(member);

function distinctMembers(members: readonly StoredMember[]): StoredMember[] {
  const seen = new Map<string, StoredMember>();
  for (const member of members) if (!seen.has(memberKey(member))) seen.set(memberKey(member), member);
  return [...seen.values()];
}

function compareSides(
  side: readonly StoredMember[],
  other: readonly StoredMember[],
  missing: 'joined' | 'left',
  name: (member: StoredMember) => string,
): RebalanceMember[] {
  const otherKeys = new Set(other.map(memberKey));
  return side.map((member) => ({
    name: name(member),
    memberId: member.memberId,
    change: otherKeys.has(memberKey(member)) ? 'stayed' : missing,
  }));
}

/** Partitions moved among these members; null when an entry has no readable member id or assignment. */
function movedBetween(before: readonly StoredMember[], after: readonly StoredMember[]): number | null {
  const assigned = (members: readonly StoredMember[]): AssignedMember[] | null => {
    const result: AssignedMember[] = [];
    for (const m of members) {
      if (m.memberId === null || m.assignment === null) return null;
      result.push({ memberId: m.memberId, assignment: m.assignment });
    }
    return result;
  };
  const a = assigned(before);
  const b = assigned(after);
  return a && b ? countMoved(a, b) : null;
}

/** Row ids are int64 decimal strings: shorter is smaller. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

import type { GroupMember } from '../../lib/kafka/cluster-observation';
import { countMoved } from '../../lib/rebalances/partitions-moved';
import { triggerOf, type RebalanceTrigger } from '../../lib/rebalances/rebalance-trigger';
// Rebalances of any consumer group, inferred from what describeGroups shows at successive sampler rounds.
// Pure: one tracker per group, fed one observation per round.
//
// What samples can and cannot tell:
// - A rebalance is seen when the group is caught in a rebalancing state (PreparingRebalance,
//   CompletingRebalance), or when two settled samples (Stable or Empty) differ in members or assignment.
// - Its start and end are only bounded: it began after the last settled sample before it and ended before
//   the first settled sample after it, so the duration is an upper bound ("at most").
// - Two rebalances between the same two samples look like one; one that changed nothing is invisible.
// - Nothing is reported for a rebalance already in progress when tracking starts (its start is unknown).
// - The trigger is the likely one (lib/rebalances/rebalance-trigger.ts): a member that left while its lagging
//   partitions had not committed for `silenceMs` most likely stopped heartbeating (timeout); otherwise a
//   departure is a clean leave. Members are told apart by member id only: a member that came back under a new
//   id (a restart, a rebuilt client) left and joined, even with the same client id and host.
// - A described rebalance never contradicts itself: members, partitions moved and trigger all come from the
//   same two settled observations, and the trigger is 'unknown' only when nothing visible changed.

export type { RebalanceTrigger };

export interface PartitionProgress {
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  lag: bigint | null;
}

export interface GroupObservation {
  groupId: string;
  atMs: number;
  state: string;
  members: GroupMember[];
  /** The group's partitions this round: evidence for telling a timeout from a clean leave. */
  partitions: PartitionProgress[];
}

export interface InferredRebalance {
  groupId: string;
  /** The last settled sample before the rebalance: it started after this. */
  startedAtMs: number;
  /** The first settled sample after it: it had ended by then. */
  endedAtMs: number;
  /** An upper bound: endedAtMs - startedAtMs. */
  durationMs: number;
  membersBefore: GroupMember[];
  membersAfter: GroupMember[];
  membersJoined: string[];
  membersLeft: string[];
  /** Partitions whose owner changed, including ones that became owned or unowned. */
  partitionsMoved: number;
  trigger: RebalanceTrigger;
  /** Rebalancing states seen in between, in order; empty when it happened entirely between two samples. */
  statesSeen: string[];
}

export interface RebalanceTracker {
  previousAtMs: number;
  /** The last settled observation. */
  settled: GroupObservation | null;
  /** A rebalance seen in progress: it started after `afterMs`. */
  open: { afterMs: number; before: GroupObservation | null; statesSeen: string[]; silentMembers: string[] } | null;
  /** Per partition: when it last showed progress (its commit moved or it had no lag). */
  progressAtMs: Map<string, number>;
  lastCommitted: Map<string, bigint | null>;
}

export const DEFAULT_SILENCE_MS = 10_000;

const SETTLED = new Set(['Stable', 'Empty']);
const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * Feeds one observation to a group's tracker (undefined for a group seen for the first time). Returns the
 * tracker to keep (null once the group is Dead: forget it) and the rebalance this observation completed.
 */
export function trackGroup(
  tracker: RebalanceTracker | undefined,
  observation: GroupObservation,
  options: { silenceMs?: number } = {},
): { tracker: RebalanceTracker | null; rebalance: InferredRebalance | null } {
  const silenceMs = options.silenceMs ?? DEFAULT_SILENCE_MS;
  if (observation.state === 'Dead') return { tracker: null, rebalance: null };
  const settled = SETTLED.has(observation.state);

  if (tracker === undefined || observation.atMs <= tracker.previousAtMs) {
    if (tracker !== undefined) return { tracker, rebalance: null }; // a stale or repeated observation
    const fresh: RebalanceTracker = {
      previousAtMs: observation.atMs,
      settled: settled ? observation : null,
      open: null,
      progressAtMs: new Map(),
      lastCommitted: new Map(),
    };
    recordProgress(fresh, observation);
    return { tracker: fresh, rebalance: null };
  }

  let rebalance: InferredRebalance | null = null;
  if (!settled) {
    if (tracker.open === null) {
      tracker.open = {
        afterMs: tracker.previousAtMs,
        before: tracker.settled,
        statesSeen: [],
        silentMembers: silentMembers(tracker, tracker.settled, tracker.previousAtMs, silenceMs),
      };
    }
    if (tracker.open.statesSeen[tracker.open.statesSeen.length - 1] !== observation.state)
      tracker.open.statesSeen.push(observation.state);
  } else if (tracker.open !== null) {
    const { afterMs, before, statesSeen, silentMembers: silent } = tracker.open;
    if (before !== null)
      rebalance = describeRebalance(observation.groupId, before, observation, afterMs, statesSeen, silent);
    tracker.open = null;
  } else if (tracker.settled !== null && changed(tracker.settled, observation)) {
    const silent = silentMembers(tracker, tracker.settled, tracker.previousAtMs, silenceMs);
    rebalance = describeRebalance(observation.groupId, tracker.settled, observation, tracker.previousAtMs, [], silent);
  }

  if (settled) tracker.settled = observation;
  tracker.previousAtMs = observation.atMs;
  recordProgress(tracker, observation);
  return { tracker, rebalance };
}

function describeRebalance(
  groupId: string,
  before: GroupObservation,
  after: GroupObservation,
  startedAtMs: number,
  statesSeen: string[],
  silent: string[],
): InferredRebalance {
  const beforeIds = new Set(before.members.map((m) => m.memberId));
  const afterIds = new Set(after.members.map((m) => m.memberId));
  const membersJoined = [...afterIds].filter((id) => !beforeIds.has(id)).sort();
  const membersLeft = [...beforeIds].filter((id) => !afterIds.has(id)).sort();
  const partitionsMoved = countMoved(before.members, after.members);
  const trigger = triggerOf({
    joined: membersJoined.length,
    left: membersLeft.length,
    leftSilently: membersLeft.some((id) => silent.includes(id)),
    partitionsMoved,
  });
  return {
    groupId,
    startedAtMs,
    endedAtMs: after.atMs,
    durationMs: after.atMs - startedAtMs,
    membersBefore: before.members,
    membersAfter: after.members,
    membersJoined,
    membersLeft,
    partitionsMoved,
    trigger,
    statesSeen,
  };
}

/** Whether two settled observations differ in state, members or who owns which partition. */
function changed(a: GroupObservation, b: GroupObservation): boolean {
  if (a.state !== b.state) return true;
  const idsA = a.members
    .map((m) => m.memberId)
    .sort()
    .join('\u0000');
  const idsB = b.members
    .map((m) => m.memberId)
    .sort()
    .join('\u0000');
  return idsA !== idsB || countMoved(a.members, b.members) > 0;
}

/**
 * Members of `settled` that own at least one lagging partition and none of whose lagging partitions showed
 * progress within `silenceMs` before `asOfMs`: consumers that had most likely stopped.
 */
function silentMembers(
  tracker: RebalanceTracker,
  settled: GroupObservation | null,
  asOfMs: number,
  silenceMs: number,
): string[] {
  if (settled === null) return [];
  const lagging = new Set(
    settled.partitions.filter((p) => p.lag !== null && p.lag > 0n).map((p) => tpKey(p.topic, p.partition)),
  );
  const silent: string[] = [];
  for (const member of settled.members) {
    const owned = Object.entries(member.assignment).flatMap(([topic, partitions]) =>
      partitions.map((p) => tpKey(topic, p)),
    );
    const laggingOwned = owned.filter((key) => lagging.has(key));
    if (laggingOwned.length === 0) continue;
    if (laggingOwned.every((key) => (tracker.progressAtMs.get(key) ?? asOfMs) <= asOfMs - silenceMs))
      silent.push(member.memberId);
  }
  return silent;
}

function recordProgress(tracker: RebalanceTracker, observation: GroupObservation): void {
  for (const p of observation.partitions) {
    const key = tpKey(p.topic, p.partition);
    const previous = tracker.lastCommitted.get(key);
    const firstSight = !tracker.progressAtMs.has(key);
    const moved = previous !== undefined && previous !== p.committedOffset;
    if (firstSight || moved || p.lag === 0n) tracker.progressAtMs.set(key, observation.atMs);
    tracker.lastCommitted.set(key, p.committedOffset);
  }
}

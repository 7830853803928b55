// Member restarts of a consumer group, found in its rebalance history (rebalance_event rows of source
// 'describe-groups': the whole group's members before and after each rebalance the sampler inferred).
// Pure: the caller loads the rows; nothing here reads a clock.
//
// Definitions (what "restart" means here, precisely):
// - A client instance is identified by (clientId, clientHost): what describeGroups shows of a member besides
//   its member id. Kafka hands out a member id at every join, so a member id only lives as long as one session.
// - A restart is a member id that left the group and a member of the same identity that joined, no more than
//   `rejoinWithinMs` apart (measured between the outer bounds of the two rebalances: the first one's start,
//   the second one's end, so the gap is never underestimated). It is found in three shapes:
//   (a) left and joined within one rebalance (the process restarted between two sampler rounds);
//   (b) left in one rebalance, joined in a later one (a clean shutdown, then a start);
//   (c) joined while the old member id was still in the group, and the old id was dropped later (a crash: the
//       new process joined before the old session timed out). Only a member that was already in the group
//       when the new one joined can be the one it replaced.
//   Within a rebalance, leaves and joins of one identity pair up first; then joins pair with earlier
//   departures (oldest first); then leaves pair with earlier arrivals that were waiting for their old id to go.
// - withNewMemberId: it came back under a different member id (an id that left and came back is the same
//   session, e.g. the sampler saw it missing; that is a restart without a new id).
// - staticMember: the new member id starts with something other than its client id. Kafka builds a member id
//   as `<group.instance.id or client.id>-<UUID>`, and gives a static member (KIP-345, group.instance.id) a new
//   member id at every join too; a static member that restarts within its session timeout gets its partitions
//   back without a rebalance. So a new id alone does not show that static membership is missing: an id
//   prefixed by an instance id shows that it is in use. (An instance id equal to the client id cannot be told
//   apart: such a restart counts as dynamic.)
// - Counted over a window by the time the restart completed (the later rebalance's end), so a departure up to
//   `rejoinWithinMs` before the window still pairs with a rejoin inside it: load rows from
//   `fromMs - rejoinWithinMs`.
// - Not counted: a join with no departure of the same identity (a new member: scale-out, first start), a
//   departure never followed by a rejoin within the window (scale-in), and anything the history does not hold
//   (rebalances between sampler rounds that changed nothing, sampler outages). Identities shared by several
//   members at once (one process, several consumers with one client id) pair up in member-id order, which may
//   pair the wrong two of them but counts the same number of restarts.

export interface MemberIdentity {
  memberId: string;
  clientId: string;
  clientHost: string;
}

export interface RebalanceMembership {
  startedAtMs: number;
  endedAtMs: number;
  membersBefore: readonly MemberIdentity[];
  membersAfter: readonly MemberIdentity[];
}

export interface MemberRestart {
  clientId: string;
  clientHost: string;
  leftMemberId: string;
  joinedMemberId: string;
  /** The earliest the old member id can have left (its rebalance's start). */
  leftAtMs: number;
  /** When the restart was complete: the end of the later of the two rebalances. */
  completedAtMs: number;
  withNewMemberId: boolean;
  staticMember: boolean;
}

export interface MemberRestartCounts {
  restarts: number;
  restartsWithNewMemberId: number;
  /** Restarts whose new member id carries a group.instance.id: static membership is in use. */
  staticMemberRestarts: number;
}

/** A restarted process has this long to rejoin; longer looks like a scale-in followed by a scale-out. */
export const DEFAULT_REJOIN_WITHIN_MS = 5 * 60_000;

const UUID = /^(.+)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a member id shows a group.instance.id: `<prefix>-<UUID>` with a prefix other than the client id. */
export function looksStatic(member: MemberIdentity): boolean {
  const match = UUID.exec(member.memberId);
  return match !== null && match[1] !== member.clientId;
}

interface Pending {
  member: MemberIdentity;
  atMs: number;
  /** Arrivals only: member ids of the same identity already in the group when it joined. */
  replaces?: ReadonlySet<string>;
}

const identityOf = (m: { clientId: string; clientHost: string }) => `${m.clientId}\u0000${m.clientHost}`;
const byMemberId = (a: MemberIdentity, b: MemberIdentity) =>
  a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;

/**
 * Every restart in `rebalances` (any order; sorted by start here). Throws RangeError for a negative or
 * non-finite `rejoinWithinMs`.
 */
export function findMemberRestarts(
  rebalances: readonly RebalanceMembership[],
  options: { rejoinWithinMs?: number } = {},
): MemberRestart[] {
  const rejoinWithinMs = options.rejoinWithinMs ?? DEFAULT_REJOIN_WITHIN_MS;
  if (!Number.isFinite(rejoinWithinMs) || rejoinWithinMs < 0)
    throw new RangeError(`rejoinWithinMs must be a finite number >= 0, got ${rejoinWithinMs}`);
  const rows = [...rebalances].sort((a, b) => a.startedAtMs - b.startedAtMs || a.endedAtMs - b.endedAtMs);
  const departures = new Map<string, Pending[]>();
  const arrivals = new Map<string, Pending[]>();
  const restarts: MemberRestart[] = [];

  const restart = (left: MemberIdentity, joined: MemberIdentity, leftAtMs: number, completedAtMs: number) =>
    restarts.push({
      clientId: joined.clientId,
      clientHost: joined.clientHost,
      leftMemberId: left.memberId,
      joinedMemberId: joined.memberId,
      leftAtMs,
      completedAtMs,
      withNewMemberId: left.memberId !== joined.memberId,
      staticMember: left.memberId !== joined.memberId && looksStatic(joined),
    });

  for (const row of rows) {
    const before = new Map(row.membersBefore.map((m) => [m.memberId, m]));
    const after = new Map(row.membersAfter.map((m) => [m.memberId, m]));
    const left = [...before.values()].filter((m) => !after.has(m.memberId)).sort(byMemberId);
    const joined = [...after.values()].filter((m) => !before.has(m.memberId)).sort(byMemberId);
    const identities = new Set([...left, ...joined].map(identityOf));

    for (const identity of identities) {
      const leftHere = left.filter((m) => identityOf(m) === identity);
      const joinedHere = joined.filter((m) => identityOf(m) === identity);
      const waitingDepartures = (departures.get(identity) ?? []).filter(
        (d) => row.endedAtMs - d.atMs <= rejoinWithinMs,
      );
      // An arrival that has left itself replaces nobody any more.
      const waitingArrivals = (arrivals.get(identity) ?? []).filter(
        (a) => row.endedAtMs - a.atMs <= rejoinWithinMs && !leftHere.some((m) => m.memberId === a.member.memberId),
      );

      // An id that left earlier and is back: the same session, seen missing.
      for (const member of [...joinedHere]) {
        const index = waitingDepartures.findIndex((d) => d.member.memberId === member.memberId);
        if (index < 0) continue;
        restart(waitingDepartures[index]!.member, member, waitingDepartures[index]!.atMs, row.endedAtMs);
        waitingDepartures.splice(index, 1);
        joinedHere.splice(joinedHere.indexOf(member), 1);
      }
      // (a) within this rebalance.
      while (leftHere.length > 0 && joinedHere.length > 0)
        restart(leftHere.shift()!, joinedHere.shift()!, row.startedAtMs, row.endedAtMs);
      // (b) a join after an earlier departure, oldest departure first.
      while (joinedHere.length > 0 && waitingDepartures.length > 0) {
        const departure = waitingDepartures.shift()!;
        restart(departure.member, joinedHere.shift()!, departure.atMs, row.endedAtMs);
      }
      // (c) a leave of an id that an earlier arrival of the same identity was waiting to replace.
      for (const member of [...leftHere]) {
        const index = waitingArrivals.findIndex((a) => a.replaces?.has(member.memberId));
        if (index < 0) continue;
        restart(member, waitingArrivals[index]!.member, waitingArrivals[index]!.atMs, row.endedAtMs);
        waitingArrivals.splice(index, 1);
        leftHere.splice(leftHere.indexOf(member), 1);
      }

      for (const member of leftHere) waitingDepartures.push({ member, atMs: row.startedAtMs });
      // A join while other members of its identity stay in the group may be a replacement for one of them.
      const staying = [...after.values()]
        .filter((m) => identityOf(m) === identity && before.has(m.memberId))
        .map((m) => m.memberId);
      if (staying.length > 0)
        for (const member of joinedHere)
          waitingArrivals.push({ member, atMs: row.startedAtMs, replaces: new Set(staying) });
      departures.set(identity, waitingDepartures);
      arrivals.set(identity, waitingArrivals);
    }
  }
  return restarts.sort((a, b) => a.completedAtMs - b.completedAtMs);
}

/**
 * Restarts completed within [fromMs, toMs] (see the definitions above). Rows should start no earlier than
 * `fromMs - rejoinWithinMs`; older ones change nothing.
 */
export function countMemberRestarts(
  rebalances: readonly RebalanceMembership[],
  options: { fromMs: number; toMs: number; rejoinWithinMs?: number },
): MemberRestartCounts {
  const inWindow = findMemberRestarts(rebalances, options).filter(
    (r) => r.completedAtMs >= options.fromMs && r.completedAtMs <= options.toMs,
  );
  return {
    restarts: inWindow.length,
    restartsWithNewMemberId: inWindow.filter((r) => r.withNewMemberId).length,
    staticMemberRestarts: inWindow.filter((r) => r.staticMember).length,
  };
}

/**
 * The members of a stored members_before / members_after column. Entries that are not objects with string
 * memberId, clientId and clientHost (older or foreign shapes) are left out: they cannot be matched.
 */
export function parseStoredMembers(value: unknown): MemberIdentity[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): MemberIdentity[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { memberId, clientId, clientHost } = entry as Record<string, unknown>;
    return typeof memberId === 'string' && typeof clientId === 'string' && typeof clientHost === 'string'
      ? [{ memberId, clientId, clientHost }]
      : [];
  });
}

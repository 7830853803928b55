// Partitions a rebalance moved, from the group's assignment before and after it. Pure. The sampler's
// inference and the rebalance history both count with this one function, so a number shown for a rebalance
// always means the same thing.

export interface AssignedMember {
  memberId: string;
  /** Partitions per topic. */
  assignment: Readonly<Record<string, readonly number[]>>;
}

const tpKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * Partitions whose owner (member id) changed, including ones that became owned or unowned. A member that
 * rejoined under a new member id owns its partitions anew: they count as moved (they were revoked and
 * assigned again).
 */
export function countMoved(before: readonly AssignedMember[], after: readonly AssignedMember[]): number {
  const ownersBefore = owners(before);
  const ownersAfter = owners(after);
  let moved = 0;
  for (const key of new Set([...ownersBefore.keys(), ...ownersAfter.keys()])) {
    if (ownersBefore.get(key) !== ownersAfter.get(key)) moved += 1;
  }
  return moved;
}

function owners(members: readonly AssignedMember[]): Map<string, string> {
  const result = new Map<string, string>();
  for (const member of members) {
    for (const [topic, partitions] of Object.entries(member.assignment)) {
      for (const partition of partitions) result.set(tpKey(topic, partition), member.memberId);
    }
  }
  return result;
}

// Why a group rebalanced, as far as the group's membership and assignment before and after can tell. Pure.

/**
 * - 'join' / 'leave': a member id appeared / disappeared (a member that rejoined under a new id is both: a
 *   leave and a join, reported as the leave);
 * - 'timeout': a member left that had stopped committing its lagging partitions (expelled, not a clean leave);
 * - 'assignment': the same members, a different assignment (partitions added to a topic, a subscription
 *   change, or a member that came and went between two samples);
 * - 'unknown': nothing visible changed, or only one member's own view of the rebalance is known.
 */
export type RebalanceTrigger = 'join' | 'leave' | 'timeout' | 'assignment' | 'unknown';

/**
 * The trigger of a change of the group's settled state. Consistent by construction: 'unknown' only when no
 * member joined or left and no partition moved, so a row never says "unknown" next to moved partitions.
 */
export function triggerOf(change: {
  joined: number;
  left: number;
  /** One of the members that left had gone silent before (see rebalance-inference.ts). */
  leftSilently: boolean;
  partitionsMoved: number;
}): RebalanceTrigger {
  if (change.left > 0) return change.leftSilently ? 'timeout' : 'leave';
  if (change.joined > 0) return 'join';
  if (change.partitionsMoved > 0) return 'assignment';
  return 'unknown';
}

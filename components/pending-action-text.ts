import type { DisplayZone } from '@/lib/charts/axis';
import { formatClock } from './format';

// Where an operator's pending action stands on its way to the instance that applies it: Warden's worker relays
// it from the database to the cluster's command topic (relayedAt), and only the live instance that owns the
// partition applies it; one nobody owns waits in every instance until it expires (expiresAt).

export interface PendingActionPlace {
  groupId: string;
  topic: string;
  partition: number;
  /**
   * The live instance that owns the partition by its newest report; null when none does; undefined when the
   * caller does not know (a list of actions without their partitions' owners).
   */
  liveOwner: string | null | undefined;
}

/**
 * "waiting for a Warden worker to send it" (not relayed yet), "sent; waiting for orders@h/42 to apply it" (a live
 * instance owns the partition) or "no live instance of orders owns in-3: it waits, and expires at 06:29:01
 * unless an owner appears", the expiry in the viewer's zone like the page's other times.
 */
export function describePendingAction(
  place: PendingActionPlace,
  action: { relayedAt: string | null; expiresAt: string | null },
  zone: DisplayZone,
): string {
  const partition = `${place.topic}-${place.partition}`;
  if (action.relayedAt === null) return 'waiting for a Warden worker to send it';
  if (place.liveOwner === undefined) return `sent; waiting for the instance that owns ${partition} to apply it`;
  if (place.liveOwner !== null) return `sent; waiting for ${place.liveOwner} to apply it`;
  const waits =
    action.expiresAt === null
      ? 'it waits until an owner appears'
      : `it waits, and expires at ${formatClock(action.expiresAt, zone)} unless an owner appears`;
  return `no live instance of ${place.groupId} owns ${partition}: ${waits}`;
}

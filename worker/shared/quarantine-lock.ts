/**
 * The key of the per-partition advisory lock (pg_advisory_xact_lock(hashtextextended(key, 0))) under which every
 * partition_quarantine change runs (worker/control/quarantine-store.ts): a hold a consumer reports and the lift
 * of an operator action's outcome are written one after the other, so a hold reported after an action always
 * sees its outcome, even when two instances' reports are ingested at once.
 */
export function quarantineLockKey(cluster: string, groupId: string, topic: string, partition: number): string {
  return `quarantine/${cluster}/${groupId}/${topic}-${partition}`;
}

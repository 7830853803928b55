/**
 * The key of the per-partition advisory lock (pg_advisory_xact_lock(hashtextextended(key, 0))) that orders a
 * quarantine save (worker/pipeline/quarantine-store.ts) against an operator action's lift
 * (worker/commands/operator-action-poller.ts): a hold reported after an action always sees its outcome.
 */
export function quarantineLockKey(cluster: string, groupId: string, topic: string, partition: number): string {
  return `quarantine/${cluster}/${groupId}/${topic}-${partition}`;
}

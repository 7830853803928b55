'use client';

import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import type { TQuarantinesResponse } from '@/lib/schemas/quarantines';
import { commandStateOf } from '@/lib/schemas/values';
import { useTimeZone } from './display-preferences';
import { describePendingAction } from './pending-action-text';
import './recent-actions-card.css';

/**
 * The recent Resume / Skip / Seek requests and what became of each; a pending one says whose turn it is, from
 * the live owner the held partitions' list names. Nothing while there is none.
 */
export function RecentActionsCard({
  actions,
  quarantines,
}: {
  actions: readonly TOperatorAction[];
  quarantines: TQuarantinesResponse | undefined;
}) {
  if (actions.length === 0) return null;
  const liveOwnerOf = liveOwnerLookup(quarantines);
  return (
    <section className="card recent" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recent actions</h2>
      <ul aria-live="polite">
        {actions.map((a) => (
          <ActionProgress key={a.id} action={a} liveOwner={liveOwnerOf(a)} />
        ))}
      </ul>
    </section>
  );
}

/**
 * The live owner of an action's partition as the held partitions' list says it; undefined for a partition the
 * list does not hold (no longer quarantined), whose owner the page does not know.
 */
function liveOwnerLookup(data: TQuarantinesResponse | undefined) {
  const owners = new Map((data?.quarantines ?? []).map((q) => [placeKey(q), q.liveOwner] as const));
  return (a: TOperatorAction): string | null | undefined => owners.get(placeKey(a));
}

function placeKey(p: { cluster: string; groupId: string; topic: string; partition: number }): string {
  return JSON.stringify([p.cluster, p.groupId, p.topic, p.partition]);
}

function ActionProgress({ action: a, liveOwner }: { action: TOperatorAction; liveOwner: string | null | undefined }) {
  const state = commandStateOf(a.status);
  const zone = useTimeZone();
  return (
    <li className={`command command-${state}`} data-testid="command-progress" data-state={state} data-id={a.id}>
      <span className={`badge badge-cmd-${state}`}>{state.replace('_', ' ')}</span>{' '}
      <strong>
        {a.action} {a.topic}-{a.partition}
      </strong>{' '}
      <span className="muted">
        #{a.id} by {a.requestedBy}
      </span>{' '}
      — {a.outcome ?? (a.status === 'pending' ? describePendingAction({ ...a, liveOwner }, a, zone) : a.status)}
    </li>
  );
}

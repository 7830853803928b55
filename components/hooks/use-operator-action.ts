'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TActionRequest, TOperatorAction } from '@/lib/schemas/operator-actions';
import type { TQuarantinesResponse } from '@/lib/schemas/quarantines';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

export interface ActionTarget {
  cluster: string;
  groupId: string;
  topic: string;
  partition: number;
}

/**
 * While an action is pending or a resumed record is being retried, the Quarantine page polls this often, so
 * the worker's outcome shows within a second of being applied (a poll interval plus one request).
 */
export const ACTION_FOLLOW_MS = 500;

/** Whether anything on the Quarantine page is waiting for a worker (then it polls every ACTION_FOLLOW_MS). */
export function awaitsWorker(
  quarantines: TQuarantinesResponse | undefined,
  recent: readonly Pick<TOperatorAction, 'status'>[] | undefined,
): boolean {
  return (
    (quarantines?.quarantines ?? []).some((q) => q.pendingAction !== null || q.retrying !== null) ||
    (recent ?? []).some((a) => a.status === 'pending')
  );
}

/** The quarantine list with `command` as the pending action of its partition (before the next poll says so). */
export function withPendingAction(
  data: TQuarantinesResponse | undefined,
  command: TOperatorAction,
): TQuarantinesResponse | undefined {
  if (!data) return data;
  return {
    quarantines: data.quarantines.map((q) =>
      q.cluster === command.cluster &&
      q.groupId === command.groupId &&
      q.topic === command.topic &&
      q.partition === command.partition
        ? { ...q, pendingAction: command }
        : q,
    ),
  };
}

/**
 * POSTs an operator action. On success the card's buttons turn disabled at once (the pending action is put
 * into the cached quarantine list), and every view it can change (quarantines, audit, the group) refetches.
 */
export function useOperatorAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ target, request }: { target: ActionTarget; request: TActionRequest }) =>
      fetchJson(
        groupApiPath(
          target.groupId,
          target.cluster,
          `/partitions/${encodeURIComponent(target.topic)}/${target.partition}/actions`,
        ),
        'operatorAction',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        },
      ),
    onSuccess: async (command) => {
      await client.cancelQueries({ queryKey: queryKeys.quarantines() });
      client.setQueryData<TQuarantinesResponse>(queryKeys.quarantines(), (data) => withPendingAction(data, command));
    },
    onSettled: (_data, _error, { target }) => {
      void client.invalidateQueries({ queryKey: queryKeys.quarantines() });
      void client.invalidateQueries({ queryKey: queryKeys.audit() });
      void client.invalidateQueries({ queryKey: queryKeys.group(target.cluster, target.groupId) });
    },
  });
}

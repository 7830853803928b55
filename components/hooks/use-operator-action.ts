'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZCommand, ZOperatorAction, type TActionRequest } from '@/lib/schemas/operator-actions';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

export interface ActionTarget {
  groupId: string;
  topic: string;
  partition: number;
}

/**
 * POSTs an operator action; on success every view it can change (quarantines, audit, the group) refetches.
 * The answer is the pending command; useCommand follows it to its outcome.
 */
export function useOperatorAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ target, request }: { target: ActionTarget; request: TActionRequest }) =>
      fetchJson(
        `${groupApiPath(target.groupId)}/partitions/${encodeURIComponent(target.topic)}/${target.partition}/actions`,
        ZOperatorAction,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        },
      ),
    onSettled: (_data, _error, { target }) => {
      void client.invalidateQueries({ queryKey: queryKeys.quarantines() });
      void client.invalidateQueries({ queryKey: queryKeys.audit() });
      void client.invalidateQueries({ queryKey: queryKeys.group(target.groupId) });
    },
  });
}

/** Follows GET /api/commands/{id} every second until the command is applied or failed. */
export function useCommand(id: string) {
  const client = useQueryClient();
  return useQuery({
    queryKey: queryKeys.command(id),
    queryFn: async ({ signal }) => {
      const command = await fetchJson(`/api/commands/${id}`, ZCommand, { signal });
      if (command.state !== 'pending') {
        void client.invalidateQueries({ queryKey: queryKeys.quarantines() });
        void client.invalidateQueries({ queryKey: queryKeys.audit() });
        void client.invalidateQueries({ queryKey: queryKeys.group(command.groupId) });
      }
      return command;
    },
    refetchInterval: (query) =>
      query.state.data?.state === 'pending' || query.state.data === undefined ? 1_000 : false,
  });
}

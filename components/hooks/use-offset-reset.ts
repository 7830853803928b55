'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TOffsetResetRequest } from '@/lib/schemas/offset-reset';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/** POSTs an offset reset of `groupId` in `cluster`; afterwards the group's views and the audit log refetch. */
export function useOffsetReset(cluster: string, groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TOffsetResetRequest) =>
      fetchJson(groupApiPath(groupId, cluster, '/offsets/reset'), 'offsetReset', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.group(cluster, groupId) });
      void client.invalidateQueries({ queryKey: queryKeys.audit() });
    },
  });
}

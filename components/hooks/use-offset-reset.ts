'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZOffsetResetResult, type TOffsetResetRequest } from '@/lib/schemas/offset-reset';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/** POSTs an offset reset; afterwards the group's views and the audit log refetch. */
export function useOffsetReset(groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TOffsetResetRequest) =>
      fetchJson(`${groupApiPath(groupId)}/offsets/reset`, ZOffsetResetResult, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      }),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.group(groupId) });
      void client.invalidateQueries({ queryKey: queryKeys.audit() });
    },
  });
}

'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TLossAcknowledgeRequest } from '@/lib/schemas/record-losses';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * POSTs an acknowledgement of one record-loss episode of `groupId` in `cluster` (operator role, with a reason).
 * Settled either way, every view it can change refetches: the group and its advice, the overview (the group
 * leaves LOST), and the audit log (which lists the acknowledgement).
 */
export function useAcknowledgeLoss(cluster: string, groupId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ lossId, request }: { lossId: string; request: TLossAcknowledgeRequest }) =>
      fetchJson(
        groupApiPath(groupId, cluster, `/losses/${encodeURIComponent(lossId)}/acknowledge`),
        'recordLossOfGroup',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
        },
      ),
    onSettled: () => {
      // ['groups'] holds the overview's pages and, under the group's key, its detail, advice and charts.
      void client.invalidateQueries({ queryKey: queryKeys.groups() });
      void client.invalidateQueries({ queryKey: queryKeys.audit() });
    },
  });
}

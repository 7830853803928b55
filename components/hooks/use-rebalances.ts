'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '../api-client';
import { queryKeys, REBALANCE_HISTORY_LIMIT } from '../query-keys';

/**
 * Polls GET /api/rebalances of one cluster, for one group or all, once `enabled`; a server-rendered answer
 * (the Rebalances page's) counts as fresh for one poll.
 */
export function useRebalances(
  refreshMs: number,
  cluster: string,
  groupId?: string,
  limit = REBALANCE_HISTORY_LIMIT,
  enabled = true,
) {
  const query = new URLSearchParams({ cluster, limit: String(limit), ...(groupId ? { groupId } : {}) });
  const intervalMs = Math.max(refreshMs, 5_000);
  return useQuery({
    queryKey: queryKeys.rebalances(cluster, groupId),
    queryFn: ({ signal }) => fetchJson(`/api/rebalances?${query}`, 'rebalances', { signal }),
    refetchInterval: intervalMs,
    staleTime: intervalMs,
    enabled,
  });
}

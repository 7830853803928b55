'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/rebalances of one cluster, for one group or all, once `enabled`. */
export function useRebalances(refreshMs: number, cluster: string, groupId?: string, limit = 200, enabled = true) {
  const query = new URLSearchParams({ cluster, limit: String(limit), ...(groupId ? { groupId } : {}) });
  return useQuery({
    queryKey: queryKeys.rebalances(cluster, groupId),
    queryFn: ({ signal }) => fetchJson(`/api/rebalances?${query}`, 'rebalances', { signal }),
    refetchInterval: Math.max(refreshMs, 5_000),
    enabled,
  });
}

'use client';

import { useQuery } from '@tanstack/react-query';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * Polls GET /api/quarantine every `refreshMs` (the page passes a shorter interval while it awaits a worker);
 * the page's server prefetch is fresh as long.
 */
export function useQuarantines(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.quarantines(),
    queryFn: ({ signal }) => fetchJson('/api/quarantine', 'quarantines', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
  });
}

/** The records around a quarantine's held offset, read from the broker when the operator asks (`enabled`). */
export function useRecordsAround(
  target: { groupId: string; topic: string; partition: number; offset: string },
  enabled: boolean,
) {
  // Quarantines are the worker's own pipeline's, on the default cluster.
  const path = groupApiPath(
    target.groupId,
    DEFAULT_CLUSTER,
    `/partitions/${encodeURIComponent(target.topic)}/${target.partition}/records`,
  );
  return useQuery({
    queryKey: [...queryKeys.quarantines(), 'around', target.groupId, target.topic, target.partition, target.offset],
    queryFn: ({ signal }) => fetchJson(path, 'recordsAround', { signal }),
    enabled,
  });
}

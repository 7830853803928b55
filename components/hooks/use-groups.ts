'use client';

import { useQuery } from '@tanstack/react-query';
import { ZGroupsResponse } from '@/lib/schemas/groups';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/groups. */
export function useGroups(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.groups(),
    queryFn: ({ signal }) => fetchJson('/api/groups', ZGroupsResponse, { signal }),
    refetchInterval: refreshMs,
  });
}

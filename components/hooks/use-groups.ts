'use client';

import { useQuery } from '@tanstack/react-query';
import { ZGroupsResponse, type TGroupsResponse } from '@/lib/schemas/groups';

export const groupsQueryKey = ['groups'] as const;

/** Polls GET /api/groups; a response that does not match the shared schema is an error, not data. */
export function useGroups(refreshMs: number) {
  return useQuery<TGroupsResponse>({
    queryKey: groupsQueryKey,
    queryFn: async ({ signal }) => {
      const response = await fetch('/api/groups', { signal, cache: 'no-store' });
      if (!response.ok) throw new Error(`GET /api/groups answered ${response.status}`);
      return ZGroupsResponse.parse(await response.json());
    },
    refetchInterval: refreshMs,
  });
}

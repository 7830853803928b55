'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZGroupsResponse, type TGroupsQueryInput } from '@/lib/schemas/groups';
import { fetchJson } from '../api-client';
import { overviewSearch } from '../overview-query';
import { queryKeys } from '../query-keys';

/** Polls one page of GET /api/groups for the query (filters, sort, page); the last page stays shown while the next loads. */
export function useGroups(query: TGroupsQueryInput, refreshMs: number) {
  const search = overviewSearch(query);
  return useQuery({
    queryKey: [...queryKeys.groups(), 'list', search],
    queryFn: ({ signal }) => fetchJson(`/api/groups${search ? `?${search}` : ''}`, ZGroupsResponse, { signal }),
    refetchInterval: refreshMs,
    placeholderData: keepPreviousData,
  });
}

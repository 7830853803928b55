'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchJson } from '../api-client';
import { groupsApiPath, overviewRequest, type OverviewView } from '../overview-view';
import { queryKeys } from '../query-keys';

/**
 * Polls GET /api/groups for the view's page. While another page, filter or order loads, the last one stays on
 * screen (placeholder data) instead of a loading state. The server render (app/page.tsx) fills the first
 * view's page; that answer counts as fresh for one poll, so hydration does not ask again at once.
 */
export function useGroups(view: OverviewView, refreshMs: number) {
  const request = overviewRequest(view);
  return useQuery({
    queryKey: queryKeys.groupsPage(request),
    queryFn: ({ signal }) => fetchJson(groupsApiPath(request), 'groups', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
    placeholderData: keepPreviousData,
  });
}

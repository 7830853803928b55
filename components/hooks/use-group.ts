'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TLagRange } from '@/lib/schemas/groups';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * Polls GET /api/groups/{groupId}?cluster=. A 404 is final: no retry. The page's server render may have
 * filled it (page.tsx); that answer counts as fresh for one poll, so hydration does not ask again at once.
 */
export function useGroup(cluster: string, groupId: string, refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.group(cluster, groupId),
    queryFn: ({ signal }) => fetchJson(groupApiPath(groupId, cluster), 'groupDetail', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
    retry: (count, error) => (error as { status?: number }).status !== 404 && count < 1,
  });
}

/** Polls GET /api/groups/{groupId}/lag for a chart range once `enabled`; long ranges refresh less often. */
export function useLagSeries(cluster: string, groupId: string, range: TLagRange, refreshMs: number, enabled = true) {
  const long = range === '24h' || range === '7d';
  return useQuery({
    queryKey: queryKeys.groupLag(cluster, groupId, range),
    queryFn: ({ signal }) => fetchJson(groupApiPath(groupId, cluster, '/lag', { range }), 'lagSeries', { signal }),
    refetchInterval: long ? Math.max(refreshMs, 60_000) : Math.max(refreshMs, 5_000),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Polls GET /api/groups/{groupId}/advice; a server-rendered answer (page.tsx) counts as fresh for one poll. */
export function useGroupAdvice(cluster: string, groupId: string, refreshMs: number) {
  const intervalMs = Math.max(refreshMs, 5_000);
  return useQuery({
    queryKey: queryKeys.groupAdvice(cluster, groupId),
    queryFn: ({ signal }) => fetchJson(groupApiPath(groupId, cluster, '/advice'), 'groupAdvice', { signal }),
    refetchInterval: intervalMs,
    staleTime: intervalMs,
  });
}

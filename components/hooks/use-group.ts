'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ZGroupAdvice } from '@/lib/schemas/advice';
import { ZGroupDetail, ZLagSeries, type TLagRange } from '@/lib/schemas/groups';
import { fetchJson, groupApiPath } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/groups/{groupId}. A 404 is final: no retry. */
export function useGroup(groupId: string, refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.group(groupId),
    queryFn: ({ signal }) => fetchJson(groupApiPath(groupId), ZGroupDetail, { signal }),
    refetchInterval: refreshMs,
    retry: (count, error) => (error as { status?: number }).status !== 404 && count < 1,
  });
}

/** Polls GET /api/groups/{groupId}/lag for a chart range; long ranges refresh less often. */
export function useLagSeries(groupId: string, range: TLagRange, refreshMs: number) {
  const long = range === '24h' || range === '7d';
  return useQuery({
    queryKey: queryKeys.groupLag(groupId, range),
    queryFn: ({ signal }) => fetchJson(`${groupApiPath(groupId)}/lag?range=${range}`, ZLagSeries, { signal }),
    refetchInterval: long ? Math.max(refreshMs, 60_000) : Math.max(refreshMs, 5_000),
    placeholderData: keepPreviousData,
  });
}

/** Polls GET /api/groups/{groupId}/advice. */
export function useGroupAdvice(groupId: string, refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.groupAdvice(groupId),
    queryFn: ({ signal }) => fetchJson(`${groupApiPath(groupId)}/advice`, ZGroupAdvice, { signal }),
    refetchInterval: Math.max(refreshMs, 5_000),
  });
}

'use client';

import { useQuery } from '@tanstack/react-query';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/attention (the top bar's counts) every `refreshMs`; the layout's prefetch is fresh as long. */
export function useAttention(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.attention(),
    queryFn: ({ signal }) => fetchJson('/api/attention', 'attention', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
  });
}

'use client';

import { useQuery } from '@tanstack/react-query';
import { ZQuarantinesResponse } from '@/lib/schemas/quarantines';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/quarantine every `refreshMs` (the page passes a shorter interval while it awaits a worker). */
export function useQuarantines(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.quarantines(),
    queryFn: ({ signal }) => fetchJson('/api/quarantine', ZQuarantinesResponse, { signal }),
    refetchInterval: refreshMs,
  });
}

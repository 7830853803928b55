'use client';

import { useQuery } from '@tanstack/react-query';
import { ZAuditResponse } from '@/lib/schemas/operator-actions';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/audit. */
export function useAudit(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.audit(),
    queryFn: ({ signal }) => fetchJson('/api/audit?limit=500', ZAuditResponse, { signal }),
    refetchInterval: refreshMs,
  });
}

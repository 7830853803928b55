'use client';

import { useQuery } from '@tanstack/react-query';
import type { TAuditKindFilter } from '@/lib/schemas/access-events';
import { ZAuditResponse } from '@/lib/schemas/operator-actions';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/audit, filtered by kind (undefined: operator actions and access events). */
export function useAudit(refreshMs: number, kind?: TAuditKindFilter) {
  const query = new URLSearchParams({ limit: '500', ...(kind ? { kind } : {}) });
  return useQuery({
    queryKey: [...queryKeys.audit(), kind ?? 'all'],
    queryFn: ({ signal }) => fetchJson(`/api/audit?${query.toString()}`, ZAuditResponse, { signal }),
    refetchInterval: refreshMs,
  });
}

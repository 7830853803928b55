'use client';

import { useQuery } from '@tanstack/react-query';
import type { TAuditKindFilter } from '@/lib/schemas/access-events';
import { fetchJson } from '../api-client';
import { AUDIT_LOG_LIMIT, queryKeys, RECENT_ACTIONS_SHOWN } from '../query-keys';

/**
 * Polls GET /api/audit, filtered by kind (undefined: operator actions and access events) and cluster
 * (undefined: every cluster); the Audit page's server-rendered answer counts as fresh for one poll.
 */
export function useAudit(refreshMs: number, kind?: TAuditKindFilter, cluster?: string) {
  const query = new URLSearchParams({
    limit: String(AUDIT_LOG_LIMIT),
    ...(kind ? { kind } : {}),
    ...(cluster ? { cluster } : {}),
  });
  return useQuery({
    queryKey: queryKeys.auditLog(kind, cluster),
    queryFn: ({ signal }) => fetchJson(`/api/audit?${query.toString()}`, 'audit', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
  });
}

/**
 * Polls the newest operator actions (GET /api/audit?limit=10) every `refreshMs`; the page's server prefetch is
 * fresh as long.
 */
export function useRecentActions(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.recentActions(),
    queryFn: ({ signal }) => fetchJson(`/api/audit?limit=${RECENT_ACTIONS_SHOWN}`, 'audit', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
  });
}

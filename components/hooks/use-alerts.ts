'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSilenceRequest } from '@/lib/schemas/alerts';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/**
 * Polls GET /api/alerts of every cluster, or of `cluster` (`?cluster=`). Every cluster's is one query the
 * group page, the overview and the Alerts page share (the first two prefetch it on the server; it is fresh for
 * `refreshMs`); a cluster's is the Alerts page's own.
 */
export function useAlerts(refreshMs: number, cluster?: string) {
  const url = cluster ? `/api/alerts?${new URLSearchParams({ cluster }).toString()}` : '/api/alerts';
  return useQuery({
    queryKey: queryKeys.alertsOf(cluster || undefined),
    queryFn: ({ signal }) => fetchJson(url, 'alerts', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
  });
}

const post = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function useCreateSilence() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TSilenceRequest) => fetchJson('/api/alerts/silences', 'silence', post(request)),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.alerts() }),
  });
}

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alertId: string) =>
      fetchJson(`/api/alerts/${encodeURIComponent(alertId)}/acknowledge`, 'acknowledgement', post({})),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.alerts() }),
  });
}

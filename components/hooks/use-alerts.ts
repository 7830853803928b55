'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZAlertsResponse, ZSilence, type TSilenceRequest } from '@/lib/schemas/alerts';
import { fetchJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** Polls GET /api/alerts (the page, the nav count, the group page and the overview share one query). */
export function useAlerts(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.alerts(),
    queryFn: ({ signal }) => fetchJson('/api/alerts', ZAlertsResponse, { signal }),
    refetchInterval: refreshMs,
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
    mutationFn: (request: TSilenceRequest) => fetchJson('/api/alerts/silences', ZSilence, post(request)),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.alerts() }),
  });
}

const ZAcknowledged = z.object({ alertId: z.string(), acknowledgedBy: z.string(), acknowledgedAt: z.string() });

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (alertId: string) =>
      fetchJson(`/api/alerts/${encodeURIComponent(alertId)}/acknowledge`, ZAcknowledged, post({})),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.alerts() }),
  });
}

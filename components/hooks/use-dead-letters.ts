'use client';

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TDeadLetterFilter, TRedriveControl, TRedriveRequest } from '@/lib/schemas/dead-letters';
import { fetchJson, loadBrowserSchema } from '../api-client';
import { filterParams, type DeadLetterFilterForm } from '../dead-letter-filter';
import { queryKeys } from '../query-keys';

/** The filter as a redrive request carries it; rejects with an Error naming the first bad field. */
export async function filterBody(filter: DeadLetterFilterForm): Promise<TDeadLetterFilter> {
  const { sourcePartition, ...rest } = Object.fromEntries(filterParams(filter));
  const parsed = (await loadBrowserSchema('deadLetterFilter')).safeParse({
    ...rest,
    ...(sourcePartition === undefined ? {} : { sourcePartition: Number(sourcePartition) }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(issue ? `${issue.path.map(String).join('.')}: ${issue.message}` : 'the filter is invalid');
}

/**
 * One page of dead letters for the filter, from `cursor` (undefined: the newest). The page's server render fills
 * the newest page, the counts and the jobs (app/dead-letters/page.tsx); each counts as fresh for one poll.
 */
export function useDeadLetters(filter: DeadLetterFilterForm, cursor: string | undefined, refreshMs: number) {
  const params = filterParams(filter);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return useQuery({
    queryKey: queryKeys.deadLetters(query),
    queryFn: ({ signal }) => fetchJson(`/api/dead-letters?${query}`, 'deadLetters', { signal }),
    refetchInterval: refreshMs,
    staleTime: refreshMs,
    placeholderData: keepPreviousData,
  });
}

export function useDeadLetterCounts(refreshMs: number) {
  const intervalMs = Math.max(refreshMs, 10_000);
  return useQuery({
    queryKey: queryKeys.deadLetterCounts(),
    queryFn: ({ signal }) => fetchJson('/api/dead-letters/counts', 'deadLetterCounts', { signal }),
    refetchInterval: intervalMs,
    staleTime: intervalMs,
  });
}

/** Poll interval while a redrive is pending or running, so its progress moves visibly. */
export const REDRIVE_FOLLOW_MS = 1_000;

/** Redrive jobs; polled every `refreshMs`, or every REDRIVE_FOLLOW_MS while one is pending or running. */
export function useRedrives(refreshMs: number) {
  return useQuery({
    queryKey: queryKeys.redrives(),
    queryFn: ({ signal }) => fetchJson('/api/dead-letters/redrives', 'redriveJobs', { signal }),
    refetchInterval: (query) =>
      query.state.data?.jobs.some((j) => j.status === 'pending' || j.status === 'running')
        ? Math.min(REDRIVE_FOLLOW_MS, refreshMs)
        : refreshMs,
    staleTime: refreshMs,
  });
}

/** How many records a redrive of the filter would send (the count the confirmation names); only when `enabled`. */
export function useMatches(filter: DeadLetterFilterForm, enabled: boolean) {
  const query = filterParams(filter).toString();
  return useQuery({
    queryKey: queryKeys.deadLetterMatches(query),
    queryFn: ({ signal }) => fetchJson(`/api/dead-letters/matches?${query}`, 'deadLetterMatches', { signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

const postJson = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function useRequestRedrive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TRedriveRequest) => fetchJson('/api/dead-letters/redrives', 'redriveJob', postJson(request)),
    onSettled: () => void client.invalidateQueries({ queryKey: ['dead-letters'] }),
  });
}

export function useControlRedrive() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, control }: { id: string; control: TRedriveControl }) =>
      fetchJson(`/api/dead-letters/redrives/${encodeURIComponent(id)}`, 'redriveJob', postJson(control)),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.redrives() }),
  });
}

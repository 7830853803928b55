'use client';

import { hashKey, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * What the query cache holds under `key`, kept current as other components' queries update it, without
 * creating, observing or fetching that query. A query created here, empty, ahead of a page's
 * HydrationBoundary would make the boundary defer that page's prefetched data to an effect, which never runs
 * on the server: the data would be missing from the first HTML and arrive after hydration.
 */
export function useCachedQuery<T>(key: QueryKey): { data: T; updatedAt: number } | undefined {
  const client = useQueryClient();
  const subscribe = useCallback((onChange: () => void) => client.getQueryCache().subscribe(onChange), [client]);
  // The query's state object is replaced on every change and kept otherwise: a stable snapshot.
  const hash = hashKey(key);
  const read = () => client.getQueryCache().get<T>(hash)?.state;
  const state = useSyncExternalStore(subscribe, read, read);
  return state?.data === undefined ? undefined : { data: state.data, updatedAt: state.dataUpdatedAt };
}

'use client';

import { useSearchParams } from 'next/navigation';
import { useCallback, useState } from 'react';

/**
 * A view setting kept in the page's query string (`?sort=totalLag&q=orders`), so a link shares the view and
 * coming back to the page restores it. Read once when the page mounts (server render and hydration agree);
 * after that the component's state leads and each change is written to the URL with `history.replaceState`,
 * so typing a filter neither adds a history entry per key nor waits on the router. A value `accept` refuses
 * (a hand-edited URL) reads as `fallback`, and setting `fallback` removes the parameter: the plain URL stays
 * the default view.
 */
export function useUrlParam<T extends string>(
  name: string,
  fallback: T,
  accept: (value: string) => value is T,
): [T, (value: T) => void] {
  const given = useSearchParams().get(name);
  const [value, setValue] = useState<T>(() => (given !== null && accept(given) ? given : fallback));
  const set = useCallback(
    (next: T) => {
      setValue(next);
      const url = new URL(window.location.href);
      if (next === fallback) url.searchParams.delete(name);
      else url.searchParams.set(name, next);
      window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    },
    [name, fallback],
  );
  return [value, set];
}

/** Any non-empty text (a filter, a name the data decides). */
export const anyText = (value: string): value is string => value !== '';

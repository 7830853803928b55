'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { changeOverviewView, overviewView, searchWithView, type OverviewView } from './overview-view';

/**
 * The overview's view, kept in its URL (overview-view.ts) so a link shares it and coming back restores it.
 * Read when the page mounts (server render and hydration agree); after that the component's state leads and
 * each change is written to the URL as use-url-param.ts writes it, without waiting on the router: a move to
 * another page as a history entry of its own, any other change in place of the current one. Back and forward
 * between the overview's own entries read the view from the URL again.
 */
export function useOverviewView(clusters: readonly string[]): [OverviewView, (change: Partial<OverviewView>) => void] {
  const pathname = usePathname();
  const params = useSearchParams();
  const [view, setView] = useState(() => overviewView(params, clusters));
  // The view the next change applies to: a debounced change may land after others, and must not undo them.
  const latest = useRef(view);

  useEffect(() => {
    const onPopState = () => {
      // Back to another page's entry: that page replaces this one; its URL is no overview view.
      if (window.location.pathname !== pathname) return;
      const restored = overviewView(new URLSearchParams(window.location.search), clusters);
      latest.current = restored;
      setView(restored);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [pathname, clusters]);

  const change = useCallback((patch: Partial<OverviewView>) => {
    const { view: next, history } = changeOverviewView(latest.current, patch);
    latest.current = next;
    setView(next);
    const url = new URL(window.location.href);
    const search = searchWithView(url.search, next);
    if (search === url.search) return;
    const href = `${url.pathname}${search}${url.hash}`;
    // The router's own state object: Next.js leaves a history entry written with it to the page.
    if (history === 'push') window.history.pushState(window.history.state, '', href);
    else window.history.replaceState(window.history.state, '', href);
  }, []);

  return [view, change];
}

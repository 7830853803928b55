'use client';

import type { ReactNode } from 'react';
import { refreshState, type PollingQuery } from './refresh-state';
import { useTimeZone } from './display-preferences';
import { useHydrated } from './use-hydrated';
import './states.css';

// Loading, error and empty states, the same everywhere so an on-call engineer learns them once.

export function LoadingState({ label }: { label: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

/** A failed load. With stale data still on screen, says so: old numbers must never pass for live ones. */
export function ErrorState({
  error,
  what,
  hasStaleData = false,
}: {
  error: Error;
  what: string;
  hasStaleData?: boolean;
}) {
  return (
    <p role="alert" className="banner banner-error">
      <strong>Could not load {what}:</strong> {error.message}.{' '}
      {hasStaleData ? 'The data below is from the last successful refresh.' : 'Retrying automatically.'}
    </p>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty" role="status">
      <p className="state-title">{title}</p>
      {children ? <div className="muted">{children}</div> : null}
    </div>
  );
}

/** The page header's liveness (components/refresh-state.ts): live, refreshing, or stale since a time, in warning colour. */
export function RefreshIndicator({ query, refreshMs }: { query: PollingQuery; refreshMs: number }) {
  const hydrated = useHydrated();
  const zone = useTimeZone();
  // Nothing is polling until the page has hydrated, so the server's HTML claims no liveness. It could not
  // anyway: the hydrating render sees the prefetched data older than its stale time once hydration takes
  // longer than one refresh interval (a slow phone, a busy machine), says "Refreshing…" where the server said
  // "Live", and that one text difference makes React re-render the whole page on the client (use-hydrated.tsx).
  if (!hydrated) return <span className="refresh muted" aria-live="polite" data-testid="refresh-state" />;
  const { tone, text } = refreshState(query, refreshMs, zone);
  return (
    <span
      className={`refresh refresh-${tone} ${tone === 'stale' ? '' : 'muted'}`}
      aria-live="polite"
      data-testid="refresh-state"
      data-tone={tone}
    >
      <span className={`dot dot-${tone}`} aria-hidden="true" />
      {text}
    </span>
  );
}

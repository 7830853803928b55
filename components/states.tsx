import type { ReactNode } from 'react';
import { refreshState, type PollingQuery } from './refresh-state';

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
  const { tone, text } = refreshState(query, refreshMs);
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

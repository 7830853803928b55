import type { ReactNode } from 'react';

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

/** "Refreshes every 3 s" / "Refreshing…", announced politely. */
export function RefreshIndicator({ isFetching, refreshMs }: { isFetching: boolean; refreshMs: number }) {
  return (
    <span className="refresh muted" aria-live="polite">
      <span className={`dot ${isFetching ? 'dot-live' : ''}`} aria-hidden="true" />
      {isFetching ? 'Refreshing…' : `Live · every ${Math.max(1, Math.round(refreshMs / 1000))} s`}
    </span>
  );
}

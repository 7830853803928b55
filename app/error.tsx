'use client';

import { AppLink } from '@/components/app-link';

/**
 * A page that threw while rendering: said plainly, in the dashboard's layout, with a retry. The message is
 * the framework's digest in production (no server detail reaches the browser).
 */
export default function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="card error-page" aria-labelledby="error-heading" role="alert">
      <h1 id="error-heading">This page failed to load</h1>
      <p className="muted">
        Something went wrong while showing it{error.digest ? ` (reference ${error.digest})` : ''}. The data is not
        affected; try again, or go back to the overview.
      </p>
      <p className="toolbar">
        <button type="button" className="button" onClick={reset}>
          Try again
        </button>
        <AppLink href="/">← Overview</AppLink>
      </p>
    </section>
  );
}

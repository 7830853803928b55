import type { Metadata } from 'next';
import { AppLink } from '@/components/app-link';

export const metadata: Metadata = { title: 'Page not found' };

/** Any path no page answers: in the dashboard's own layout and theme, with the way back. */
export default function NotFound() {
  return (
    <section className="card error-page" aria-labelledby="not-found-heading" data-testid="not-found">
      <h1 id="not-found-heading">Page not found</h1>
      <p className="muted">
        Nothing lives at this address. A consumer group&apos;s page is at /groups/&lt;group id&gt;; every group the
        sampler sees is on the overview.
      </p>
      <p>
        <AppLink href="/">← Back to the overview</AppLink>
      </p>
    </section>
  );
}

import Link from 'next/link';
import type { ComponentProps } from 'react';

/**
 * Every link between the dashboard's pages. None is prefetched: every page renders per request from live data,
 * so a prefetch renders the linked page's layout on the server (a session read and the top bar's counts) and
 * decodes it in the browser while this page starts up, for a navigation that fetches fresh data anyway. A lint
 * rule (eslint.config.mjs) keeps `next/link` out of every other module, so no link prefetches by default.
 */
export function AppLink(props: Omit<ComponentProps<typeof Link>, 'prefetch'>) {
  return <Link {...props} prefetch={false} />;
}

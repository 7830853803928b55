'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import { useAlerts } from './hooks/use-alerts';
import { useQuarantines } from './hooks/use-quarantines';

const LINKS = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' || p.startsWith('/groups') },
  { href: '/quarantine', label: 'Quarantine', match: (p: string) => p.startsWith('/quarantine') },
  { href: '/dead-letters', label: 'Dead letters', match: (p: string) => p.startsWith('/dead-letters') },
  { href: '/rebalances', label: 'Rebalances', match: (p: string) => p.startsWith('/rebalances') },
  { href: '/alerts', label: 'Alerts', match: (p: string) => p.startsWith('/alerts') },
  { href: '/audit', label: 'Audit', match: (p: string) => p.startsWith('/audit') },
];

/** The main navigation; the Quarantine and Alerts links carry the live counts of held partitions and firing alerts. */
export function MainNav({ refreshMs }: { refreshMs: number }) {
  const pathname = usePathname() ?? '/';
  const quarantines = useQuarantines(Math.max(refreshMs, 5_000));
  const held = quarantines.data?.quarantines.length ?? 0;
  const alerts = useAlerts(Math.max(refreshMs, 5_000));
  const firing = alerts.data?.open.filter((a) => a.phase === 'firing').length ?? 0;
  // Below 720 px the links fold behind a Menu button (CSS); a navigation closes it.
  const [open, setOpen] = useState(false);
  return (
    <nav aria-label="Main" className={`main-nav${open ? ' main-nav-open' : ''}`}>
      <button
        type="button"
        className="button button-small nav-toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="nav-toggle"
      >
        Menu{held + firing > 0 ? ` (${held + firing})` : ''}
      </button>
      {/* Not prefetched: every page renders per request from live data, so prefetching the top bar's links would
          render the linked pages on the server at every page load and decode them while this page starts up,
          for navigations that fetch fresh data anyway. */}
      {LINKS.map((link) => {
        const active = link.match(pathname);
        return (
          <Link
            key={link.href}
            href={link.href}
            prefetch={false}
            className={active ? 'active' : undefined}
            aria-current={active ? 'page' : undefined}
            onClick={() => setOpen(false)}
          >
            {link.label}
            {link.href === '/quarantine' && held > 0 ? (
              <span className="nav-count" aria-label={`${held} quarantined`}>
                {held}
              </span>
            ) : null}
            {link.href === '/alerts' && firing > 0 ? (
              <span className="nav-count" aria-label={`${firing} firing`}>
                {firing}
              </span>
            ) : null}
          </Link>
        );
      })}
    </nav>
  );
}

'use client';

import { AppLink } from './app-link';
import { usePathname } from 'next/navigation';
import { useState } from 'react';
import type { TAlertsResponse } from '@/lib/schemas/alerts';
import type { TQuarantinesResponse } from '@/lib/schemas/quarantines';
import { useAttention } from './hooks/use-attention';
import { useCachedQuery } from './hooks/use-cached-query';
import { queryKeys } from './query-keys';
import './main-nav.css';

const LINKS = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' || p.startsWith('/groups') },
  { href: '/quarantine', label: 'Quarantine', match: (p: string) => p.startsWith('/quarantine') },
  { href: '/dead-letters', label: 'Dead letters', match: (p: string) => p.startsWith('/dead-letters') },
  { href: '/rebalances', label: 'Rebalances', match: (p: string) => p.startsWith('/rebalances') },
  { href: '/alerts', label: 'Alerts', match: (p: string) => p.startsWith('/alerts') },
  { href: '/audit', label: 'Audit', match: (p: string) => p.startsWith('/audit') },
];

interface Answer {
  count: number;
  at: number;
}

/**
 * The count of the newest answer: the top bar's own (GET /api/attention) or the list a page on screen polls
 * (faster while it follows an operator action), so the bar never contradicts the list below it.
 */
function newestCount(own: Answer, list: Answer | undefined): number {
  return list !== undefined && list.at > own.at ? list.count : own.count;
}

/** The main navigation; the Quarantine and Alerts links carry the live counts of held partitions and firing alerts. */
export function MainNav({ refreshMs }: { refreshMs: number }) {
  const pathname = usePathname() ?? '/';
  const attention = useAttention(Math.max(refreshMs, 5_000));
  // Read from the cache only: the lists are fetched by the pages that show them, never for the counts.
  const quarantines = useCachedQuery<TQuarantinesResponse>(queryKeys.quarantines());
  const alerts = useCachedQuery<TAlertsResponse>(queryKeys.alerts());
  const at = attention.dataUpdatedAt;
  const held = newestCount(
    { count: attention.data?.quarantinedPartitions ?? 0, at },
    quarantines && { count: quarantines.data.quarantines.length, at: quarantines.updatedAt },
  );
  const firing = newestCount(
    { count: attention.data?.firingAlerts ?? 0, at },
    alerts && { count: alerts.data.open.filter((a) => a.phase === 'firing').length, at: alerts.updatedAt },
  );
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
      {LINKS.map((link) => {
        const active = link.match(pathname);
        return (
          <AppLink
            key={link.href}
            href={link.href}
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
          </AppLink>
        );
      })}
    </nav>
  );
}

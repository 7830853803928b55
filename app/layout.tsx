import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { AppLink } from '@/components/app-link';
import type { ReactNode } from 'react';
import { DisplayPreferences } from '@/components/display-preferences';
import { MainNav } from '@/components/main-nav';
import { queryKeys } from '@/components/query-keys';
import { SessionProvider, type SessionUser } from '@/components/session-context';
import { UserMenu } from '@/components/user-menu';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAttention } from '@/lib/schemas/attention';
import { countAttention } from '@/lib/server/count-attention';
import { serverDatabase } from '@/lib/server/database';
import { Providers } from './providers';
import { requestPrincipal } from './request-principal';
import { prefetchQuery } from './server-prefetch';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Warden', template: '%s · Warden' },
  description: 'Kafka consumer lag in time and offsets, quarantines, rebalances and capacity advice.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Only the name and role reach the browser; proxy.ts already sent anyone without a session to /sign-in.
  const principal = await requestPrincipal();
  const user: SessionUser | null = principal ? { name: principal.name, role: principal.role } : null;
  // The top bar's counts in the first HTML: no request for them while the page starts, and no badge popping in.
  const counts = new QueryClient();
  if (user) await prefetchQuery(counts, queryKeys.attention(), ZAttention, () => countAttention(serverDatabase()));
  return (
    // The theme attribute is set after hydration from the viewer's stored choice (display-preferences.tsx).
    <html lang="en" suppressHydrationWarning>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers>
          <SessionProvider user={user}>
            <header className="topbar">
              <AppLink className="brand" href="/">
                <span className="brand-mark" aria-hidden="true">
                  ◆
                </span>
                Warden
              </AppLink>
              {user ? (
                <>
                  <HydrationBoundary state={dehydrate(counts)}>
                    <MainNav refreshMs={loadDashboardConfig().UI_REFRESH_MS} />
                  </HydrationBoundary>
                  <UserMenu />
                </>
              ) : null}
              <DisplayPreferences />
            </header>
            <main className="page" id="main">
              {children}
            </main>
          </SessionProvider>
        </Providers>
      </body>
    </html>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { MainNav } from '@/components/main-nav';
import { loadConfig } from '@/lib/config';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Warden', template: '%s · Warden' },
  description: 'Kafka consumer lag in time and offsets, quarantines, rebalances and capacity advice.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers>
          <header className="topbar">
            <Link className="brand" href="/">
              <span className="brand-mark" aria-hidden="true">
                ◆
              </span>
              Warden
            </Link>
            <MainNav refreshMs={loadConfig().UI_REFRESH_MS} />
          </header>
          <main className="page" id="main">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}

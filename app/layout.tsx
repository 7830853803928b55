import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: 'Warden',
  description: 'Kafka consumer lag, quarantines and rebalances, in time and in offsets.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a className="brand" href="/">
            Warden
          </a>
          <nav aria-label="Main">
            <a href="/">Consumer groups</a>
          </nav>
        </header>
        <Providers>
          <main className="page">{children}</main>
        </Providers>
      </body>
    </html>
  );
}

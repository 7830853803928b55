import type { Metadata } from 'next';
import type { ReactNode } from 'react';

// The yardstick of `npm run lighthouse -- --reference`: a page of the same Next.js and React as the dashboard,
// rendered per request like the dashboard's, with one client component to hydrate and nothing else.
export const metadata: Metadata = { title: 'Reference page' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

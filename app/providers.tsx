'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';

// zod probes whether it may compile parsers with `new Function`; under the Content-Security-Policy (no
// 'unsafe-eval') the probe is blocked and reported as a violation. Parsing without compilation is as correct,
// and fast enough for API answers, so the browser never probes.
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } } }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

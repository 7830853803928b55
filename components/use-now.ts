'use client';

import { useEffect, useState } from 'react';

/** The viewer's clock, re-rendering every `tickMs` (ages like "12 s ago" stay true between polls). */
export function useNow(tickMs = 1_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}

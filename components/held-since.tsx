'use client';

import type { DisplayZone } from '@/lib/charts/axis';
import { formatDateTime, formatHeldSince } from './format';
import { useNow } from './use-now';

/** "held since 06:21:01 (4 min 10 s)", its duration kept true by the shared clock. */
export function HeldSince({ since, zone }: { since: string; zone: DisplayZone }) {
  const now = useNow();
  return (
    <time dateTime={since} title={formatDateTime(since, zone)}>
      {formatHeldSince(since, now, zone)}
    </time>
  );
}

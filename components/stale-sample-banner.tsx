'use client';

import { formatAge } from '@/lib/format';
import { isStale } from './format';
import { useNow } from './use-now';

/**
 * The group page's stale warning, re-checked every second on its own (the page around it renders only on new
 * data). Until the browser's clock runs (server render and hydration) it is judged on the server's clock when
 * the detail was read, the same in both renders, so a stale group says so in the first paint instead of after
 * hydration.
 */
export function StaleSampleBanner({
  sampledAt,
  sampleIntervalMs,
  idleStoreMs,
  serverReadAt,
}: {
  sampledAt: string;
  sampleIntervalMs: number;
  idleStoreMs: number;
  serverReadAt: number;
}) {
  const now = useNow() ?? serverReadAt;
  if (!isStale(sampledAt, now, sampleIntervalMs, idleStoreMs)) return null;
  return (
    <p className="banner banner-warn" role="status">
      <strong>Stale:</strong> last sampled {formatAge(sampledAt, now)}. The sampler is down or no longer sees this
      group; the numbers below are from that sample.
    </p>
  );
}

'use client';

import { formatAge } from '@/lib/format';
import { isStale } from './format';
import { useNow } from './use-now';

/** An overview row's sample age and stale mark, the only part of a row that changes with the clock. */
export function SampledCell({
  sampledAt,
  sampleIntervalMs,
  idleStoreMs,
}: {
  sampledAt: string;
  sampleIntervalMs: number;
  idleStoreMs: number;
}) {
  const now = useNow();
  const stale = now !== null && isStale(sampledAt, now, sampleIntervalMs, idleStoreMs);
  return (
    <td className={stale ? undefined : 'muted'}>
      {now === null ? null : formatAge(sampledAt, now)}
      {stale ? (
        <span className="pill pill-warn" title="No newer sample: the sampler is down or no longer sees this group">
          stale
        </span>
      ) : null}
    </td>
  );
}

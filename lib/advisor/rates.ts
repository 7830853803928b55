// Arrival and consumption rates of one partition from its stored samples.

import { assertTimeOrdered } from '../lag/partition-status';

export interface OffsetSample {
  atMs: number;
  committedOffset: number;
  logEndOffset: number;
}

export interface RateEstimate {
  /** Log-end offset growth per second; null with fewer than two usable samples or a zero time span. */
  arrivalRatePerSec: number | null;
  /** Committed offset growth per second; null when arrivalRatePerSec is. */
  consumptionRatePerSec: number | null;
  /**
   * True when the consumer provably never ran out of records during the measured span, so the consumption
   * rate measures its capacity; false means the consumption rate is only a lower bound of the capacity.
   */
  hadBacklogThroughout: boolean;
  /** Time between the first and last sample used. */
  spanMs: number;
  /** Samples used. */
  sampleCount: number;
}

/**
 * Rates over the last `windowMs` of `samples` (oldest first), ending at the newest sample (pure: no clock).
 *
 * Decisions:
 * - The window holds the samples with atMs >= newest.atMs - windowMs.
 * - A log-end or committed offset that moves backwards (topic recreated, offsets reset, consumer rewound)
 *   restarts the measurement after it: deltas across a reset mean nothing.
 * - "Had backlog throughout" needs, for every interval between consecutive samples, fewer records committed
 *   than were already waiting at its start (committed delta < lag at the start). Then the records waiting at
 *   the start were never exhausted, so the consumer was never idle. Merely "lag > 0 at every sample" is not
 *   enough: a consumer that keeps up with a busy partition always shows a small positive lag.
 * Throws RangeError for windowMs <= 0, non-finite numbers or samples out of time order.
 */
export function estimateRates(samples: readonly OffsetSample[], windowMs: number): RateEstimate {
  if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`windowMs must be > 0, got ${windowMs}`);
  assertTimeOrdered(samples);

  const newest = samples[samples.length - 1];
  if (newest === undefined)
    return {
      arrivalRatePerSec: null,
      consumptionRatePerSec: null,
      hadBacklogThroughout: false,
      spanMs: 0,
      sampleCount: 0,
    };

  let start = samples.length - 1;
  while (start > 0) {
    const previous = samples[start - 1] as OffsetSample;
    const current = samples[start] as OffsetSample;
    if (previous.atMs < newest.atMs - windowMs) break;
    if (current.logEndOffset < previous.logEndOffset || current.committedOffset < previous.committedOffset) break;
    start -= 1;
  }
  const used = samples.slice(start);
  const first = used[0] as OffsetSample;
  const spanMs = newest.atMs - first.atMs;
  if (used.length < 2 || spanMs === 0) {
    return {
      arrivalRatePerSec: null,
      consumptionRatePerSec: null,
      hadBacklogThroughout: false,
      spanMs,
      sampleCount: used.length,
    };
  }

  const hadBacklogThroughout = used.slice(1).every((sample, i) => {
    const previous = used[i] as OffsetSample;
    return sample.committedOffset - previous.committedOffset < previous.logEndOffset - previous.committedOffset;
  });
  return {
    arrivalRatePerSec: ((newest.logEndOffset - first.logEndOffset) * 1000) / spanMs,
    consumptionRatePerSec: ((newest.committedOffset - first.committedOffset) * 1000) / spanMs,
    hadBacklogThroughout,
    spanMs,
    sampleCount: used.length,
  };
}

// Exponential backoff with full jitter ("sleep = random(0, min(cap, base * 2^(attempt-1)))").
// Full jitter spreads retries of many failing records instead of synchronising them against a recovering
// dependency; the price is that a single delay may be short, never longer than the cap.

import type { Random } from './types.js';

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 100, maxMs: 30_000 };

export function validateBackoff(policy: BackoffPolicy): void {
  const { baseMs, maxMs } = policy;
  if (!Number.isFinite(baseMs) || baseMs < 0) throw new RangeError(`retry.baseMs must be >= 0, got ${baseMs}`);
  if (!Number.isFinite(maxMs) || maxMs < baseMs) throw new RangeError(`retry.maxMs must be >= baseMs, got ${maxMs}`);
}

/**
 * How a delay is drawn below its ceiling: 'full' uniformly in [0, ceiling) (retries of many records spread
 * out), 'equal' in [ceiling / 2, ceiling] (a periodic loop that must not come back at once, yet should not
 * run in lockstep with its peers).
 */
export type BackoffJitter = 'full' | 'equal';

/**
 * The longest delay before retry number `attempt` (1 = the first retry after the first failure):
 * min(maxMs, baseMs * 2^(attempt-1)). Attempts below 1 count as 1; huge attempts stay at the cap. Used
 * as the delay itself where no jitter is wanted.
 */
export function backoffCeilingMs(attempt: number, policy: BackoffPolicy): number {
  validateBackoff(policy);
  if (Number.isNaN(attempt)) throw new RangeError('attempt must be a number');
  const exponent = Math.min(Math.max(Math.floor(attempt), 1) - 1, 1023);
  return policy.baseMs === 0 ? 0 : Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}

/**
 * Delay before retry number `attempt`, drawn below `backoffCeilingMs` by `jitter`: with 'full' an integer
 * in [0, ceiling), with 'equal' the ceiling scaled by [0.5, 1] and rounded. A `random` outside [0, 1) is
 * clamped (NaN counts as 0), so a faulty source cannot exceed the cap.
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: Random,
  jitter: BackoffJitter = 'full',
): number {
  const ceiling = backoffCeilingMs(attempt, policy);
  const draw = random();
  const finite = Number.isFinite(draw) ? draw : 0;
  if (jitter === 'equal') return Math.round(ceiling * (0.5 + 0.5 * Math.min(Math.max(finite, 0), 1)));
  return Math.floor(Math.min(Math.max(finite, 0), 1 - Number.EPSILON) * ceiling);
}

// Exponential backoff with full jitter ("sleep = random(0, min(cap, base * 2^(attempt-1)))").
// Full jitter spreads retries of many failing records instead of synchronising them against a recovering
// dependency; the price is that a single delay may be short, never longer than the cap.

import type { Random } from './types';

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
 * Delay before retry number `attempt` (1 = the first retry after the first failure), an integer in
 * [0, min(maxMs, baseMs * 2^(attempt-1))). Attempts below 1 count as 1; huge attempts stay at the cap.
 * A `random` outside [0, 1) is clamped, so a faulty source cannot exceed the cap.
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: Random): number {
  validateBackoff(policy);
  if (Number.isNaN(attempt)) throw new RangeError('attempt must be a number');
  const exponent = Math.min(Math.max(Math.floor(attempt), 1) - 1, 1023);
  const ceiling = policy.baseMs === 0 ? 0 : Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  const draw = random();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * ceiling);
}

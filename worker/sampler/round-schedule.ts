import { backoffDelayMs } from '@warden/consumer';

// When the sampler's next round starts. Pure.

export interface RoundScheduleInput {
  /** Rounds failed in a row (0 after a success). */
  consecutiveFailures: number;
  intervalMs: number;
  maxBackoffMs: number;
  /** How long the round that just ended took. */
  roundDurationMs: number;
  /** Uniform in [0, 1). */
  random: () => number;
}

/**
 * After a success: the rest of the interval (rounds start every interval; a round longer than the interval
 * is followed at once, never overlapped). After failures: exponential backoff from the interval, doubling per
 * failure up to `maxBackoffMs`, with jitter in [half, full] so several workers do not retry in lockstep.
 * A failing cluster is therefore asked at most about once per interval at first and then ever more rarely.
 */
export function nextRoundDelayMs(input: RoundScheduleInput): number {
  const { consecutiveFailures, intervalMs, maxBackoffMs, roundDurationMs } = input;
  if (!(intervalMs > 0) || !(maxBackoffMs > 0))
    throw new RangeError(`intervalMs and maxBackoffMs must be > 0, got ${intervalMs} and ${maxBackoffMs}`);
  if (!Number.isInteger(consecutiveFailures) || consecutiveFailures < 0) {
    throw new RangeError(`consecutiveFailures must be an integer >= 0, got ${consecutiveFailures}`);
  }
  if (consecutiveFailures === 0) return Math.max(0, intervalMs - Math.max(0, roundDurationMs));
  // Starting from min(interval, cap) keeps the policy valid when the interval is above the cap; the
  // ceilings are the same: min(cap, interval · 2^(n-1)).
  const policy = { baseMs: Math.min(intervalMs, maxBackoffMs), maxMs: maxBackoffMs };
  return backoffDelayMs(consecutiveFailures, policy, input.random, 'equal');
}

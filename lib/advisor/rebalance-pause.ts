// The pause a change of the consumer count costs: while the group rebalances nothing is processed, and
// records keep arriving. Pure: the caller loads the group's merged rebalances (lib/rebalances/merge-rebalances.ts).
//
// Rule: the longest of the group's newest PAUSE_HISTORY_REBALANCES rebalances, the longest because a plan
// must not promise a catch-up the next rebalance makes late. Measured ones (a Warden member's own stop) come
// first; when no member measured any, the sampler's inferred ones count with their bound (the rebalance ended
// between two samples, so its length is at most that span: the pause may be shorter); with neither, a stated
// default. The pause never shrinks below what was measured: a client with long polls (every member must
// rejoin at its next poll) or a large group simply shows longer pauses in its history.

import { formatDuration, plural } from '../format';

export interface RebalanceDuration {
  endedAtMs: number;
  durationMs: number;
  /** True when no Warden member measured it: the duration is an upper bound between two samples. */
  durationIsBound: boolean;
}

export interface RebalancePause {
  sec: number;
  basis: 'measured' | 'sampled-bound' | 'default';
  /** Rebalances the estimate rests on; 0 for the default. */
  sampleSize: number;
  /** One sentence for the card. */
  statement: string;
}

/** Rebalances looked at, newest first. */
export const PAUSE_HISTORY_REBALANCES = 5;

/**
 * Used when the group has no rebalance on record: a kafkajs or Java eager rebalance of a few members took
 * 0.1-1.1 s in the backtest; 5 s leaves room for members that rejoin only at their next poll.
 */
export const DEFAULT_REBALANCE_PAUSE_SEC = 5;

/** Throws RangeError on a negative or non-finite duration. */
export function estimateRebalancePause(rebalances: readonly RebalanceDuration[]): RebalancePause {
  for (const r of rebalances)
    if (!(Number.isFinite(r.durationMs) && r.durationMs >= 0))
      throw new RangeError(`rebalance duration must be a finite number >= 0, got ${r.durationMs}`);
  const newest = [...rebalances].sort((a, b) => b.endedAtMs - a.endedAtMs);
  const measured = newest.filter((r) => !r.durationIsBound).slice(0, PAUSE_HISTORY_REBALANCES);
  const chosen = measured.length > 0 ? measured : newest.slice(0, PAUSE_HISTORY_REBALANCES);
  if (chosen.length === 0) {
    return {
      sec: DEFAULT_REBALANCE_PAUSE_SEC,
      basis: 'default',
      sampleSize: 0,
      statement:
        `No rebalance of this group on record: T counts a default ${formatDuration(DEFAULT_REBALANCE_PAUSE_SEC)} ` +
        'pause for a change of the consumer count.',
    };
  }
  const sec = Math.max(...chosen.map((r) => r.durationMs)) / 1000;
  const of = `the longest of the group's last ${plural(chosen.length, 'rebalance')}`;
  return measured.length > 0
    ? {
        sec,
        basis: 'measured',
        sampleSize: chosen.length,
        statement: `T counts a ${formatSec(sec)} rebalance pause for a change of the consumer count: ${of}, measured by its members.`,
      }
    : {
        sec,
        basis: 'sampled-bound',
        sampleSize: chosen.length,
        statement:
          `T counts a rebalance pause of at most ${formatSec(sec)} for a change of the consumer count: ${of}, ` +
          'bounded by the sampler rounds around it (no Warden member measured one).',
      };
}

/** Tenths of a second below 10 s: pauses are short, and "0 s" would read as none. */
const formatSec = (sec: number) => (sec < 10 ? `${Number(sec.toFixed(1))} s` : formatDuration(sec));

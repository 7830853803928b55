// Per group/topic/partition history of (time, committed, log end) over the rate window, and the arrival and
// consumption rates estimateRates derives from it. Pure and in memory: a new leader starts empty, so its
// first round has no rates (null, never a guess).

import { estimateRates, type OffsetSample } from '../../lib/advisor/rates';

export interface RateSample {
  atMs: number;
  /** null while the group has never committed the partition. */
  committedOffset: number | null;
  logEndOffset: number;
}

export interface Rates {
  arrivalRatePerSec: number | null;
  consumptionRatePerSec: number | null;
}

export class RateHistory {
  private readonly history = new Map<string, RateSample[]>();

  constructor(private readonly windowMs: number) {
    if (!Number.isFinite(windowMs) || windowMs <= 0) throw new RangeError(`windowMs must be > 0, got ${windowMs}`);
  }

  /** Adds a sample (ignored when not newer than the last one) and drops samples older than the window. */
  record(key: string, sample: RateSample): void {
    const samples = this.history.get(key);
    if (samples === undefined) {
      this.history.set(key, [sample]);
      return;
    }
    const last = samples[samples.length - 1];
    if (last !== undefined && sample.atMs <= last.atMs) return;
    samples.push(sample);
    const oldestKept = sample.atMs - this.windowMs;
    let drop = 0;
    while (drop < samples.length - 1 && (samples[drop] as RateSample).atMs < oldestKept) drop += 1;
    if (drop > 0) samples.splice(0, drop);
  }

  /**
   * Arrival from the log end over the whole window; consumption only over the newest run of samples that
   * all have a committed offset (a partition never committed has no consumption rate, not a rate of 0).
   */
  estimate(key: string): Rates {
    const samples = this.history.get(key) ?? [];
    const arrival = estimateRates(
      samples.map((s) => ({ atMs: s.atMs, committedOffset: s.logEndOffset, logEndOffset: s.logEndOffset })),
      this.windowMs,
    ).arrivalRatePerSec;
    let start = samples.length;
    while (start > 0 && (samples[start - 1] as RateSample).committedOffset !== null) start -= 1;
    const committed = samples.slice(start) as Array<RateSample & { committedOffset: number }>;
    const consumption =
      committed.length < 2 ? null : estimateRates(committed as OffsetSample[], this.windowMs).consumptionRatePerSec;
    return { arrivalRatePerSec: arrival, consumptionRatePerSec: consumption };
  }

  /**
   * Forgets partitions with no sample at or after `atMs`: called with the round's time after recording the
   * round, it drops those not sampled in it (group or topic gone).
   */
  forgetUnrecordedSince(atMs: number): void {
    for (const [key, samples] of this.history) {
      if ((samples[samples.length - 1]?.atMs ?? Number.NEGATIVE_INFINITY) < atMs) this.history.delete(key);
    }
  }
}

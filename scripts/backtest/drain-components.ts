// Where a backtest's catch-up time goes, from the handler's own log of every record it processed: how old
// the advice was when the scale-out started, how long the rebalance held processing, when each partition's
// last backlog record was really handled (no sampling), and each consumer's rate while it had work. Pure.

import { median } from '../bench/stats';

export interface HandledRecord {
  /** Index of the consumer in start order: below `consumersBefore` it ran before the scale-out. */
  consumer: number;
  partition: number;
  offset: number;
  atMs: number;
}

export interface DrainInput {
  handled: readonly HandledRecord[];
  /** The advice's sample time: where T starts for the prediction and the sampled measurement. */
  sampledAtMs: number;
  /** When the backtest started the recommended consumers (equal to the reading time when none were). */
  scaleOutAtMs: number;
  consumersBefore: number;
  /** Offset of the last backlog record per partition (no records arrive after the backlog). */
  lastOffsetByPartition: ReadonlyMap<number, number>;
}

export interface DrainComponents {
  adviceAgeSec: number;
  /** From the scale-out to the first record a new consumer handled; null without a scale-out. */
  joinSec: number | null;
  /** Longest stretch after the scale-out in which no consumer handled a record (the rebalance's stop). */
  longestPauseSec: number;
  /** From sampledAt to the handling of each partition's last backlog record; null: not handled. */
  drainSecByPartition: Map<number, number | null>;
  /** The latest of those: the real catch-up, free of sampling and commit delay; null if one never drained. */
  handlerDrainSec: number | null;
  /** Median over the consumers that ran after the scale-out of records / (last - first handled) s. */
  medianConsumerRatePerSec: number | null;
}

/**
 * Redelivered records (a partition moved before its offsets were committed) count in the rates and the
 * pauses like any other work, since the consumer really spent the time; a partition's drain ends at the
 * last time its last offset was handled.
 */
export function drainComponents(input: DrainInput): DrainComponents {
  const { handled, sampledAtMs, scaleOutAtMs, consumersBefore } = input;
  const sorted = [...handled].sort((a, b) => a.atMs - b.atMs);
  const after = sorted.filter((r) => r.atMs >= scaleOutAtMs);

  const firstNew = after.find((r) => r.consumer >= consumersBefore);
  const scaledOut = handled.some((r) => r.consumer >= consumersBefore);
  let longestPauseMs = 0;
  let previousMs = scaleOutAtMs;
  for (const record of after) {
    longestPauseMs = Math.max(longestPauseMs, record.atMs - previousMs);
    previousMs = record.atMs;
  }

  const drainSecByPartition = new Map<number, number | null>();
  const lastEndMs = new Map<number, number>();
  for (const r of sorted)
    if (input.lastOffsetByPartition.get(r.partition) === r.offset) lastEndMs.set(r.partition, r.atMs);
  for (const partition of input.lastOffsetByPartition.keys()) {
    const endMs = lastEndMs.get(partition);
    drainSecByPartition.set(partition, endMs === undefined ? null : Math.max(0, (endMs - sampledAtMs) / 1000));
  }
  const drains = [...drainSecByPartition.values()];
  const handlerDrainSec = drains.some((d) => d === null) ? null : Math.max(0, ...(drains as number[]));

  const byConsumer = new Map<number, HandledRecord[]>();
  for (const record of after) {
    const records = byConsumer.get(record.consumer);
    if (records) records.push(record);
    else byConsumer.set(record.consumer, [record]);
  }
  const rates = [...byConsumer.values()]
    .filter((records) => records.length >= 2)
    .map((records) => {
      const spanSec = ((records[records.length - 1] as HandledRecord).atMs - (records[0] as HandledRecord).atMs) / 1000;
      return spanSec > 0 ? (records.length - 1) / spanSec : null;
    })
    .filter((rate): rate is number => rate !== null);

  return {
    adviceAgeSec: (scaleOutAtMs - sampledAtMs) / 1000,
    joinSec: scaledOut && firstNew !== undefined ? (firstNew.atMs - scaleOutAtMs) / 1000 : null,
    longestPauseSec: longestPauseMs / 1000,
    drainSecByPartition,
    handlerDrainSec,
    medianConsumerRatePerSec: median(rates),
  };
}

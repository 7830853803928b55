// When the adapter holds kafkajs's fetcher inside eachBatch instead of letting it fetch. Pure.
//
// kafkajs keeps one fetch in flight per broker, for the partitions that were not paused when it was sent; a
// partition resumed meanwhile waits for that fetch to come back. Two states make it come back late:
// - every partition is paused: kafkajs sleeps maxWaitTimeInMs before it looks again;
// - every unpaused partition is caught up (its last batch reached the high watermark): the broker holds the
//   fetch for maxWaitTimeInMs, since none of them has data.
// With a backpressured partition waiting for its commit (it resumes within a commit round trip), holding the
// fetcher until that resume and then fetching at once is faster: a hot partition next to idle ones otherwise
// lost up to maxWaitTimeInMs per budget cycle. The hold ends at the first resume, a rebalance, a fatal core or
// stop, and at most:
// - HELD_BATCH_MAX_MS with everything paused (kafkajs would not fetch anything sooner);
// - the fetch wait with caught-up partitions unpaused: no longer than the broker would have held the fetch,
//   which is what new data on them may wait. With no backpressured partition (only quarantined ones, which
//   wait for an operator), there is nothing to hold for: the broker's long poll serves the caught-up ones.

/** Longest an eachBatch call is held while every partition is paused; well under the heartbeat interval. */
export const HELD_BATCH_MAX_MS = 1_000;

export interface FetchHoldPartition {
  /** The core asked for the partition to be paused. */
  paused: boolean;
  /** Paused for backpressure only (not quarantined): it resumes as soon as a commit frees its budget. */
  backpressured: boolean;
  /** The last batch delivered for it reached the partition's high watermark. */
  caughtUp: boolean;
}

/** How long to hold the fetcher, or null to let it fetch now. */
export function fetchHoldMs(partitions: Iterable<FetchHoldPartition>, fetchWaitMs: number): number | null {
  let any = false;
  let allPaused = true;
  let resumesSoon = false;
  for (const partition of partitions) {
    any = true;
    if (partition.paused) {
      if (partition.backpressured) resumesSoon = true;
      continue;
    }
    if (!partition.caughtUp) return null; // kafkajs has something to fetch now
    allPaused = false;
  }
  if (!any) return null;
  if (allPaused) return HELD_BATCH_MAX_MS;
  return resumesSoon ? fetchWaitMs : null;
}

// How many rebalances a group's rebalance_event rows stand for. Pure.
//
// One rebalance can leave several rows: each Warden member writes its own measured row ('own-consumer',
// the span its consumer stood still), and the sampler writes at most one inferred row ('describe-groups',
// bounded by two samples) for the whole group. Counting rows would count a rebalance of a group with N
// Warden members N + 1 times. Instead:
// - measured rows whose spans overlap are one rebalance: an eager rebalance stops every member, and every
//   member's stop ends when the same generation's SyncGroup answers, so the spans of one rebalance overlap
//   (a member may notice it later, but not after it ended);
// - inferred rows are one rebalance each;
// - the count is the larger of the two. Both only undercount: samples miss rebalances between two rounds
//   that look like one or changed nothing, and measured rows miss rebalances no Warden member took part in
//   (a group of other clients has none). Adding them would count every rebalance of a Warden group twice.

export interface RebalanceSpan {
  source: 'own-consumer' | 'describe-groups' | string;
  startedAtMs: number;
  /** null: the row was written without an end (its start stands for both). */
  endedAtMs: number | null;
}

export function countRebalances(rows: readonly RebalanceSpan[]): number {
  let inferred = 0;
  const measured: { startedAtMs: number; endedAtMs: number }[] = [];
  for (const row of rows) {
    if (row.source === 'own-consumer') {
      measured.push({
        startedAtMs: row.startedAtMs,
        endedAtMs: Math.max(row.startedAtMs, row.endedAtMs ?? row.startedAtMs),
      });
    } else {
      inferred++;
    }
  }
  measured.sort((a, b) => a.startedAtMs - b.startedAtMs);
  let episodes = 0;
  let episodeEndMs = Number.NEGATIVE_INFINITY;
  for (const span of measured) {
    if (span.startedAtMs > episodeEndMs) {
      episodes++;
      episodeEndMs = span.endedAtMs;
    } else {
      episodeEndMs = Math.max(episodeEndMs, span.endedAtMs);
    }
  }
  return Math.max(inferred, episodes);
}

// Records a group never read that Kafka deleted: how one sampler round changes the record_loss episodes.
// Pure (the store reads the open episodes, calls planLossChanges with the round's positions and time, and
// writes what comes out).
//
// The only basis is the certain one, 'below-log-start': a round sees the group's committed offset C below the
// partition's log start S, so the records [C, S - 1] were deleted before the group read them, and its next
// fetch jumps past them (to where its reset policy says). Records the log start passed between two rounds
// while the group was moving are not counted: from two rounds alone they cannot be told from records the
// group read in time (a healthy group racing the retention frontier), and a false loss is worse than none.
//
// Per (group, topic, partition), one episode is open at a time:
// - opened by the first round that sees C < S: [C, S - 1], count S - C;
// - extended while later rounds see the log start pass more unread records: to S - 1 (the count grows by
//   what it passed), as long as C has not moved past the episode (C <= to + 1; a C moved back by an operator
//   keeps the episode's start);
// - ended by the first round that sees C >= S (the group reset, or was reset), or no committed offset at all
//   (its offsets were deleted or expired: nothing of it is below the log start any more);
// - a round that sees C < S again after C moved past the episode (the group reset, read, stopped, and the log
//   start passed it again, all between two rounds) ends the episode and opens a new one at C.
// A partition the round does not show (another shard's group, a group left out of the round) is left as it is.
// A group that kafkajs resets commits -2 ("earliest") first: lag-rows.ts reads that as no committed offset, so
// that round ends the episode (the group was reset).

export interface OpenLoss {
  id: bigint;
  groupId: string;
  topic: string;
  partition: number;
  fromOffset: bigint;
  toOffset: bigint;
}

export interface LossPosition {
  groupId: string;
  topic: string;
  partition: number;
  committedOffset: bigint | null;
  logStartOffset: bigint;
}

export interface NewLoss {
  groupId: string;
  topic: string;
  partition: number;
  fromOffset: bigint;
  toOffset: bigint;
  count: bigint;
  basis: 'below-log-start';
  detectedAt: Date;
  updatedAt: Date;
}

export interface LossExtension {
  id: bigint;
  toOffset: bigint;
  count: bigint;
  updatedAt: Date;
}

export interface LossEnd {
  id: bigint;
  endedAt: Date;
}

/** Records newly found deleted unread in one partition this round (a new episode's count, or an extension's growth). */
export interface LossIncrement {
  groupId: string;
  topic: string;
  partition: number;
  records: bigint;
}

export interface LossChanges {
  opened: NewLoss[];
  extended: LossExtension[];
  ended: LossEnd[];
  increments: LossIncrement[];
}

export const lossKey = (groupId: string, topic: string, partition: number): string =>
  `${groupId}\u0000${topic}\u0000${partition}`;

/** Whether a position shows records deleted unread (the round must then look at the open episodes). */
export function isBelowLogStart(p: LossPosition): boolean {
  return p.committedOffset !== null && p.committedOffset < p.logStartOffset;
}

/**
 * The changes one round makes to the open episodes `open` (of the round's groups, read just before). More
 * than one open episode of a partition (written by two leaders before this rule held) is tolerated: the
 * newest is the episode, the others end.
 */
export function planLossChanges(
  open: readonly OpenLoss[],
  positions: readonly LossPosition[],
  nowMs: number,
): LossChanges {
  const at = new Date(nowMs);
  const changes: LossChanges = { opened: [], extended: [], ended: [], increments: [] };
  const episodes = new Map<string, OpenLoss>();
  for (const episode of [...open].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const key = lossKey(episode.groupId, episode.topic, episode.partition);
    const older = episodes.get(key);
    if (older) changes.ended.push({ id: older.id, endedAt: at });
    episodes.set(key, episode);
  }
  for (const p of positions) {
    const episode = episodes.get(lossKey(p.groupId, p.topic, p.partition));
    const lastLost = p.logStartOffset - 1n;
    if (!isBelowLogStart(p)) {
      if (episode) changes.ended.push({ id: episode.id, endedAt: at });
      continue;
    }
    const committed = p.committedOffset as bigint;
    if (episode && committed <= episode.toOffset + 1n) {
      if (lastLost > episode.toOffset) {
        changes.extended.push({
          id: episode.id,
          toOffset: lastLost,
          count: lastLost - episode.fromOffset + 1n,
          updatedAt: at,
        });
        changes.increments.push({ ...partitionOf(p), records: lastLost - episode.toOffset });
      }
      continue;
    }
    if (episode) changes.ended.push({ id: episode.id, endedAt: at });
    const count = p.logStartOffset - committed;
    changes.opened.push({
      ...partitionOf(p),
      fromOffset: committed,
      toOffset: lastLost,
      count,
      basis: 'below-log-start',
      detectedAt: at,
      updatedAt: at,
    });
    changes.increments.push({ ...partitionOf(p), records: count });
  }
  return changes;
}

function partitionOf(p: LossPosition) {
  return { groupId: p.groupId, topic: p.topic, partition: p.partition };
}

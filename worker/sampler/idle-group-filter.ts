import type { LagSampleRow } from './sampler-state';

// Which groups' rows a round stores. A group whose every row equals the one last stored for it (every
// column but sampled_at) is unchanged: it is stored again only once per `idleStoreMs`, so an idle fleet costs
// a few rows a minute instead of one per partition per round. Each group has its own phase in that period
// (a hash of its id): an unchanged group is stored in the first round after its next phase point, so two of
// its stored rounds are at most idleStoreMs + one round apart, and a fleet that went idle together is not
// stored again all in one round. Readers
// treat a round that was not stored as "unchanged" (lib/lag/idle-samples.ts), which is exact by this rule:
// a stored round is always the group's whole round (every partition), and nothing skipped differs from it.
// A changed partition stores its whole group, so readers never mix partitions of different rounds.
//
// Pure and in memory: a new leader starts empty and stores everything in its first round. A group is
// remembered only once its rows reached Postgres (`remember`), so a failed write is retried by the next round.

export interface StoreSelection {
  rows: LagSampleRow[];
  /** Groups stored and skipped this round. */
  storedGroups: number;
  skippedGroups: number;
  /** Hand back to `remember` once the rows are written. */
  stored: Map<string, readonly LagSampleRow[]>;
}

/** Every stored column but sampled_at: two rows equal here are the same observation. */
function sameObservation(a: LagSampleRow, b: LagSampleRow): boolean {
  return (
    a.topic === b.topic &&
    a.partition === b.partition &&
    a.committedOffset === b.committedOffset &&
    a.logStartOffset === b.logStartOffset &&
    a.logEndOffset === b.logEndOffset &&
    a.lag === b.lag &&
    a.groupState === b.groupState &&
    a.memberId === b.memberId &&
    a.memberClientId === b.memberClientId &&
    a.memberHost === b.memberHost &&
    a.groupProtocol === b.groupProtocol &&
    a.timeLagMs === b.timeLagMs &&
    a.timeLagKind === b.timeLagKind &&
    a.exactTimeLagMs === b.exactTimeLagMs &&
    a.arrivalRatePerSec === b.arrivalRatePerSec &&
    a.consumptionRatePerSec === b.consumptionRatePerSec
  );
}

function sameRound(a: readonly LagSampleRow[], b: readonly LagSampleRow[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameObservation(a[i]!, b[i]!)) return false;
  return true;
}

/** FNV-1a of the group id: a stable, evenly spread phase. */
function phaseOf(groupId: string, periodMs: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < groupId.length; i++) hash = Math.imul(hash ^ groupId.charCodeAt(i), 0x01000193) >>> 0;
  return hash % periodMs;
}

export class IdleGroupFilter {
  private readonly last = new Map<string, { rows: readonly LagSampleRow[]; storedAtMs: number }>();

  /** idleStoreMs 0: every round is stored. */
  constructor(private readonly idleStoreMs: number) {
    if (!Number.isFinite(idleStoreMs) || idleStoreMs < 0)
      throw new RangeError(`idleStoreMs must be >= 0, got ${idleStoreMs}`);
  }

  select(rows: readonly LagSampleRow[], nowMs: number): StoreSelection {
    const byGroup = new Map<string, LagSampleRow[]>();
    for (const row of rows) {
      let list = byGroup.get(row.groupId);
      if (!list) byGroup.set(row.groupId, (list = []));
      list.push(row);
    }
    // Groups gone from the cluster are forgotten: one that comes back is stored at once.
    for (const groupId of this.last.keys()) if (!byGroup.has(groupId)) this.last.delete(groupId);
    const selected: LagSampleRow[] = [];
    const stored = new Map<string, readonly LagSampleRow[]>();
    let skippedGroups = 0;
    for (const [groupId, groupRows] of byGroup) {
      const previous = this.last.get(groupId);
      const unchanged = previous !== undefined && sameRound(previous.rows, groupRows);
      if (unchanged && !this.isDue(groupId, previous.storedAtMs, nowMs)) {
        skippedGroups += 1;
        continue;
      }
      for (const row of groupRows) selected.push(row);
      stored.set(groupId, groupRows);
    }
    return { rows: selected, storedGroups: stored.size, skippedGroups, stored };
  }

  /** Whether a phase point of the group lies in (storedAtMs, nowMs]. */
  private isDue(groupId: string, storedAtMs: number, nowMs: number): boolean {
    if (this.idleStoreMs === 0) return true;
    const phase = phaseOf(groupId, this.idleStoreMs);
    const period = (ms: number) => Math.floor((ms - phase) / this.idleStoreMs);
    return period(nowMs) > period(storedAtMs);
  }

  /** The selection's rows reached Postgres at `nowMs`. */
  remember(selection: StoreSelection, nowMs: number): void {
    for (const [groupId, rows] of selection.stored) this.last.set(groupId, { rows, storedAtMs: nowMs });
  }
}

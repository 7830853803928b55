// The sampler's per-partition (log-end offset, time) tables for time lag, kept in memory and mirrored to the
// log_end_point table so they survive restarts and leader changes. Pure: the caller persists the changes
// this class hands out (takeChanges) and reports back what was stored (confirmInserted / restoreDeletes).
//
// Invariants:
// - Every table satisfies appendLogEndPoint's invariants (it is the only function that changes a table).
// - A persisted point in memory has its row id; a point dropped from memory queues its row for deletion, so
//   the database converges to exactly what memory holds, also after failed writes (they are retried).
// - Points are persisted at most every `spacingMs` per partition (plus whenever the log end moves backwards),
//   so the window covers maxPoints x spacingMs; estimates always add the current log end as a transient
//   newest point, so "caught up" and recent lag are exact to the round, not to the spacing.

import { appendLogEndPoint, estimateTimeLag, type LogEndPoint, type TimeLag } from '../../lib/lag/time-lag';

export interface LogEndPointOptions {
  /** Points kept per partition (>= 2). */
  maxPoints: number;
  /** Minimum time between two persisted points of a partition (>= 0). */
  spacingMs: number;
}

export interface PointInsert {
  topic: string;
  partition: number;
  point: LogEndPoint;
}

export interface PointChanges {
  inserts: PointInsert[];
  deletes: bigint[];
}

export interface StoredPoint {
  id: bigint;
  topic: string;
  partition: number;
  offset: number;
  atMs: number;
}

interface Table {
  topic: string;
  partition: number;
  points: LogEndPoint[];
}

const CAUGHT_UP: TimeLag = Object.freeze({ ms: 0, kind: 'caught-up' });

export class LogEndPointTables {
  /** By topic, then partition (no per-lookup key string: observe runs for every partition every round). */
  private readonly tables = new Map<string, Map<number, Table>>();
  private readonly ids = new WeakMap<LogEndPoint, bigint>();
  /** Points in memory not stored yet, with their partition. */
  private readonly unsaved = new Map<LogEndPoint, Table>();
  private pendingDeletes: bigint[] = [];

  constructor(private readonly options: LogEndPointOptions) {
    if (!Number.isInteger(options.maxPoints) || options.maxPoints < 2) {
      throw new RangeError(`maxPoints must be an integer >= 2, got ${options.maxPoints}`);
    }
    if (!Number.isFinite(options.spacingMs) || options.spacingMs < 0) {
      throw new RangeError(`spacingMs must be >= 0, got ${options.spacingMs}`);
    }
  }

  /**
   * Rebuilds memory from stored rows (any order). Rows are replayed oldest first through appendLogEndPoint,
   * so a table that was written inconsistently (two leaders, clock jump) is normalised; rows it rejects or
   * that fall out of the window are queued for deletion.
   */
  load(rows: readonly StoredPoint[]): void {
    this.tables.clear();
    this.unsaved.clear();
    const sorted = [...rows].sort((a, b) =>
      a.topic === b.topic
        ? a.partition - b.partition || a.atMs - b.atMs || Number(a.id - b.id)
        : a.topic < b.topic
          ? -1
          : 1,
    );
    for (const row of sorted) {
      const table = this.tableFor(row.topic, row.partition);
      const added = this.append(table, { offset: row.offset, atMs: row.atMs });
      if (added) {
        this.ids.set(added, row.id);
        this.unsaved.delete(added);
      } else {
        this.pendingDeletes.push(row.id);
      }
    }
  }

  /** Records the log end seen at `atMs`; persisted when the spacing allows or the log end moved backwards. */
  observe(topic: string, partition: number, logEndOffset: number, atMs: number): void {
    const table = this.tableFor(topic, partition);
    const newest = table.points[table.points.length - 1];
    if (newest !== undefined && logEndOffset >= newest.offset && atMs - newest.atMs < this.options.spacingMs) return;
    this.append(table, { offset: logEndOffset, atMs });
  }

  /**
   * Time lag of the record at `committedOffset`: unknown with no commit; otherwise estimateTimeLag over the
   * stored points plus the current log end at `nowMs`.
   */
  estimate(
    topic: string,
    partition: number,
    committedOffset: number | null,
    logEndOffset: number,
    nowMs: number,
  ): TimeLag {
    if (committedOffset === null) return { ms: null, kind: 'unknown' };
    // The current log end is always the newest point of the table estimated (appended here, or already
    // observed this round), so a commit at or past it is caught up whatever the stored points say.
    if (committedOffset >= logEndOffset && committedOffset >= 0 && Number.isFinite(committedOffset)) return CAUGHT_UP;
    const stored = this.tables.get(topic)?.get(partition)?.points ?? [];
    const points = appendLogEndPoint(stored, { offset: logEndOffset, atMs: nowMs }, this.options.maxPoints + 1);
    return estimateTimeLag({ points, committedOffset, nowMs });
  }

  /** Points of one partition, oldest first (a copy). */
  pointsOf(topic: string, partition: number): LogEndPoint[] {
    return (this.tables.get(topic)?.get(partition)?.points ?? []).map((p) => ({ ...p }));
  }

  /**
   * Forgets partitions `keep` rejects (topic deleted, or no sampled group consumes it any more) and queues
   * their stored rows for deletion.
   */
  retainWhere(keep: (topic: string, partition: number) => boolean): void {
    for (const [topic, partitions] of this.tables) {
      for (const [partition, table] of partitions) {
        if (keep(table.topic, table.partition)) continue;
        for (const point of table.points) this.drop(point);
        partitions.delete(partition);
      }
      if (partitions.size === 0) this.tables.delete(topic);
    }
  }

  /** What to write: rows to insert and row ids to delete. Hand back failures with restoreDeletes. */
  takeChanges(): PointChanges {
    const inserts = [...this.unsaved].map(([point, table]) => ({
      topic: table.topic,
      partition: table.partition,
      point,
    }));
    const deletes = this.pendingDeletes;
    this.pendingDeletes = [];
    return { inserts, deletes };
  }

  /** Inserted rows with their ids. A point dropped from memory meanwhile has its new row queued for deletion. */
  confirmInserted(stored: ReadonlyArray<{ point: LogEndPoint; id: bigint }>): void {
    for (const { point, id } of stored) {
      if (this.unsaved.delete(point)) this.ids.set(point, id);
      else this.pendingDeletes.push(id);
    }
  }

  /** Deletes that failed; retried with the next changes. */
  restoreDeletes(ids: readonly bigint[]): void {
    for (const id of ids) this.pendingDeletes.push(id); // a spread of 100,000 ids would overflow the stack
  }

  get partitionCount(): number {
    let count = 0;
    for (const partitions of this.tables.values()) count += partitions.size;
    return count;
  }

  private tableFor(topic: string, partition: number): Table {
    let partitions = this.tables.get(topic);
    if (!partitions) this.tables.set(topic, (partitions = new Map()));
    let table = partitions.get(partition);
    if (!table) {
      table = { topic, partition, points: [] };
      partitions.set(partition, table);
    }
    return table;
  }

  /** Appends through appendLogEndPoint and tracks what it added and dropped; returns the added point, if any. */
  private append(table: Table, point: LogEndPoint): LogEndPoint | null {
    const before = table.points;
    const after = appendLogEndPoint(before, point, this.options.maxPoints);
    const kept = new Set(after);
    for (const old of before) if (!kept.has(old)) this.drop(old);
    const previous = new Set(before);
    let added: LogEndPoint | null = null;
    for (const current of after) {
      if (previous.has(current)) continue;
      added = current;
      this.unsaved.set(current, table);
    }
    table.points = after;
    return added;
  }

  private drop(point: LogEndPoint): void {
    if (this.unsaved.delete(point)) return;
    const id = this.ids.get(point);
    if (id !== undefined) this.pendingDeletes.push(id);
  }
}

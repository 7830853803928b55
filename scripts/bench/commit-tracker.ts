// Knows when a consumer is finished: every watched partition's committed offset reached its end offset.
// Pure: the caller feeds commits with the time they were acknowledged.

export class CommitTracker {
  private readonly committed: number[];
  private readonly doneAt: Array<number | null>;
  private readonly watched: readonly number[];
  private finishedAtMs: number | null = null;
  private readonly waiters: Array<(atMs: number) => void> = [];

  /**
   * @param endOffsets end offset per partition (index = partition number)
   * @param watched partitions that must reach their end; default every partition. Partitions whose end
   *   offset is 0 hold nothing and count as done from the start.
   */
  constructor(
    private readonly endOffsets: readonly number[],
    watched?: readonly number[],
  ) {
    for (const end of endOffsets) {
      if (!Number.isInteger(end) || end < 0)
        throw new RangeError(`end offsets must be non-negative integers, got ${end}`);
    }
    this.watched = watched ?? endOffsets.map((_, partition) => partition);
    for (const partition of this.watched) {
      if (endOffsets[partition] === undefined) throw new RangeError(`watched partition ${partition} has no end offset`);
    }
    if (this.watched.every((partition) => endOffsets[partition] === 0)) {
      throw new RangeError('every watched partition is empty: there is nothing to wait for');
    }
    this.committed = endOffsets.map(() => 0);
    this.doneAt = endOffsets.map((end) => (end === 0 ? Number.NEGATIVE_INFINITY : null));
  }

  /** A commit of `offset` ("next to read") for `partition`, acknowledged at `atMs`. Lower offsets are ignored. */
  observe(partition: number, offset: string | number, atMs: number): void {
    const value = Number(offset);
    const end = this.endOffsets[partition];
    if (end === undefined || !Number.isFinite(value)) return;
    if (value > this.committed[partition]!) this.committed[partition] = value;
    if (this.doneAt[partition] === null && this.committed[partition]! >= end) this.doneAt[partition] = atMs;
    if (this.finishedAtMs === null && this.watched.every((p) => this.doneAt[p] !== null)) {
      this.finishedAtMs = Math.max(atMs, ...this.watched.map((p) => this.doneAt[p]!));
      for (const waiter of this.waiters.splice(0)) waiter(this.finishedAtMs);
    }
  }

  /** When the last watched partition reached its end, null while unfinished. */
  get finishedAt(): number | null {
    return this.finishedAtMs;
  }

  /** When `partition` reached its end (-Infinity for an empty one), null while it has not. */
  partitionDoneAt(partition: number): number | null {
    return this.doneAt[partition] ?? null;
  }

  committedOffset(partition: number): number {
    return this.committed[partition] ?? 0;
  }

  /** Resolves with the finishing time once every watched partition reached its end. */
  finished(): Promise<number> {
    if (this.finishedAtMs !== null) return Promise.resolve(this.finishedAtMs);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

// Ordering lanes of one partition. A lane is a FIFO of records that must run one at a time in offset
// order: the whole partition ('partition' mode), one ordering key ('key' mode) or a single record
// ('unordered'). Lanes exist only while they hold records, so memory follows the active keys (seed 001).

/** null is the lane of records without an ordering key, distinct from the empty-string key. */
export type LaneKey = string | null;

interface Lane<E> {
  readonly key: LaneKey;
  readonly queue: E[];
}

export class LaneTable<E> {
  private readonly lanes = new Map<LaneKey, Lane<E>>();
  /** Lanes whose head waits to start. Iteration order is the order lanes became ready. */
  private readonly ready = new Set<Lane<E>>();

  /** @param isWaiting whether an entry is waiting to start (not running, not in a retry delay, not done) */
  constructor(private readonly isWaiting: (entry: E) => boolean) {}

  get size(): number {
    return this.lanes.size;
  }

  enqueue(key: LaneKey, entry: E): void {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, queue: [] };
      this.lanes.set(key, lane);
    }
    lane.queue.push(entry);
    if (lane.queue.length === 1) this.refreshReadiness(lane);
  }

  /**
   * The first ready head (in the order lanes became ready) that `accept` takes, or undefined when none does
   * or `accept` says 'stop'. A plain scan, no iterator or copy per call: the scheduler calls it after every
   * completion, and copying every ready head made scheduling quadratic in the number of lanes (found by
   * `npm run bench`).
   */
  firstReadyHead(accept: (head: E) => boolean | 'stop'): E | undefined {
    for (const lane of this.ready) {
      const head = lane.queue[0];
      if (head === undefined) continue;
      const verdict = accept(head);
      if (verdict === 'stop') return undefined;
      if (verdict) return head;
    }
    return undefined;
  }

  /** Re-evaluates the lane's head after it started, went into a retry delay or became startable again. */
  headChanged(key: LaneKey): void {
    const lane = this.lanes.get(key);
    if (lane) this.refreshReadiness(lane);
  }

  /** Removes an entry (normally the head) and deletes the lane when it becomes empty. */
  remove(key: LaneKey, entry: E): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    const index = lane.queue.indexOf(entry);
    if (index < 0) return;
    lane.queue.splice(index, 1);
    this.refreshReadiness(lane);
  }

  removeWhere(predicate: (entry: E) => boolean): void {
    for (const lane of [...this.lanes.values()]) {
      const kept = lane.queue.filter((entry) => !predicate(entry));
      if (kept.length === lane.queue.length) continue;
      lane.queue.length = 0;
      lane.queue.push(...kept);
      this.refreshReadiness(lane);
    }
  }

  clear(): void {
    this.lanes.clear();
    this.ready.clear();
  }

  private refreshReadiness(lane: Lane<E>): void {
    const head = lane.queue[0];
    if (head === undefined) {
      this.lanes.delete(lane.key);
      this.ready.delete(lane);
    } else if (this.isWaiting(head)) {
      this.ready.add(lane);
    } else {
      this.ready.delete(lane);
    }
  }
}

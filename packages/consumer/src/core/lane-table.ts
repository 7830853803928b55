// Ordering lanes of one partition. A lane is a FIFO of records that must run one at a time in offset
// order: the whole partition ('partition' mode) or one ordering key ('key' mode). A record of 'unordered'
// mode is a lane of its own and takes no map entry. Memory follows the active keys: a lane that empties
// stays in the map for reuse (no map insert and delete per record), and empty lanes are swept once more than
// EMPTY_LANES_KEPT pile up.
//
// Lane heads that wait to start sit in one ready FIFO, in the order they became ready; the scheduler takes
// them from its front. Everything on the hot path (enqueue, take, remove the head) is O(1) and allocates
// nothing beyond a new lane: no lane object, map entry or set entry per record, and no scan of every ready
// lane per completion (docs/decisions/0004-hot-path-choices.md has the measurements behind this).

import { movedFront } from './moved-front.js';

/** null is the lane of records without an ordering key, distinct from the empty-string key. */
export type LaneKey = string | null;

/** A record's lane of its own ('unordered' mode). */
export const SOLO_LANE = Symbol('solo lane');

/** A FIFO linked through its members' `laneNext` (no array per lane: no shift, no backing store to grow). */
export interface Lane<E> {
  readonly key: LaneKey;
  head: E | null;
  tail: E | null;
}

/** Empty lanes the map may hold before they are swept. */
const EMPTY_LANES_KEPT = 4_096;

/** Lane bookkeeping the table keeps on each entry, so nothing is looked up by key after enqueue. */
export interface LaneMember<E> {
  /** The entry's lane; null for a solo record; undefined when the entry is in no lane. */
  lane: Lane<E> | null | undefined;
  /** The entry is in the ready FIFO. */
  readyQueued: boolean;
  /** The next member of the entry's lane; null at its tail or outside a lane. */
  laneNext: E | null;
}

export class LaneTable<E extends LaneMember<E>> {
  private readonly lanes = new Map<LaneKey, Lane<E>>();
  private emptyLanes = 0;
  private soloCount = 0;
  /** Ready lane heads from `readyStart` on; the slots before it were taken. */
  private ready: E[] = [];
  private readyStart = 0;

  /** @param isWaiting whether an entry is waiting to start (not running, not in a retry delay, not done) */
  constructor(private readonly isWaiting: (entry: E) => boolean) {}

  /** Lanes holding records. */
  get size(): number {
    return this.lanes.size - this.emptyLanes + this.soloCount;
  }

  enqueue(key: LaneKey | typeof SOLO_LANE, entry: E): void {
    if (key === SOLO_LANE) {
      entry.lane = null;
      this.soloCount++;
      this.headChanged(entry);
      return;
    }
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { key, head: null, tail: null };
      this.lanes.set(key, lane);
    } else if (lane.head === null) {
      this.emptyLanes--;
    }
    entry.lane = lane;
    entry.laneNext = null;
    if (lane.tail === null) {
      lane.head = entry;
      lane.tail = entry;
      this.headChanged(entry);
    } else {
      lane.tail.laneNext = entry;
      lane.tail = entry;
    }
  }

  /**
   * Takes the first ready head (in the order heads became ready) that `accept` takes out of the ready FIFO,
   * or returns undefined when none does or `accept` says 'stop'. Heads `accept` declines stay where they are.
   */
  takeReadyHead(accept: (head: E) => boolean | 'stop'): E | undefined {
    const ready = this.ready;
    for (let index = this.readyStart; index < ready.length; index++) {
      const head = ready[index]!;
      const verdict = accept(head);
      if (verdict === 'stop') return undefined;
      if (!verdict) continue;
      this.unqueueAt(index);
      return head;
    }
    return undefined;
  }

  /** Re-evaluates an entry after it went back to waiting (a retry became due) or became its lane's head. */
  headChanged(entry: E): void {
    if (entry.readyQueued || entry.lane === undefined || !this.isWaiting(entry)) return;
    if (entry.lane !== null && entry.lane.head !== entry) return;
    entry.readyQueued = true;
    this.ready.push(entry);
  }

  /** Removes an entry (normally the head) from its lane, deletes the lane when empty, readies the next head. */
  remove(entry: E): void {
    const lane = entry.lane;
    if (lane === undefined) return;
    entry.lane = undefined;
    if (entry.readyQueued) this.unqueueAt(this.ready.indexOf(entry, this.readyStart));
    if (lane === null) {
      this.soloCount--;
      return;
    }
    if (lane.head === entry) {
      lane.head = entry.laneNext;
      if (lane.head === null) lane.tail = null;
    } else {
      let previous = lane.head;
      while (previous !== null && previous.laneNext !== entry) previous = previous.laneNext;
      if (previous !== null) {
        previous.laneNext = entry.laneNext;
        if (lane.tail === entry) lane.tail = previous;
      }
    }
    entry.laneNext = null;
    const next = lane.head;
    if (next === null) this.retire();
    else this.headChanged(next);
  }

  /** Removes these entries (a rewind); lanes that lost their head ready their new head, in lane order. */
  removeAll(entries: readonly E[]): void {
    const touched = new Set<Lane<E>>();
    let unqueued = false;
    for (const entry of entries) {
      const lane = entry.lane;
      if (lane === undefined) continue;
      entry.lane = undefined;
      if (entry.readyQueued) {
        entry.readyQueued = false;
        unqueued = true;
      }
      if (lane === null) this.soloCount--;
      else touched.add(lane);
    }
    if (unqueued) {
      this.ready = this.ready.slice(this.readyStart).filter((entry) => entry.readyQueued);
      this.readyStart = 0;
    }
    for (const lane of touched) {
      let member = lane.head;
      lane.head = null;
      lane.tail = null;
      while (member !== null) {
        const next = member.laneNext;
        member.laneNext = null;
        if (member.lane === lane) {
          if (lane.tail === null) lane.head = member;
          else lane.tail.laneNext = member;
          lane.tail = member;
        }
        member = next;
      }
      if (lane.head === null) this.retire();
      else this.headChanged(lane.head);
    }
  }

  /** Forgets every lane; the caller forgets the entries (solo entries are not reachable from here). */
  clear(): void {
    for (const lane of this.lanes.values()) {
      for (let entry = lane.head; entry !== null;) {
        const next = entry.laneNext;
        entry.lane = undefined;
        entry.laneNext = null;
        entry = next;
      }
    }
    for (let index = this.readyStart; index < this.ready.length; index++) this.ready[index]!.readyQueued = false;
    this.lanes.clear();
    this.emptyLanes = 0;
    this.soloCount = 0;
    this.ready = [];
    this.readyStart = 0;
  }

  private retire(): void {
    if (++this.emptyLanes <= EMPTY_LANES_KEPT) return;
    for (const [key, lane] of this.lanes) if (lane.head === null) this.lanes.delete(key);
    this.emptyLanes = 0;
  }

  private unqueueAt(index: number): void {
    if (index < 0) return;
    const ready = this.ready;
    ready[index]!.readyQueued = false;
    if (index === this.readyStart) {
      ready[index] = undefined as unknown as E;
      ({ items: this.ready, start: this.readyStart } = movedFront(ready, index + 1));
    } else {
      ready.splice(index, 1);
    }
  }
}

import { describe, expect, it } from 'vitest';
import { LaneTable, SOLO_LANE, type Lane, type LaneMember } from './lane-table.js';

interface Item extends LaneMember<Item> {
  name: string;
  waiting: boolean;
}

const item = (name: string): Item => ({ name, waiting: true, lane: undefined, readyQueued: false, laneNext: null });
const waitingTable = () => new LaneTable<Item>((entry) => entry.waiting);

/** Every ready head in order, through the scan the scheduler uses, taking none. */
function readyHeads(lanes: LaneTable<Item>): string[] {
  const heads: string[] = [];
  lanes.takeReadyHead((head) => {
    heads.push(head.name);
    return false;
  });
  return heads;
}

/** Takes the first ready head, as the scheduler does when it starts one. */
function take(lanes: LaneTable<Item>): Item | undefined {
  return lanes.takeReadyHead(() => true);
}

describe('LaneTable', () => {
  it('exposes only lane heads, in the order they became ready, and takes them out when started', () => {
    const lanes = waitingTable();
    const a1 = item('a1');
    lanes.enqueue('a', a1);
    lanes.enqueue('a', item('a2'));
    lanes.enqueue('b', item('b1'));
    expect(readyHeads(lanes)).toEqual(['a1', 'b1']);
    expect(lanes.size).toBe(2);

    expect(take(lanes)).toBe(a1);
    a1.waiting = false;
    expect(readyHeads(lanes)).toEqual(['b1']);
    // A head that is running keeps its lane: a2 is not ready until a1 leaves.
    lanes.headChanged(a1);
    expect(readyHeads(lanes)).toEqual(['b1']);
  });

  it('advances a lane when its head is removed and deletes empty lanes', () => {
    const lanes = waitingTable();
    const a1 = item('a1');
    const a2 = item('a2');
    lanes.enqueue('a', a1);
    lanes.enqueue('a', a2);
    take(lanes);
    a1.waiting = false;
    expect(readyHeads(lanes)).toEqual([]);
    lanes.remove(a1);
    expect(readyHeads(lanes)).toEqual(['a2']);
    expect(a1.lane).toBeUndefined();
    lanes.remove(a2);
    expect(lanes.size).toBe(0);
    expect(readyHeads(lanes)).toEqual([]);
  });

  it('a head back from a retry delay becomes ready again behind the heads already waiting', () => {
    const lanes = waitingTable();
    const a1 = item('a1');
    lanes.enqueue('a', a1);
    lanes.enqueue('b', item('b1'));
    take(lanes);
    a1.waiting = false;
    lanes.headChanged(a1);
    a1.waiting = true;
    lanes.headChanged(a1);
    lanes.headChanged(a1);
    expect(readyHeads(lanes)).toEqual(['b1', 'a1']);
  });

  it('keeps the null lane apart from the empty-string lane', () => {
    const lanes = waitingTable();
    lanes.enqueue(null, item('no key'));
    lanes.enqueue('', item('empty key'));
    expect(lanes.size).toBe(2);
    expect(readyHeads(lanes)).toHaveLength(2);
  });

  it('solo records are lanes of their own, counted without a map entry', () => {
    const lanes = waitingTable();
    const one = item('one');
    const two = item('two');
    lanes.enqueue(SOLO_LANE, one);
    lanes.enqueue(SOLO_LANE, two);
    expect(lanes.size).toBe(2);
    expect(readyHeads(lanes)).toEqual(['one', 'two']);
    expect(take(lanes)).toBe(one);
    lanes.remove(one);
    expect(lanes.size).toBe(1);
    // Removing a record still waiting takes it out of the ready FIFO too.
    lanes.remove(two);
    expect(lanes.size).toBe(0);
    expect(readyHeads(lanes)).toEqual([]);
  });

  it('a declined head stays; "stop" ends the scan', () => {
    const lanes = waitingTable();
    for (const name of ['a', 'b', 'c']) lanes.enqueue(name, item(name));
    const taken = lanes.takeReadyHead((head) => head.name === 'b');
    expect(taken?.name).toBe('b');
    expect(readyHeads(lanes)).toEqual(['a', 'c']);
    expect(lanes.takeReadyHead((head) => (head.name === 'a' ? 'stop' : true))).toBeUndefined();
    expect(readyHeads(lanes)).toEqual(['a', 'c']);
  });

  it('removeAll drops entries from every lane and the ready FIFO and readies the new heads', () => {
    const lanes = waitingTable();
    const a1 = item('a1');
    const b1 = item('b1');
    const solo = item('solo');
    lanes.enqueue('a', a1);
    lanes.enqueue('a', item('a2'));
    lanes.enqueue('b', b1);
    lanes.enqueue(SOLO_LANE, solo);
    take(lanes);
    a1.waiting = false;
    lanes.removeAll([a1, b1, solo]);
    expect(readyHeads(lanes)).toEqual(['a2']);
    expect(lanes.size).toBe(1);
    expect([a1.lane, b1.lane, solo.lane]).toEqual([undefined, undefined, undefined]);
  });

  it('unlinks a member from the middle or the tail of its lane and keeps appending after the new tail', () => {
    const lanes = waitingTable();
    const [k1, k2, k3, k4] = ['k1', 'k2', 'k3', 'k4'].map(item) as [Item, Item, Item, Item];
    for (const entry of [k1, k2, k3]) lanes.enqueue('k', entry);
    lanes.remove(k2);
    lanes.remove(k3);
    expect([k2.lane, k3.lane, k2.laneNext, k3.laneNext]).toEqual([undefined, undefined, null, null]);
    lanes.enqueue('k', k4);
    expect(k1.laneNext).toBe(k4);
    expect(take(lanes)).toBe(k1);
    lanes.remove(k1);
    expect(readyHeads(lanes)).toEqual(['k4']);
    expect(lanes.size).toBe(1);
  });

  it('stays correct across many takes (the taken front of the FIFO is compacted away)', () => {
    const lanes = waitingTable();
    const items = Array.from({ length: 5_000 }, (_, index) => item(`r${index}`));
    for (const entry of items) lanes.enqueue(SOLO_LANE, entry);
    for (let index = 0; index < 4_000; index++) {
      const taken = take(lanes)!;
      expect(taken.name).toBe(`r${index}`);
      lanes.remove(taken);
    }
    expect(lanes.size).toBe(1_000);
    expect(readyHeads(lanes).slice(0, 2)).toEqual(['r4000', 'r4001']);
    const lane: Lane<Item> | null | undefined = items[4_500]!.lane;
    expect(lane).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { LaneTable } from './lane-table';

interface Item {
  name: string;
  waiting: boolean;
}

const item = (name: string): Item => ({ name, waiting: true });


/** Every ready head in order, through the scan the scheduler uses. */
function readyHeads<E>(lanes: LaneTable<E>): E[] {
  const heads: E[] = [];
  lanes.firstReadyHead((head) => {
    heads.push(head);
    return false;
  });
  return heads;
}

describe('LaneTable', () => {
  it('exposes only lane heads, in the order lanes became ready', () => {
    const lanes = new LaneTable<Item>((entry) => entry.waiting);
    const a1 = item('a1');
    lanes.enqueue('a', a1);
    lanes.enqueue('a', item('a2'));
    lanes.enqueue('b', item('b1'));
    expect(readyHeads(lanes).map((entry) => entry.name)).toEqual(['a1', 'b1']);
    expect(lanes.size).toBe(2);

    a1.waiting = false;
    lanes.headChanged('a');
    expect(readyHeads(lanes).map((entry) => entry.name)).toEqual(['b1']);
  });

  it('advances a lane when its head is removed and deletes empty lanes', () => {
    const lanes = new LaneTable<Item>((entry) => entry.waiting);
    const a1 = item('a1');
    const a2 = item('a2');
    lanes.enqueue('a', a1);
    lanes.enqueue('a', a2);
    a1.waiting = false;
    lanes.headChanged('a');
    expect(readyHeads(lanes)).toEqual([]);
    lanes.remove('a', a1);
    expect(readyHeads(lanes)).toEqual([a2]);
    lanes.remove('a', a2);
    expect(lanes.size).toBe(0);
    expect(readyHeads(lanes)).toEqual([]);
  });

  it('keeps the null lane apart from the empty-string lane', () => {
    const lanes = new LaneTable<Item>((entry) => entry.waiting);
    lanes.enqueue(null, item('no key'));
    lanes.enqueue('', item('empty key'));
    expect(lanes.size).toBe(2);
    expect(readyHeads(lanes)).toHaveLength(2);
  });

  it('removeWhere filters every lane and re-evaluates heads', () => {
    const lanes = new LaneTable<Item>((entry) => entry.waiting);
    const a1 = item('a1');
    a1.waiting = false;
    lanes.enqueue('a', a1);
    lanes.enqueue('a', item('a2'));
    lanes.enqueue('b', item('b1'));
    lanes.removeWhere((entry) => entry.name === 'a1' || entry.name === 'b1');
    expect(readyHeads(lanes).map((entry) => entry.name)).toEqual(['a2']);
    expect(lanes.size).toBe(1);
  });
});

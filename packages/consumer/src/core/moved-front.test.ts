import { describe, expect, it } from 'vitest';
import { movedFront } from './moved-front.js';

describe('movedFront', () => {
  it('moves the start without copying while the slots left behind are few', () => {
    const items = [1, 2, 3, 4];
    expect(movedFront(items, 2)).toEqual({ items: [1, 2, 3, 4], start: 2 });
    expect(movedFront(items, 2).items).toBe(items);
  });

  it('keeps an emptied queue’s array, truncated, instead of allocating a new one', () => {
    const items = [1, 2, 3];
    const moved = movedFront(items, 3);
    expect(moved).toEqual({ items: [], start: 0 });
    expect(moved.items).toBe(items);
    expect(movedFront([1], 5)).toEqual({ items: [], start: 0 });
  });

  it('compacts once more than 1,024 slots are behind and they outnumber the live ones', () => {
    const items = Array.from({ length: 3_000 }, (_, index) => index);
    expect(movedFront(items, 1_024).items).toBe(items); // not past 1,024 yet
    expect(movedFront(items, 1_400).items).toBe(items); // 1,400 behind, 1,600 live
    const compacted = movedFront(items, 1_600);
    expect(compacted.start).toBe(0);
    expect(compacted.items).toHaveLength(1_400);
    expect(compacted.items[0]).toBe(1_600);
  });
});

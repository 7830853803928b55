/**
 * A queue kept as an array and a start index (taking from the front is O(1), no shift): the front moves to
 * `start`, and the array is compacted once the slots left behind outgrow what remains, so it stays within
 * about twice its live length. An emptied queue keeps its array (truncated), so a queue that drains and
 * refills all the time does not allocate a new one each time. The caller clears the slots it leaves if they
 * hold objects and the queue is not emptied.
 */
export function movedFront<E>(items: E[], start: number): { items: E[]; start: number } {
  if (start >= items.length) {
    items.length = 0;
    return { items, start: 0 };
  }
  if (start > 1024 && start * 2 > items.length) return { items: items.slice(start), start: 0 };
  return { items, start };
}

import { describe, expect, it } from 'vitest';
import { CommitTracker } from './commit-tracker';

describe('CommitTracker', () => {
  it('finishes when every partition committed its end offset, at the time of the last one', async () => {
    const tracker = new CommitTracker([3, 2]);
    tracker.observe(0, '2', 10);
    tracker.observe(1, '2', 20);
    expect(tracker.finishedAt).toBeNull();
    expect(tracker.partitionDoneAt(1)).toBe(20);
    tracker.observe(0, '3', 35);
    expect(tracker.finishedAt).toBe(35);
    await expect(tracker.finished()).resolves.toBe(35);
  });

  it('never moves a committed offset backwards (an older commit acknowledged late)', () => {
    const tracker = new CommitTracker([5]);
    tracker.observe(0, '4', 1);
    tracker.observe(0, '2', 2);
    expect(tracker.committedOffset(0)).toBe(4);
    expect(tracker.finishedAt).toBeNull();
  });

  it('waits only for the watched partitions and counts empty ones as done', () => {
    const tracker = new CommitTracker([7, 4, 0], [1, 2]);
    tracker.observe(1, 4, 50);
    expect(tracker.finishedAt).toBe(50);
    expect(tracker.partitionDoneAt(0)).toBeNull();
  });

  it('ignores partitions it does not know and offsets that are not numbers', () => {
    const tracker = new CommitTracker([1]);
    tracker.observe(3, '9', 1);
    tracker.observe(0, 'x', 2);
    expect(tracker.finishedAt).toBeNull();
  });

  it('rejects a tracker that could never finish or has bad input', () => {
    expect(() => new CommitTracker([0, 0])).toThrow(/nothing to wait for/);
    expect(() => new CommitTracker([1], [2])).toThrow(/partition 2 has no end offset/);
    expect(() => new CommitTracker([-1])).toThrow(/non-negative integers/);
  });
});

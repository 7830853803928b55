import { describe, expect, it } from 'vitest';
import { ManualClock } from './fake-clock.js';

describe('ManualClock', () => {
  it('runs due timers in due order (ties in scheduling order), each at its due time', () => {
    const clock = new ManualClock(100);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => seen.push(`c@${clock.now()}`), 20);
    clock.setTimeout(() => seen.push('late'), 50);
    clock.advance(20);
    expect(seen).toEqual(['a@110', 'b@120', 'c@120']);
    expect(clock.now()).toBe(120);
    expect(clock.pendingTimers).toBe(1);
    expect(clock.nextDueMs()).toBe(150);
  });

  it('runs timers scheduled by timers within the window, and honours clearTimeout', () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    const cancelled = clock.setTimeout(() => seen.push(-1), 5);
    clock.setTimeout(() => clock.setTimeout(() => seen.push(clock.now()), 10), 10);
    clock.clearTimeout(cancelled);
    clock.advance(19);
    expect(seen).toEqual([]);
    clock.advance(1);
    expect(seen).toEqual([20]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('tick lets promise chains schedule further timers inside the window', async () => {
    const clock = new ManualClock();
    const seen: number[] = [];
    clock.setTimeout(() => {
      void Promise.resolve().then(() => clock.setTimeout(() => seen.push(clock.now()), 5));
    }, 5);
    await clock.tick(10);
    expect(seen).toEqual([10]);
  });
});

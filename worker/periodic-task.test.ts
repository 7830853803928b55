import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs a round at start, then one interval after each round ends, or after the delay a round returns', async () => {
    const starts: number[] = [];
    const delays = [undefined, 50, undefined];
    const task = new PeriodicTask(
      async () => {
        starts.push(Date.now());
        return delays.shift();
      },
      { intervalMs: 1_000 },
    );
    const t0 = Date.now();
    task.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(50);
    await vi.advanceTimersByTimeAsync(999);
    expect(starts.map((at) => at - t0)).toEqual([0, 1_000, 1_050]);
    await task.stop();
  });

  it('never overlaps rounds: a kick during a round runs one more right after it', async () => {
    let active = 0;
    let maxActive = 0;
    let rounds = 0;
    let finishRound: () => void = () => undefined;
    const task = new PeriodicTask(
      () =>
        new Promise<void>((resolve) => {
          active++;
          rounds++;
          maxActive = Math.max(maxActive, active);
          finishRound = () => {
            active--;
            resolve();
          };
        }),
      { intervalMs: 60_000 },
    );
    task.start();
    await vi.advanceTimersByTimeAsync(0);
    task.kick();
    task.kick();
    expect(rounds).toBe(1);
    finishRound();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(2);
    finishRound();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(2);
    expect(maxActive).toBe(1);
    await task.stop();
  });

  it('reports a failed round and keeps looping; after stop() no round runs', async () => {
    const errors: unknown[] = [];
    let rounds = 0;
    const task = new PeriodicTask(
      async () => {
        rounds++;
        throw new Error(`round ${rounds} failed`);
      },
      { intervalMs: 100, onError: (error) => errors.push(error) },
    );
    task.start();
    await vi.advanceTimersByTimeAsync(250);
    expect(rounds).toBe(3);
    expect((errors[0] as Error).message).toBe('round 1 failed');
    await task.stop();
    task.kick();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(rounds).toBe(3);
  });
});

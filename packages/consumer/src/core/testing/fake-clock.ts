// A manual clock for unit tests: time moves only when the test advances it; due timers run in due order
// (ties in scheduling order), each seeing now() equal to its due time.

import type { Clock, TimerHandle } from '../types.js';

interface PendingTimer {
  id: number;
  dueMs: number;
  fn: () => void;
}

/** Lets promise callbacks run. Pure (no macrotask timers): awaits a number of microtask turns. */
export async function flushMicrotasks(turns = 50): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await Promise.resolve();
}

export class ManualClock implements Clock {
  private nowMs: number;
  private nextId = 1;
  private readonly timers = new Map<number, PendingTimer>();

  constructor(startMs = 0) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { id, dueMs: this.nowMs + Math.max(0, Number.isFinite(ms) ? ms : 0), fn });
    return id;
  }

  clearTimeout(handle: TimerHandle): void {
    if (typeof handle === 'number') this.timers.delete(handle);
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Due time of the earliest pending timer, or null. */
  nextDueMs(): number | null {
    const next = this.earliest();
    return next ? next.dueMs : null;
  }

  /** Runs every timer due within `ms` (including timers those timers schedule), synchronously. */
  advance(ms: number): void {
    const target = this.nowMs + ms;
    for (let timer = this.earliestDueBy(target); timer; timer = this.earliestDueBy(target)) {
      this.timers.delete(timer.id);
      this.nowMs = timer.dueMs;
      timer.fn();
    }
    this.nowMs = target;
  }

  /**
   * Like advance, but lets promise callbacks run before and after every timer, so chains such as
   * "timer -> call -> rejection -> new timer" unfold within the advanced window.
   */
  async tick(ms: number): Promise<void> {
    const target = this.nowMs + ms;
    await flushMicrotasks();
    for (let timer = this.earliestDueBy(target); timer; timer = this.earliestDueBy(target)) {
      this.timers.delete(timer.id);
      this.nowMs = timer.dueMs;
      timer.fn();
      await flushMicrotasks();
    }
    this.nowMs = target;
    await flushMicrotasks();
  }

  private earliest(): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const timer of this.timers.values()) {
      if (!best || timer.dueMs < best.dueMs || (timer.dueMs === best.dueMs && timer.id < best.id)) best = timer;
    }
    return best;
  }

  private earliestDueBy(target: number): PendingTimer | undefined {
    const next = this.earliest();
    return next && next.dueMs <= target ? next : undefined;
  }
}

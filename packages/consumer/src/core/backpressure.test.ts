import { describe, expect, it } from 'vitest';
import { Backpressure } from './backpressure.js';

// Limits: 10 pending records, 1000 unfinished bytes; resume below 5 and 500.
const gate = new Backpressure(10, 1000);

describe('Backpressure: pause at a limit, resume below half of both (hysteresis)', () => {
  it.each([
    // [backpressured now, pending, bytes, next]
    { now: false, pending: 9, bytes: 999, next: false, rule: 'below both limits: stays running' },
    { now: false, pending: 10, bytes: 0, next: true, rule: 'pending reaches its limit: pauses' },
    { now: false, pending: 0, bytes: 1000, next: true, rule: 'bytes reach their limit: pauses' },
    { now: true, pending: 9, bytes: 0, next: true, rule: 'below the limit but not below half: stays paused' },
    { now: true, pending: 5, bytes: 0, next: true, rule: 'at half the pending limit: stays paused' },
    { now: true, pending: 4, bytes: 500, next: true, rule: 'pending below half, bytes at half: stays paused' },
    { now: true, pending: 4, bytes: 499, next: false, rule: 'below half of both: resumes' },
    { now: true, pending: 0, bytes: 0, next: false, rule: 'empty: resumes' },
    {
      now: false,
      pending: 7,
      bytes: 700,
      next: false,
      rule: 'between half and the limit while running: stays running',
    },
  ])('$rule', ({ now, pending, bytes, next }) => {
    expect(gate.next(now, pending, bytes)).toBe(next);
  });

  it('a partition filling up and draining pauses once and resumes once', () => {
    let paused = false;
    const changes: string[] = [];
    const levels = [0, 3, 6, 9, 10, 12, 9, 6, 5, 4, 6, 9, 10];
    for (const pending of levels) {
      const next = gate.next(paused, pending, 0);
      if (next !== paused) changes.push(`${next ? 'pause' : 'resume'} at ${pending}`);
      paused = next;
    }
    expect(changes).toEqual(['pause at 10', 'resume at 4', 'pause at 10']);
  });
});

describe('Backpressure.commitsEarly', () => {
  it('from half the pending budget on, or while paused, commits go out on the next timer turn', () => {
    expect(gate.commitsEarly(false, 4)).toBe(false);
    expect(gate.commitsEarly(false, 5)).toBe(true);
    expect(gate.commitsEarly(true, 0)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { CoreStatus } from './core-status.js';

describe('CoreStatus', () => {
  it('admits only while running; fatal outranks closed, closed draining, draining rebalancing', () => {
    const status = new CoreStatus();
    expect([status.state, status.admitting]).toEqual(['running', true]);
    status.rebalancing = true;
    expect([status.state, status.admitting]).toEqual(['rebalancing', false]);
    status.draining = true;
    expect(status.state).toBe('draining');
    status.closed = true;
    expect(status.state).toBe('closed');
    status.fatal = 'commit failed permanently';
    expect([status.state, status.admitting]).toEqual(['fatal', false]);
  });

  it.each(['rebalancing', 'draining', 'closed'] as const)('%s alone stops admitting', (flag) => {
    const status = new CoreStatus();
    status[flag] = true;
    expect(status.admitting).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { describePendingAction, type PendingActionPlace } from './pending-action-text';

describe('describePendingAction', () => {
  const place = (liveOwner: PendingActionPlace['liveOwner']): PendingActionPlace => ({
    groupId: 'orders',
    topic: 'orders-in',
    partition: 3,
    liveOwner,
  });
  // A local time, so the expectation holds in any time zone.
  const expiresAt = new Date(2026, 11, 1, 6, 29, 1).toISOString();
  const relayedAt = new Date(2026, 11, 1, 6, 24, 1).toISOString();

  it('says a worker has yet to send it while it is not relayed, whoever owns the partition', () => {
    for (const owner of ['orders@host-a/4242', null, undefined]) {
      expect(describePendingAction(place(owner), { relayedAt: null, expiresAt: null }, 'local')).toBe(
        'waiting for a Warden worker to send it',
      );
    }
  });

  it('names the live instance that owns the partition once it is sent', () => {
    expect(describePendingAction(place('orders@host-a/4242'), { relayedAt, expiresAt }, 'local')).toBe(
      'sent; waiting for orders@host-a/4242 to apply it',
    );
  });

  it('says it waits, and until when in the viewer zone, when no live instance owns the partition', () => {
    expect(describePendingAction(place(null), { relayedAt, expiresAt }, 'local')).toBe(
      'no live instance of orders owns orders-in-3: it waits, and expires at 06:29:01 unless an owner appears',
    );
    const utc = describePendingAction(place(null), { relayedAt, expiresAt: '2026-12-01T23:59:30.000Z' }, 'utc');
    expect(utc).toBe(
      'no live instance of orders owns orders-in-3: it waits, and expires at 23:59:30 unless an owner appears',
    );
    expect(describePendingAction(place(null), { relayedAt, expiresAt: null }, 'utc')).toBe(
      'no live instance of orders owns orders-in-3: it waits until an owner appears',
    );
  });

  it('does not claim an owner or its absence when the owner is not known', () => {
    expect(describePendingAction(place(undefined), { relayedAt, expiresAt }, 'utc')).toBe(
      'sent; waiting for the instance that owns orders-in-3 to apply it',
    );
  });
});

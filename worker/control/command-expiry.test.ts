import { describe, expect, it } from 'vitest';
import { expiryOutcome, type InstanceReportRow } from './command-expiry';

const nowMs = Date.parse('2026-12-07T12:00:00Z');
const context = { nowMs, expireAfterMs: 300_000, commandsTopic: 'warden-control.commands' };
const action = { groupId: 'orders', topic: 'orders', partition: 3, relayedAt: new Date(nowMs - 330_000) };

function instance(overrides: Partial<InstanceReportRow>): InstanceReportRow {
  return {
    instanceId: 'orders-svc@pod-1/7',
    status: 'running',
    reportedAt: new Date(nowMs - 2_000),
    stateIntervalMs: 5_000,
    assignment: [{ topic: 'orders', partition: 3 }],
    lastRefusal: null,
    ...overrides,
  };
}

describe('expiryOutcome', () => {
  it('names the live owner that did not apply it, and what it last refused', () => {
    expect(expiryOutcome(action, [instance({})], context)).toBe(
      'expired after 300 s: instance orders-svc@pod-1/7 owns orders-3 but did not apply it; nothing was changed',
    );
    expect(expiryOutcome(action, [instance({ lastRefusal: 'command 9f: signature does not match' })], context)).toBe(
      'expired after 300 s: instance orders-svc@pod-1/7 owns orders-3 but did not apply it; its last refused command: command 9f: signature does not match; nothing was changed',
    );
  });

  it('says no live instance owns the partition when its owner is gone, stopped or owns others', () => {
    const expected = 'expired after 300 s: no live instance of group orders owns orders-3; nothing was changed';
    expect(expiryOutcome(action, [], context)).toBe(expected);
    // Silent for more than three of its intervals (at least 15 s): gone.
    expect(expiryOutcome(action, [instance({ reportedAt: new Date(nowMs - 16_000) })], context)).toBe(expected);
    expect(expiryOutcome(action, [instance({ status: 'stopped' })], context)).toBe(expected);
    expect(expiryOutcome(action, [instance({ assignment: [{ topic: 'orders', partition: 2 }] })], context)).toBe(
      expected,
    );
    expect(expiryOutcome(action, [instance({ assignment: 'not a list' })], context)).toBe(expected);
  });

  it('names a refusal another live instance of the group reported', () => {
    expect(
      expiryOutcome(
        action,
        [instance({ instanceId: 'b', assignment: [], lastRefusal: 'unsigned (no warden-signature header)' })],
        context,
      ),
    ).toBe(
      'expired after 300 s: no live instance of group orders owns orders-3; instance b last refused a command: unsigned (no warden-signature header); nothing was changed',
    );
  });

  it('says when the command never reached the command topic', () => {
    expect(expiryOutcome({ ...action, relayedAt: null }, [instance({})], context)).toBe(
      'expired after 300 s without reaching warden-control.commands (no worker could produce to it); nothing was changed',
    );
  });
});

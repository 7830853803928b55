import { describe, expect, it } from 'vitest';
import { commandOf, type RelayedRow } from './command-relay';

const requestedAt = new Date('2026-12-07T12:00:00Z');
const row = (overrides: Partial<RelayedRow> = {}): RelayedRow => ({
  id: 41n,
  command_id: '3f1e0c1a-8d2b-4c5e-9f00-1234567890ab',
  group_id: 'orders',
  topic: 'orders',
  partition: 3,
  action: 'seek',
  seek_offset: null,
  seek_timestamp: new Date('2026-12-07T11:00:00Z'),
  quarantine_offset: 17n,
  reason: 'replay from the incident',
  requested_by: 'alice',
  requested_at: requestedAt,
  ...overrides,
});

describe('commandOf', () => {
  it('carries the row as a command that expires COMMAND_EXPIRE_AFTER_MS after the request', () => {
    expect(commandOf(row(), 300_000)).toEqual({
      ok: true,
      command: {
        v: 1,
        type: 'command',
        id: '3f1e0c1a-8d2b-4c5e-9f00-1234567890ab',
        groupId: 'orders',
        topic: 'orders',
        partition: 3,
        action: 'seek',
        quarantineOffset: '17',
        seekOffset: null,
        seekTimestampMs: Date.parse('2026-12-07T11:00:00Z'),
        reason: 'replay from the incident',
        requestedBy: 'alice',
        requestedAtMs: requestedAt.getTime(),
        expiresAtMs: requestedAt.getTime() + 300_000,
      },
    });
    const skip = commandOf(row({ action: 'skip', seek_timestamp: null, seek_offset: 9n, quarantine_offset: null }), 1);
    expect(skip).toMatchObject({ ok: true, command: { action: 'skip', seekOffset: '9', quarantineOffset: null } });
  });

  it('names what the protocol cannot carry', () => {
    expect(commandOf(row({ topic: 't'.repeat(250) }), 300_000)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^topic: /),
    });
    expect(commandOf(row({ action: 'reset' }), 300_000)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^action: /),
    });
  });
});

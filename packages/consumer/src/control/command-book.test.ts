import { describe, expect, it } from 'vitest';
import { ManualClock } from '../core/testing/fake-clock.js';
import { CommandBook, UNSEEN_COMMAND_MEMORY_MS } from './command-book.js';
import { CONTROL_PROTOCOL_VERSION, type TOperatorCommand } from './protocol.js';

function command(id: string, expiresAtMs: number, overrides: Partial<TOperatorCommand> = {}): TOperatorCommand {
  return {
    v: CONTROL_PROTOCOL_VERSION,
    type: 'command',
    id,
    groupId: 'g',
    topic: 'events',
    partition: 0,
    action: 'skip',
    quarantineOffset: '1',
    seekOffset: null,
    seekTimestampMs: null,
    reason: 'r',
    requestedBy: 'alice',
    requestedAtMs: 0,
    expiresAtMs,
    ...overrides,
  };
}

describe('CommandBook', () => {
  it('keeps new commands waiting in arrival order', () => {
    const book = new CommandBook(new ManualClock(1_000));
    expect(book.add(command('b', 10_000))).toBe('waiting');
    expect(book.add(command('a', 10_000))).toBe('waiting');
    expect(book.add(command('b', 10_000))).toBe('already-waiting');
    expect(book.waiting().map((c) => c.id)).toEqual(['b', 'a']);
    expect(book.waitingCount).toBe(2);
  });

  it('never hands out a decided id again, whether decided here or acknowledged by a peer', () => {
    const book = new CommandBook(new ManualClock(1_000));
    book.add(command('mine', 10_000));
    book.decide('mine');
    book.decide('peer');
    expect(book.waiting()).toEqual([]);
    expect(book.add(command('mine', 10_000))).toBe('already-decided');
    expect(book.add(command('peer', 10_000))).toBe('already-decided');
    expect(book.isDecided('mine')).toBe(true);
    expect(book.waiting()).toEqual([]);
  });

  it('drops a command at its expiry, and refuses one that arrives expired', () => {
    const clock = new ManualClock(1_000);
    const book = new CommandBook(clock);
    book.add(command('soon', 5_000));
    book.add(command('later', 9_000));
    expect(book.add(command('old', 1_000))).toBe('expired');
    clock.advance(3_999);
    expect(book.waiting().map((c) => c.id)).toEqual(['soon', 'later']);
    clock.advance(1);
    expect(book.waiting().map((c) => c.id)).toEqual(['later']);
  });

  it('forgets a decided id only once its command has expired', () => {
    const clock = new ManualClock(1_000);
    const book = new CommandBook(clock);
    book.add(command('c', 5_000));
    book.decide('c');
    clock.advance(3_999);
    expect(book.add(command('c', 5_000))).toBe('already-decided');
    clock.advance(1);
    // Expired now: still remembered, though a copy of it could not apply any more anyway.
    expect(book.add(command('c', 5_000))).toBe('already-decided');
    clock.advance(1);
    expect(book.add(command('c', 5_000))).toBe('expired');
    expect(book.isDecided('c')).toBe(false);
  });

  it('remembers a decided id as long as a re-sent copy with a later expiry could apply', () => {
    const clock = new ManualClock(1_000);
    const book = new CommandBook(clock);
    book.add(command('c', 5_000));
    book.decide('c');
    expect(book.add(command('c', 50_000))).toBe('already-decided');
    clock.advance(20_000);
    expect(book.add(command('c', 50_000))).toBe('already-decided');
  });

  it("remembers a peer's acknowledgement of an unseen command for the topic's retention", () => {
    const clock = new ManualClock(1_000);
    const book = new CommandBook(clock);
    book.decide('unseen');
    clock.advance(UNSEEN_COMMAND_MEMORY_MS);
    expect(book.isDecided('unseen')).toBe(true);
    clock.advance(1);
    book.waiting();
    expect(book.isDecided('unseen')).toBe(false);
  });
});

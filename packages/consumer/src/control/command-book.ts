import type { Clock } from '../core/index.js';
import type { TOperatorCommand } from './protocol.js';

// The commands one instance has read from the command topic, on the injected clock. Pure.
//
// Invariants:
// - at most once: an id decided here (applied, failed or rejected) or acknowledged by a peer is never handed
//   out again, however often the command is re-read or re-sent; a decided id is forgotten only once its
//   command has expired (an expired command is never handed out anyway);
// - a command waits (in arrival order) until it is decided or expires: while its partition is owned elsewhere,
//   or owned here before the held record is reached;
// - an expired command is dropped silently: Warden's worker records it expired.

/**
 * How long the id of an acknowledgement whose command this instance never read is remembered: the command
 * topic's retention, after which the command cannot be read again.
 */
export const UNSEEN_COMMAND_MEMORY_MS = 24 * 60 * 60 * 1000;

export type AddResult = 'waiting' | 'already-waiting' | 'already-decided' | 'expired';

export class CommandBook {
  private readonly pending = new Map<string, TOperatorCommand>();
  /** Decided ids, each with the time after which it may be forgotten. */
  private readonly decided = new Map<string, number>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** A command read from the topic: it waits unless it was decided already or has expired. */
  add(command: TOperatorCommand): AddResult {
    this.expire();
    const forgetAt = this.decided.get(command.id);
    if (forgetAt !== undefined) {
      // A re-sent copy may expire later than the first: the id is remembered as long as any copy can apply.
      this.decided.set(command.id, Math.max(forgetAt, command.expiresAtMs));
      return 'already-decided';
    }
    if (this.isExpired(command)) return 'expired';
    if (this.pending.has(command.id)) return 'already-waiting';
    this.pending.set(command.id, command);
    return 'waiting';
  }

  /** The command was decided here or acknowledged by a peer: it is never handed out again. */
  decide(commandId: string): void {
    const command = this.pending.get(commandId);
    this.pending.delete(commandId);
    const forgetAt = command?.expiresAtMs ?? this.clock.now() + UNSEEN_COMMAND_MEMORY_MS;
    this.decided.set(commandId, Math.max(this.decided.get(commandId) ?? 0, forgetAt));
  }

  isDecided(commandId: string): boolean {
    return this.decided.has(commandId);
  }

  /** The commands still waiting and not expired, in arrival order. */
  waiting(): TOperatorCommand[] {
    this.expire();
    return [...this.pending.values()];
  }

  get waitingCount(): number {
    this.expire();
    return this.pending.size;
  }

  /** Drops expired commands and forgets decided ids whose commands can no longer apply. */
  private expire(): void {
    const nowMs = this.clock.now();
    for (const [id, command] of this.pending) if (this.isExpired(command)) this.pending.delete(id);
    for (const [id, forgetAt] of this.decided) if (forgetAt < nowMs) this.decided.delete(id);
  }

  private isExpired(command: TOperatorCommand): boolean {
    return command.expiresAtMs <= this.clock.now();
  }
}

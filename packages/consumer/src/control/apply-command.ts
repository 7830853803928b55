import type { Admin } from 'kafkajs';
import type {
  CoreSnapshot,
  DeadLetterInfo,
  OperatorActionResult,
  PartitionSnapshot,
  SourceRecord,
  TopicPartition,
} from '../core/index.js';
import type { TCommandOutcome, TOperatorCommand } from './protocol.js';

// Applies one operator command (resume, skip or seek of a quarantined partition) on the consumer core of the
// instance that owns the partition, or says that the command has to wait. Everything it touches comes through
// ApplyPorts, so it is unit-tested with fakes; `adminOffsetPorts` builds the broker side from a kafkajs admin.

/** The consumer core's operator surface (ConsumerCore implements it). */
export interface ApplyCore {
  owns(tp: TopicPartition): boolean;
  snapshot(): Pick<CoreSnapshot, 'partitions'>;
  resumeQuarantined(tp: TopicPartition): OperatorActionResult;
  skipQuarantined(tp: TopicPartition): OperatorActionResult;
  seekQuarantined(tp: TopicPartition, offset: string): OperatorActionResult;
}

/** The consumer's dead-letter port and the name outcomes give it. */
export interface DeadLetterPort {
  name: string;
  write(record: SourceRecord, info: DeadLetterInfo): Promise<void>;
}

/** The broker reads a seek needs. */
export interface OffsetPorts {
  /** The partition's log start (low) and end (high) watermarks, read from the broker now. */
  logRange(tp: TopicPartition): Promise<{ start: bigint; end: bigint }>;
  /** The first offset whose record timestamp is at or after `timestampMs`; the log end when there is none. */
  offsetAt(tp: TopicPartition, timestampMs: number): Promise<bigint>;
}

export interface ApplyPorts extends OffsetPorts {
  core: ApplyCore;
  /** Where a skipped record is copied first; null when the consumer has no dead-letter port. */
  deadLetter: DeadLetterPort | null;
}

/** What applying a command did (the protocol's outcome without its command fields and time). */
export type ApplyOutcome = Pick<TCommandOutcome, 'status' | 'outcome' | 'liftedOffset' | 'seekOffset'>;

/**
 * Applies `command` when this instance can decide it now, and says what happened; returns null when the command
 * has to wait (it is examined again later, until it expires). Never throws: a failure of the core or a port
 * becomes a 'failed' outcome.
 *
 * When it waits (null): the partition is not owned here (its owner, or a later one, decides); or it is owned
 * and not held, the command names a held offset, and the commit has not passed that offset yet (the owner
 * may not have re-read the record since a rebalance moved the partition here).
 *
 * Outcomes:
 * - 'rejected': nothing was changed because the command no longer makes sense (the partition is not
 *   quarantined any more, or is held at another record than the operator saw, or a seek target is outside the
 *   log). A command without a quarantine offset applies to whatever is held and is rejected when nothing is.
 * - 'failed': it was attempted and did not complete (the dead-letter copy or the core refused); for a skip the
 *   dead-letter copy comes first, so a failed copy skips nothing.
 * - 'done': applied; the commit then moves as the core decides (never past unfinished work).
 */
export async function applyCommand(command: TOperatorCommand, ports: ApplyPorts): Promise<ApplyOutcome | null> {
  const tp = { topic: command.topic, partition: command.partition };
  const name = `${command.topic}-${command.partition}`;
  try {
    if (!ports.core.owns(tp)) return null;
    const partition = partitionOf(ports.core, tp);
    const held = partition?.quarantine ?? null;
    const wanted = command.quarantineOffset === null ? null : BigInt(command.quarantineOffset);
    if (!held) {
      const watermark = partition?.watermark ?? null;
      if (wanted !== null && (watermark === null || BigInt(watermark) <= wanted)) return null;
      return { status: 'rejected', outcome: `${name} is not quarantined (any more): nothing to ${command.action}` };
    }
    if (wanted !== null && BigInt(held.offset) !== wanted) {
      return {
        status: 'rejected',
        outcome: `${name} is now held at offset ${held.offset}, not at ${wanted} where the operator looked; look at the new record and ask again`,
      };
    }

    switch (command.action) {
      case 'resume': {
        const result = ports.core.resumeQuarantined(tp);
        return {
          status: 'done',
          outcome: `resumed: retrying offset ${held.offset}; reading continues at ${result.seekOffset}`,
          liftedOffset: held.offset,
        };
      }
      case 'skip': {
        let copied = '';
        if (ports.deadLetter) {
          const record: SourceRecord = {
            ...tp,
            offset: held.offset,
            key: held.key,
            value: held.value,
            timestampMs: held.timestampMs,
            headers: held.headers,
          };
          try {
            await ports.deadLetter.write(record, {
              errorClass: held.errorClass,
              reason: `skipped by ${command.requestedBy}: ${command.reason} (held for: ${held.reason})`,
              attempts: held.attempts,
            });
          } catch (error) {
            return {
              status: 'failed',
              outcome: `the dead-letter copy to ${ports.deadLetter.name} failed (${messageOf(error)}); nothing was skipped, ${name} stays quarantined`,
            };
          }
          copied = `, copied to ${ports.deadLetter.name}`;
          // The write awaited: the partition may have moved or been released meanwhile.
          const still = partitionOf(ports.core, tp)?.quarantine ?? null;
          if (!ports.core.owns(tp) || !still || still.offset !== held.offset) {
            return {
              status: 'failed',
              outcome: `offset ${held.offset} was copied to ${ports.deadLetter.name}, but ${name} changed hands or state meanwhile; it was not skipped`,
            };
          }
        }
        const result = ports.core.skipQuarantined(tp);
        return {
          status: 'done',
          outcome: `skipped offset ${held.offset} without processing${copied}; reading continues at ${result.seekOffset}`,
          liftedOffset: held.offset,
        };
      }
      case 'seek': {
        let target: bigint;
        let from = '';
        if (command.seekOffset !== null) {
          target = BigInt(command.seekOffset);
        } else if (command.seekTimestampMs !== null) {
          target = await ports.offsetAt(tp, command.seekTimestampMs);
          from = ` (first record at or after ${new Date(command.seekTimestampMs).toISOString()})`;
        } else {
          return { status: 'rejected', outcome: 'seek without an offset or a timestamp' };
        }
        const range = await ports.logRange(tp);
        if (target < range.start || target > range.end) {
          return {
            status: 'rejected',
            outcome: `offset ${target} is outside the log of ${name} (${range.start} to ${range.end}); nothing was changed`,
            seekOffset: target.toString(),
          };
        }
        // The awaits above may have let the partition move; the core re-checks ownership and the quarantine.
        const result = ports.core.seekQuarantined(tp, target.toString());
        return {
          status: 'done',
          outcome: `sought from offset ${held.offset} to ${result.seekOffset}${from}`,
          seekOffset: target.toString(),
          liftedOffset: held.offset,
        };
      }
    }
  } catch (error) {
    return { status: 'failed', outcome: `${command.action} of ${name} failed: ${messageOf(error)}` };
  }
}

/** The admin calls a seek makes (a kafkajs `Admin` has them). */
export type OffsetAdmin = Pick<Admin, 'fetchTopicOffsets' | 'fetchTopicOffsetsByTimestamp'>;

/** The broker reads of a seek through a kafkajs admin; a partition the broker does not know is an error. */
export function adminOffsetPorts(admin: OffsetAdmin): OffsetPorts {
  const partitionOf = <P extends { partition: number }>(list: P[], tp: TopicPartition): P => {
    const found = list.find((p) => p.partition === tp.partition);
    if (!found) throw new Error(`${tp.topic}-${tp.partition} does not exist on the broker`);
    return found;
  };
  return {
    logRange: async (tp) => {
      const p = partitionOf(await admin.fetchTopicOffsets(tp.topic), tp);
      return { start: BigInt(p.low), end: BigInt(p.high) };
    },
    // kafkajs answers the high watermark when no record is at or after the time.
    offsetAt: async (tp, timestampMs) =>
      BigInt(partitionOf(await admin.fetchTopicOffsetsByTimestamp(tp.topic, timestampMs), tp).offset),
  };
}

function partitionOf(core: ApplyCore, tp: TopicPartition): PartitionSnapshot | null {
  return core.snapshot().partitions.find((p) => p.topic === tp.topic && p.partition === tp.partition) ?? null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import type {
  CoreSnapshot,
  DeadLetterInfo,
  OperatorActionResult,
  SourceRecord,
  TopicPartition,
} from '@warden/consumer';

// Applies one operator action (resume, skip or seek of a quarantined partition) on the consumer core of the
// worker that owns the partition. Everything it touches comes through ActionPorts, so it is unit-tested with
// fakes; worker/commands/kafka-action-ports.ts builds the real ports.

/** The consumer core's operator surface (ConsumerCore implements it). */
export interface ActionCore {
  owns(tp: TopicPartition): boolean;
  snapshot(): Pick<CoreSnapshot, 'partitions'>;
  resumeQuarantined(tp: TopicPartition): OperatorActionResult;
  skipQuarantined(tp: TopicPartition): OperatorActionResult;
  seekQuarantined(tp: TopicPartition, offset: string): OperatorActionResult;
}

export interface ActionPorts {
  core: ActionCore;
  /** Copies a record to the dead-letter topic (acks=all); null when no dead-letter topic is configured. */
  deadLetter: { topic: string; write(record: SourceRecord, info: DeadLetterInfo): Promise<void> } | null;
  /** The partition's log start (low) and end (high) watermarks, read from the broker now. */
  logRange(tp: TopicPartition): Promise<{ start: bigint; end: bigint }>;
  /** The first offset whose record timestamp is at or after `timestampMs`; the log end when there is none. */
  offsetAt(tp: TopicPartition, timestampMs: number): Promise<bigint>;
}

/** A pending operator_action row, as the poller claimed it. */
export interface PendingAction {
  id: bigint;
  groupId: string;
  topic: string;
  partition: number;
  action: string;
  seekOffset: bigint | null;
  seekTimestamp: Date | null;
  quarantineOffset: bigint | null;
  reason: string;
  requestedBy: string;
}

export interface ActionOutcome {
  status: 'done' | 'failed' | 'rejected';
  outcome: string;
  /** For a seek: the offset the partition continues at (resolved from the timestamp when one was given). */
  seekOffset?: bigint;
  /** For 'done': the offset the partition was held at, which the action lifted. */
  liftedOffset?: bigint;
}

/**
 * Executes `action` and says what happened; returns null when this consumer does not own the partition (the
 * row stays pending for its owner). Never throws: a failure of the core or a port becomes a 'failed' outcome.
 * - 'rejected': nothing was changed because the action no longer makes sense (the partition is not
 *   quarantined, or is held at another record than the operator saw, or a seek target is outside the log).
 * - 'failed': it was attempted and did not complete (the dead-letter copy or the core refused); for a skip the
 *   dead-letter copy comes first, so a failed copy skips nothing.
 * - 'done': applied; the commit then moves as the core decides (never past unfinished work). A resume that is
 *   'done' turns 'failed_again' when the record is held again (worker/pipeline/quarantine-store.ts).
 */
export async function executeOperatorAction(action: PendingAction, ports: ActionPorts): Promise<ActionOutcome | null> {
  const tp = { topic: action.topic, partition: action.partition };
  const name = `${action.topic}-${action.partition}`;
  if (!ports.core.owns(tp)) return null;
  const held = quarantineOf(ports.core, tp);
  if (!held)
    return { status: 'rejected', outcome: `${name} is not quarantined (any more): nothing to ${action.action}` };
  if (action.quarantineOffset !== null && BigInt(held.offset) !== action.quarantineOffset) {
    return {
      status: 'rejected',
      outcome: `${name} is now held at offset ${held.offset}, not at ${action.quarantineOffset} where the operator looked; look at the new record and ask again`,
    };
  }

  try {
    switch (action.action) {
      case 'resume': {
        const result = ports.core.resumeQuarantined(tp);
        return {
          status: 'done',
          outcome: `resumed: retrying offset ${held.offset}; reading continues at ${result.seekOffset}`,
          liftedOffset: BigInt(held.offset),
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
              reason: `skipped by ${action.requestedBy}: ${action.reason} (held for: ${held.reason})`,
              attempts: held.attempts,
            });
          } catch (error) {
            return {
              status: 'failed',
              outcome: `the dead-letter copy to ${ports.deadLetter.topic} failed (${messageOf(error)}); nothing was skipped, ${name} stays quarantined`,
            };
          }
          copied = `, copied to ${ports.deadLetter.topic}`;
          // The write awaited: the partition may have moved or been released meanwhile.
          const still = quarantineOf(ports.core, tp);
          if (!ports.core.owns(tp) || !still || still.offset !== held.offset) {
            return {
              status: 'failed',
              outcome: `offset ${held.offset} was copied to ${ports.deadLetter.topic}, but ${name} changed hands or state meanwhile; it was not skipped`,
            };
          }
        }
        const result = ports.core.skipQuarantined(tp);
        return {
          status: 'done',
          outcome: `skipped offset ${held.offset} without processing${copied}; reading continues at ${result.seekOffset}`,
          liftedOffset: BigInt(held.offset),
        };
      }
      case 'seek': {
        let target = action.seekOffset;
        let from = '';
        if (target === null) {
          if (action.seekTimestamp === null)
            return { status: 'rejected', outcome: 'seek without an offset or a timestamp' };
          target = await ports.offsetAt(tp, action.seekTimestamp.getTime());
          from = ` (first record at or after ${action.seekTimestamp.toISOString()})`;
        }
        const range = await ports.logRange(tp);
        if (target < range.start || target > range.end) {
          return {
            status: 'rejected',
            outcome: `offset ${target} is outside the log of ${name} (${range.start} to ${range.end}); nothing was changed`,
            seekOffset: target,
          };
        }
        // The awaits above may have let the partition move; the core re-checks ownership and the quarantine.
        const result = ports.core.seekQuarantined(tp, target.toString());
        return {
          status: 'done',
          outcome: `sought from offset ${held.offset} to ${result.seekOffset}${from}`,
          seekOffset: target,
          liftedOffset: BigInt(held.offset),
        };
      }
      default:
        return { status: 'rejected', outcome: `unknown action "${action.action}"` };
    }
  } catch (error) {
    return { status: 'failed', outcome: `${action.action} of ${name} failed: ${messageOf(error)}` };
  }
}

function quarantineOf(core: ActionCore, tp: TopicPartition) {
  return (
    core.snapshot().partitions.find((p) => p.topic === tp.topic && p.partition === tp.partition)?.quarantine ?? null
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

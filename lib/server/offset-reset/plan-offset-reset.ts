import type { TOffsetResetRequest } from '../../schemas/offset-reset';
import { RESETTABLE_STATES } from '../../schemas/values';
import { ApiError } from '../api-error';

// The pure half of an offset reset: which partitions move to which offsets, and whether the group's state
// allows it. Offsets are decimal strings (int64) compared as BigInt.

export interface PartitionLog {
  partition: number;
  /** Log start: the first offset still in the log. */
  low: string;
  /** Log end: the offset the next record will get. */
  high: string;
}

export interface PlannedReset {
  partition: number;
  previousOffset: string | null;
  offset: string;
}

/** A seek time may lead the server's clock by this much (skew), not more: no record can be at a later time yet. */
export const FUTURE_TOLERANCE_MS = 60_000;

/**
 * The partitions to move and their new offsets. Refusals change nothing: 404 for a partition the topic does
 * not have; 400 for an offset outside the partition's log [log start, log end] or a time in the future.
 * `atTime` holds the broker's answer for to=timestamp (the log end where no record is at or after the time).
 */
export function planOffsetReset(
  request: TOffsetResetRequest,
  logs: readonly PartitionLog[],
  committed: ReadonlyMap<number, string | null>,
  atTime: ReadonlyMap<number, string> | null,
  nowMs: number,
): PlannedReset[] {
  const sorted = [...logs].sort((a, b) => a.partition - b.partition);
  let chosen = sorted;
  if (request.partition !== undefined) {
    chosen = sorted.filter((p) => p.partition === request.partition);
    if (chosen.length === 0) {
      const range = sorted.length === 0 ? 'none' : `0-${sorted.at(-1)!.partition}`;
      throw new ApiError(
        404,
        `partition: topic ${request.topic} has no partition ${request.partition} (its partitions: ${range})`,
        'partition',
      );
    }
  }
  if (request.to === 'timestamp' && Date.parse(request.timestamp!) > nowMs + FUTURE_TOLERANCE_MS) {
    throw new ApiError(400, 'timestamp: is in the future; no record can be at or after it yet', 'timestamp');
  }
  return chosen.map((log) => {
    let offset: string;
    if (request.to === 'earliest') offset = log.low;
    else if (request.to === 'latest') offset = log.high;
    else if (request.to === 'timestamp') {
      const found = atTime?.get(log.partition);
      if (found === undefined) throw new Error(`no offset for time on ${request.topic}-${log.partition}`);
      offset = found;
    } else {
      offset = BigInt(request.offset!).toString();
      if (BigInt(offset) < BigInt(log.low) || BigInt(offset) > BigInt(log.high)) {
        throw new ApiError(
          400,
          `offset: ${request.offset} is outside the log of ${request.topic}-${log.partition}: it must be between the log start ${log.low} and the log end ${log.high}`,
          'offset',
        );
      }
    }
    return { partition: log.partition, previousOffset: committed.get(log.partition) ?? null, offset };
  });
}

/**
 * Null when offsets may be written in this group state; otherwise the 409 sentence. Only an Empty or Dead group
 * is safe: a member would overwrite the reset with its next commit, or keep reading where it is.
 */
export function resetRefusal(groupId: string, state: string, members: number): string | null {
  if ((RESETTABLE_STATES as readonly string[]).includes(state)) return null;
  const who = members > 0 ? ` with ${members} member${members === 1 ? '' : 's'}` : '';
  return (
    `consumer group "${groupId}" is ${state}${who}: offsets can only be reset while no consumer is in the group (Empty or Dead), ` +
    'since a member would overwrite them with its next commit. Stop its consumers, wait until the group is Empty, then reset.'
  );
}

/** The audit log's sentence for one partition's reset. */
export function describeReset(request: Pick<TOffsetResetRequest, 'to' | 'timestamp'>, planned: PlannedReset): string {
  const target =
    request.to === 'earliest'
      ? 'the earliest offset'
      : request.to === 'latest'
        ? 'the latest offset'
        : request.to === 'timestamp'
          ? `the first offset at or after ${request.timestamp}`
          : `offset ${planned.offset}`;
  return `committed offset reset to ${target}: ${planned.previousOffset ?? 'none'} → ${planned.offset}`;
}

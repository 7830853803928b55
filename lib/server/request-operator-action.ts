import type { Database } from '../db';
import { OPERATOR_ACTION_CHANNEL, type TActionRequest, type TOperatorAction } from '../schemas/operator-actions';
import { ApiError, notFound } from './api-error';
import { operatorActionJson } from './operator-action-json';

export interface ActionTarget {
  groupId: string;
  topic: string;
  partition: number;
}

/** A seek timestamp may lead the server's clock by this much (clock skew), not more. */
const FUTURE_TOLERANCE_MS = 60_000;

/**
 * POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions: records a pending operator action for the
 * worker that owns the partition (worker/commands/ executes it and records the outcome). Nothing is written
 * unless every check passes:
 * - 404: the group or the partition was never sampled;
 * - 409: the partition is not quarantined (only a held partition of a Warden consumer can be acted on), or
 *   an action for it is already pending (two in flight could contradict each other);
 * - 400: a seek offset outside the partition's log [log start, log end] of the newest sample, or a seek time
 *   in the future.
 * The quarantined offset the operator saw is stored with the action, so the worker refuses it if the
 * partition is held at another record by the time it runs.
 */
export async function requestOperatorAction(
  db: Database,
  target: ActionTarget,
  request: TActionRequest,
  requestedBy: string,
  now = new Date(),
): Promise<TOperatorAction> {
  const { groupId, topic, partition } = target;
  const name = `${topic}-${partition}`;
  const groupSample = await db.lagSample.findFirst({ where: { groupId }, select: { id: true } });
  if (!groupSample) throw notFound(`consumer group "${groupId}" has never been sampled`);
  const sample = await db.lagSample.findFirst({ where: { groupId, topic, partition }, orderBy: { sampledAt: 'desc' } });
  if (!sample) throw notFound(`partition ${name} of group "${groupId}" has never been sampled`);

  let seekOffset: bigint | null = null;
  let seekTimestamp: Date | null = null;
  if (request.action === 'seek' && request.offset !== undefined) {
    seekOffset = BigInt(request.offset);
    if (seekOffset < sample.logStartOffset || seekOffset > sample.logEndOffset) {
      throw new ApiError(
        400,
        `offset: ${request.offset} is outside the log of ${name}: it must be between the log start ${sample.logStartOffset} ` +
          `and the log end ${sample.logEndOffset} (sampled ${sample.sampledAt.toISOString()})`,
        'offset',
      );
    }
  }
  if (request.action === 'seek' && request.timestamp !== undefined) {
    seekTimestamp = new Date(request.timestamp);
    if (seekTimestamp.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
      throw new ApiError(400, 'timestamp: is in the future; no record can be at or after it yet', 'timestamp');
    }
  }

  const created = await db.$transaction(async (tx) => {
    // Serializes requests for one partition, so the "one pending action" check below cannot race.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${groupId}/${name}`}, 7))`;
    const quarantine = await tx.partitionQuarantine.findUnique({
      where: { groupId_topic_partition: { groupId, topic, partition } },
    });
    if (!quarantine) {
      throw new ApiError(
        409,
        `partition ${name} of group "${groupId}" is not quarantined: only a partition a Warden consumer holds can be resumed, skipped or sought`,
      );
    }
    const pending = await tx.operatorAction.findFirst({
      where: { groupId, topic, partition, status: 'pending' },
      orderBy: { id: 'asc' },
    });
    if (pending) {
      throw new ApiError(
        409,
        `action #${pending.id} (${pending.action}) on ${name} is still pending; wait for its outcome before asking again`,
      );
    }
    // Wakes the owning worker at commit (worker/commands/operator-action-listener.ts); it also polls.
    await tx.$executeRaw`SELECT pg_notify(${OPERATOR_ACTION_CHANNEL}, ${groupId})`;
    return tx.operatorAction.create({
      data: {
        groupId,
        topic,
        partition,
        action: request.action,
        seekOffset,
        seekTimestamp,
        quarantineOffset: quarantine.offset,
        reason: request.reason,
        requestedBy,
        requestedAt: now,
        status: 'pending',
      },
    });
  });
  return operatorActionJson(created);
}

import type { Database } from '../db';
import { DEFAULT_CLUSTER } from '../kafka/cluster-settings';
import {
  OPERATOR_ACTION_CHANNEL,
  ZActionRequest,
  type TActionRequest,
  type TOperatorAction,
} from '../schemas/operator-actions';
import { ApiError, notFound } from './api-error';
import { operatorActionJson } from './operator-action-json';

export interface ActionTarget {
  cluster: string;
  groupId: string;
  topic: string;
  partition: number;
}

/** A seek timestamp may lead the server's clock by this much (clock skew), not more. */
const FUTURE_TOLERANCE_MS = 60_000;

/**
 * POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions: records a pending operator action for the
 * consumer instance that owns the partition (a worker's command relay, worker/control/command-relay.ts, sends it
 * over the control plane; the instance applies it and the worker's ingester records the outcome). Nothing is written
 * unless every check passes:
 * - 404: the group or the partition was never sampled;
 * - 409: the partition is not quarantined (only a held partition of a Warden consumer can be acted on), an
 *   action for it is already pending (two in flight could contradict each other), or a resume is retrying its
 *   record (its outcome comes first); the refused attempt is kept as a 'rejected' audit row;
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
  const { cluster, groupId, topic, partition } = target;
  const name = `${topic}-${partition}`;
  const groupSample = await db.lagSample.findFirst({ where: { cluster, groupId }, select: { sampledAt: true } });
  if (!groupSample) throw notFound(`consumer group "${groupId}" has never been sampled${inCluster(cluster)}`);
  const sample = await db.lagSample.findFirst({
    where: { cluster, groupId, topic, partition },
    orderBy: { sampledAt: 'desc' },
  });
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

  const row = {
    cluster,
    groupId,
    topic,
    partition,
    action: request.action,
    seekOffset,
    seekTimestamp,
    reason: request.reason,
    requestedBy,
    requestedAt: now,
  };
  let heldAt: bigint | null = null;
  let created;
  try {
    created = await db.$transaction(async (tx) => {
      // Serializes requests for one partition, so the "one pending action" check below cannot race.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${cluster}/${groupId}/${name}`}, 7))`;
      const quarantine = await tx.partitionQuarantine.findUnique({
        where: { cluster_groupId_topic_partition: { cluster, groupId, topic, partition } },
      });
      if (!quarantine) {
        throw new ApiError(
          409,
          `partition ${name} of group "${groupId}" is not quarantined: only a partition a Warden consumer holds can be resumed, skipped or sought`,
        );
      }
      heldAt = quarantine.offset;
      if (quarantine.resumeActionId !== null) {
        throw new ApiError(
          409,
          `resume #${quarantine.resumeActionId} is retrying offset ${quarantine.offset} of ${name}; wait for its outcome before asking again`,
        );
      }
      const pending = await tx.operatorAction.findFirst({
        where: { cluster, groupId, topic, partition, status: 'pending' },
        orderBy: { id: 'asc' },
      });
      if (pending) {
        throw new ApiError(
          409,
          `action #${pending.id} (${pending.action}) on ${name} is still pending; wait for its outcome before asking again`,
        );
      }
      // Wakes the workers' command relays at commit (worker/control/operator-action-listener.ts); they also poll.
      await tx.$executeRaw`SELECT pg_notify(${OPERATOR_ACTION_CHANNEL}, ${groupId})`;
      return tx.operatorAction.create({ data: { ...row, quarantineOffset: quarantine.offset, status: 'pending' } });
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      await db.operatorAction.create({ data: rejectedRow(row, heldAt, error, now) });
    }
    throw error;
  }
  return operatorActionJson(created);
}

/**
 * For an operator attempt the API refused with 403 (wrong role, another origin): records it as a 'rejected'
 * audit row under the caller's name when the target and body are well formed (anything else is refused with
 * no row: there is no action to name). Never throws: the refusal itself is what the caller gets.
 */
export async function recordRefusedAttempt(
  db: Database,
  attempt: { who: string; refusal: ApiError; target: ActionTarget | null; body: unknown },
  now = new Date(),
): Promise<void> {
  const body = ZActionRequest.safeParse(attempt.body);
  if (attempt.target === null || !body.success) return;
  const { cluster, groupId, topic, partition } = attempt.target;
  try {
    const held = await db.partitionQuarantine.findUnique({
      where: { cluster_groupId_topic_partition: { cluster, groupId, topic, partition } },
      select: { offset: true },
    });
    await db.operatorAction.create({
      data: rejectedRow(
        {
          cluster,
          groupId,
          topic,
          partition,
          action: body.data.action,
          seekOffset: body.data.offset === undefined ? null : BigInt(body.data.offset),
          seekTimestamp: body.data.timestamp === undefined ? null : new Date(body.data.timestamp),
          reason: body.data.reason,
          requestedBy: attempt.who,
          requestedAt: now,
        },
        held?.offset ?? null,
        attempt.refusal,
        now,
      ),
    });
  } catch (error) {
    console.error('a refused operator attempt could not be audited', error);
  }
}

function rejectedRow<T extends object>(row: T, heldAt: bigint | null, refusal: ApiError, now: Date) {
  return {
    ...row,
    quarantineOffset: heldAt,
    status: 'rejected',
    outcome: `refused by the API (${refusal.status}): ${refusal.message}`,
    completedAt: now,
  };
}

/** " in cluster "x"" for a cluster other than the default one, so messages about the default read as before. */
function inCluster(cluster: string): string {
  return cluster === DEFAULT_CLUSTER ? '' : ` in cluster "${cluster}"`;
}

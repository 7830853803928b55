import type { Database } from '../db';
import { neverSampled } from './request-cluster';
import { ZOffsetResetResult, type TOffsetResetRequest, type TOffsetResetResult } from '../schemas/offset-reset';
import { ApiError, notFound } from './api-error';
import { groupKey, loadConsumerInstances } from './consumer-instances';
import { GroupNotEmptyError, type GroupOffsetsPort } from './offset-reset/kafka-group-offsets';
import { describeReset, planOffsetReset, resetRefusal } from './offset-reset/plan-offset-reset';

/** Recorded as executedBy of reset rows: the dashboard wrote the offsets itself, no worker was involved. */
export const RESET_EXECUTOR = 'dashboard';

/**
 * POST /api/groups/{groupId}/offsets/reset: moves the committed offsets of a group that is not a Warden
 * consumer, for one partition or a whole topic, to the earliest or latest offset, the first offset at or
 * after a time, or an explicit offset. Refusals write nothing:
 * - 404: the group was never sampled, it has no partitions of the topic, or the topic or partition does not exist;
 * - 409: the group is a Warden consumer (it reports instances, commit-prefix state or quarantines: its partitions
 *   move through the consumer that owns them, from the Quarantine page), or it is
 *   not Empty or Dead (checked with describeGroups right before writing);
 * - 400: an offset outside the partition's log, or a time in the future.
 * The write runs inside a Postgres transaction that holds a per-group advisory lock (two resets of one group
 * never interleave) and has already inserted one audit row per partition: when the broker refuses the write
 * (a member joined after the check: 409) or fails (503), the rows are kept as `rejected` / `failed` with the
 * reason, and the offsets are unchanged. Only if Postgres fails after the broker accepted the write is the
 * reset not audited; that case is logged and answered 500.
 */
export async function resetGroupOffsets(
  db: Database,
  /** A connection to the group's own cluster. */
  kafka: GroupOffsetsPort,
  { cluster, groupId }: { cluster: string; groupId: string },
  request: TOffsetResetRequest,
  requestedBy: string,
  now = new Date(),
): Promise<TOffsetResetResult> {
  const sampled = await db.lagSample.findFirst({
    where: { cluster, groupId },
    orderBy: { sampledAt: 'desc' },
    select: { sampledAt: true },
  });
  if (!sampled) throw notFound(neverSampled(cluster, groupId));
  // A Warden consumer as the group page judges it (get-group-detail.ts isWardenConsumer), so the page never
  // offers a reset this refuses, nor hides one it allows.
  const [ownState, quarantine, instances] = await Promise.all([
    db.consumerPartitionState.findFirst({ where: { cluster, groupId }, select: { groupId: true } }),
    db.partitionQuarantine.findFirst({ where: { cluster, groupId }, select: { groupId: true } }),
    loadConsumerInstances(db, [{ cluster, groupId }], now.getTime()),
  ]);
  const reporting = (instances.get(groupKey({ cluster, groupId }))?.instances.length ?? 0) > 0;
  if (ownState || quarantine || reporting) {
    throw new ApiError(
      409,
      `consumer group "${groupId}" is a Warden consumer: its partitions are moved by the consumer that owns them (resume, skip or seek on the Quarantine page), not by rewriting its offsets`,
    );
  }
  const topicSample = await db.lagSample.findFirst({
    where: { cluster, groupId, topic: request.topic },
    select: { sampledAt: true },
  });
  if (!topicSample)
    throw new ApiError(
      404,
      `topic: consumer group "${groupId}" has no partitions of topic ${request.topic} in its samples`,
      'topic',
    );

  const logs = await kafka.topicLogs(request.topic);
  if (!logs) throw new ApiError(404, `topic: ${request.topic} does not exist (any more) on the cluster`, 'topic');
  const committed = await kafka.committedOffsets(groupId, request.topic);
  const atTime =
    request.to === 'timestamp' ? await kafka.offsetsAtTime(request.topic, Date.parse(request.timestamp!)) : null;
  const plan = planOffsetReset(request, logs, committed, atTime, now.getTime());

  let result: { state: string; ids: bigint[]; failure: Error | null } | undefined;
  await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`offset-reset/${cluster}/${groupId}`}, 7))`;
      // Right before writing: a group with members would overwrite the reset with its next commit.
      const { state, members } = await kafka.describeGroup(groupId);
      const refusal = resetRefusal(groupId, state, members);
      if (refusal) throw new ApiError(409, refusal);
      const ids: bigint[] = [];
      for (const planned of plan) {
        const row = await tx.operatorAction.create({
          data: {
            cluster,
            groupId,
            topic: request.topic,
            partition: planned.partition,
            action: 'reset',
            seekOffset: BigInt(planned.offset),
            seekTimestamp: request.timestamp ? new Date(request.timestamp) : null,
            reason: request.reason,
            requestedBy,
            requestedAt: now,
            status: 'done',
            outcome: describeReset(request, planned),
            executedBy: RESET_EXECUTOR,
            completedAt: now,
          },
        });
        ids.push(row.id);
      }
      let failure: Error | null = null;
      try {
        await kafka.commitOffsets(
          groupId,
          request.topic,
          plan.map((p) => ({ partition: p.partition, offset: p.offset })),
        );
      } catch (error) {
        failure = error as Error;
        const busy = error instanceof GroupNotEmptyError;
        await tx.operatorAction.updateMany({
          where: { id: { in: ids } },
          data: { status: busy ? 'rejected' : 'failed', outcome: `not reset, offsets unchanged: ${failure.message}` },
        });
      }
      result = { state, ids, failure };
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  const { state, ids, failure } = result!;
  if (failure instanceof GroupNotEmptyError)
    throw new ApiError(409, `consumer group "${groupId}": ${failure.message}; nothing was reset`);
  if (failure)
    throw new ApiError(503, `the reset could not be written to the cluster, nothing was reset: ${failure.message}`);
  return ZOffsetResetResult.parse({
    groupId,
    topic: request.topic,
    to: request.to,
    state,
    partitions: plan,
    auditIds: ids.map(String),
  });
}

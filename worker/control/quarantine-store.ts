import type { THold } from '@warden/consumer';
import type { Prisma } from '../../lib/generated/prisma/client';
import { quarantineLockKey } from '../shared/quarantine-lock';
import { holdDetails } from './state-rows';

// partition_quarantine as consumers report their holds over the control plane. Keyed by cluster/group/topic/
// partition: a partition holds at most one quarantine (it stops at the first bad record). Every function here
// runs inside the caller's transaction, and the caller holds the partition's advisory lock (lockPartitions)
// for all of it, so a hold always sees the outcome of an operator's action that was recorded before it, and a
// lift never races a hold of the same partition reported by another instance.

/** What the store holds of a partition's quarantine, as far as a new hold needs to know. */
export interface StoredHold {
  offset: bigint;
  since: Date;
  heldSince: Date;
  failures: number;
  attempts: number;
  resumeActionId: bigint | null;
}

/** How one reported hold changes the stored row. */
export type HoldDecision =
  | { kind: 'ignore' }
  | {
      kind: 'write';
      since: Date;
      failures: number;
      attempts: number;
      /** Kept only when the same hold is saved again (a repeated report): a new hold ends any resume. */
      keepResume: boolean;
      /** The resume this hold proves failed (the record was held again at the same offset after it). */
      failedResumeId: bigint | null;
    };

/**
 * The rule for a hold reported by a consumer (`heldSinceMs` is the consumer's own time of this hold, so a hold
 * reported in every state message is one hold):
 * - no row, or a row at another offset: a first hold; since = this hold, 1 failure;
 * - the same hold again: nothing changes but the record details;
 * - an older hold than the stored one at the same offset (a report that lost a race, e.g. the old owner's
 *   after the new owner's): ignored;
 * - a newer hold at the same offset (after a resume, or a rebalance that had the record read again):
 *   since stays, failures + 1, attempts add up, and a resume in progress failed again;
 * - a hold that an operator's skip or seek lifted after it began (`liftedSince`): ignored, so a late report
 *   cannot bring back a card the operator resolved.
 */
export function decideHold(
  stored: StoredHold | null,
  hold: { offset: bigint; heldSinceMs: number; attempts: number },
  liftedSince: Date | null,
): HoldDecision {
  if (liftedSince !== null && liftedSince.getTime() >= hold.heldSinceMs) return { kind: 'ignore' };
  const heldSince = new Date(hold.heldSinceMs);
  if (stored === null || stored.offset !== hold.offset) {
    return {
      kind: 'write',
      since: heldSince,
      failures: 1,
      attempts: hold.attempts,
      keepResume: false,
      failedResumeId: null,
    };
  }
  const storedMs = stored.heldSince.getTime();
  if (hold.heldSinceMs < storedMs) return { kind: 'ignore' };
  if (hold.heldSinceMs === storedMs) {
    return {
      kind: 'write',
      since: stored.since,
      failures: stored.failures,
      attempts: stored.attempts,
      keepResume: true,
      failedResumeId: null,
    };
  }
  return {
    kind: 'write',
    since: stored.since.getTime() <= hold.heldSinceMs ? stored.since : heldSince,
    failures: stored.failures + 1,
    attempts: stored.attempts + hold.attempts,
    keepResume: false,
    failedResumeId: stored.resumeActionId,
  };
}

export interface QuarantineTarget {
  cluster: string;
  groupId: string;
  topic: string;
  partition: number;
}

/**
 * Takes the advisory locks (worker/shared/quarantine-lock.ts) of `partitions` until the transaction ends, in
 * one sorted order, so two transactions that lock several partitions never wait on each other in a circle.
 */
export async function lockPartitions(
  tx: Prisma.TransactionClient,
  partitions: Iterable<QuarantineTarget>,
): Promise<void> {
  const keys = [...new Set([...partitions].map((p) => quarantineLockKey(p.cluster, p.groupId, p.topic, p.partition)))];
  keys.sort();
  for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
}

/**
 * Saves one reported hold by decideHold's rule, with `heldBy` (the reporting instance) on the row. A resume
 * whose record is held again turns 'failed_again' with an outcome that says so. Returns the resume it failed,
 * if any. The caller holds the partition's lock.
 */
export async function saveHold(
  tx: Prisma.TransactionClient,
  target: QuarantineTarget,
  hold: THold,
  heldBy: string,
): Promise<{ failedResumeId: bigint | null }> {
  const offset = BigInt(hold.offset);
  const stored = await tx.partitionQuarantine.findUnique({ where: { cluster_groupId_topic_partition: target } });
  const lift = await tx.operatorAction.findFirst({
    where: { ...target, quarantineOffset: offset, status: 'done', action: { in: ['skip', 'seek'] } },
    orderBy: { completedAt: 'desc' },
    select: { completedAt: true },
  });
  const decision = decideHold(
    stored,
    { offset, heldSinceMs: hold.sinceMs, attempts: hold.attempts },
    lift?.completedAt ?? null,
  );
  if (decision.kind === 'ignore') return { failedResumeId: null };
  const row = {
    ...holdDetails(hold, heldBy),
    offset,
    since: decision.since,
    failures: decision.failures,
    attempts: decision.attempts,
    ...(decision.keepResume ? {} : { resumedAt: null, resumeActionId: null }),
  };
  await tx.partitionQuarantine.upsert({
    where: { cluster_groupId_topic_partition: target },
    create: { ...target, ...row },
    update: row,
  });
  if (decision.failedResumeId === null) return { failedResumeId: null };
  const sameError = stored?.offset === offset && hold.reason === stored.reason;
  const failed = await tx.operatorAction.updateMany({
    where: { id: decision.failedResumeId, status: 'done' },
    data: {
      status: 'failed_again',
      outcome: `resumed, but offset ${hold.offset} failed again${sameError ? ' with the same error' : ''}: ${hold.reason}; ${target.topic}-${target.partition} is held again`,
    },
  });
  return { failedResumeId: failed.count > 0 ? decision.failedResumeId : null };
}

/**
 * Lifts the quarantine an applied action released, in the action's own transaction: a skip or seek deletes the
 * row held at `offset`, a resume marks it retrying (the record is not held, but the partition has not passed
 * it yet; a later report removes it once the commit passes it, or a new hold turns the resume failed_again).
 * A row at another offset is left alone: it is a newer hold the action never saw. The caller holds the lock.
 */
export async function liftHold(
  tx: Prisma.TransactionClient,
  target: QuarantineTarget,
  lift: { action: string; offset: bigint; actionId: bigint; at: Date },
): Promise<void> {
  const held = { ...target, offset: lift.offset };
  if (lift.action === 'resume') {
    await tx.partitionQuarantine.updateMany({
      where: held,
      data: { resumedAt: lift.at, resumeActionId: lift.actionId },
    });
  } else {
    await tx.partitionQuarantine.deleteMany({ where: held });
  }
}

import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import type { QuarantineInfo } from '@warden/consumer';
import { quarantineLockKey } from '../shared/quarantine-lock';

import { previewOf } from '../../lib/kafka/record-preview';

export { PREVIEW_MAX_CHARS, previewOf } from '../../lib/kafka/record-preview';

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
      /** Kept only when the same hold is saved again (a reconciliation): a new hold ends any resume. */
      keepResume: boolean;
      /** The resume this hold proves failed (the record was held again at the same offset after it). */
      failedResumeId: bigint | null;
    };

/**
 * The rule for a hold reported by a consumer (`heldSinceMs` is the core's own time of this hold, so a hold
 * saved twice, by the event and by reconciliation, is one hold):
 * - no row, or a row at another offset: a first hold; since = this hold, 1 failure;
 * - the same hold again: nothing changes but the record details (a reconciliation re-save);
 * - an older hold than the stored one at the same offset (a save that lost a race): ignored;
 * - a newer hold at the same offset (after a resume, or a rebalance that had the record read again):
 *   since stays, failures + 1, attempts add up, and a resume in progress failed again;
 * - a hold that an operator's skip or seek lifted after it began (`liftedSince`): ignored, so a late save
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

/**
 * Persists quarantines so the dashboard, and a new owner after a rebalance, see them. Keyed by
 * cluster/group/topic/partition (the worker's pipeline consumes the `default` cluster): a partition holds at most one quarantine (it stops at the first bad record). Each
 * save runs in a transaction under the partition's advisory lock, which the operator-action poller also takes
 * before it applies an action, so a hold that follows a resume always sees that resume. Lifting a quarantine
 * (skip, seek, resume) is written by the poller in the action's own transaction, never here: the page must not
 * see the action applied and the card still there, or the card gone while the record is held again.
 */
export class QuarantineStore {
  constructor(
    private readonly db: Database,
    private readonly groupId: string,
    private readonly cluster: string = DEFAULT_CLUSTER,
  ) {}

  async save(q: QuarantineInfo): Promise<void> {
    const details = {
      reason: q.reason,
      errorClass: q.errorClass,
      heldSince: new Date(q.sinceMs),
      recordKey: q.key === null ? null : previewOf(q.key),
      recordPreview: q.value === null ? null : previewOf(q.value),
      recordHeaders: Object.fromEntries(
        Object.entries(q.headers).map(([name, value]) => [
          name,
          value === undefined ? null : previewOf(Buffer.from(value)),
        ]),
      ),
      recordTimestamp: Number.isFinite(q.timestampMs) ? new Date(q.timestampMs) : null,
    };
    const id = { cluster: this.cluster, groupId: this.groupId, topic: q.topic, partition: q.partition };
    const offset = BigInt(q.offset);
    await this.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${quarantineLockKey(id.cluster, id.groupId, id.topic, id.partition)}, 0))`;
      const stored = await tx.partitionQuarantine.findUnique({ where: { cluster_groupId_topic_partition: id } });
      const lift = await tx.operatorAction.findFirst({
        where: { ...id, quarantineOffset: offset, status: 'done', action: { in: ['skip', 'seek'] } },
        orderBy: { completedAt: 'desc' },
        select: { completedAt: true },
      });
      const decision = decideHold(
        stored,
        { offset, heldSinceMs: q.sinceMs, attempts: q.attempts },
        lift?.completedAt ?? null,
      );
      if (decision.kind === 'ignore') return;
      const row = {
        ...details,
        offset,
        since: decision.since,
        failures: decision.failures,
        attempts: decision.attempts,
        ...(decision.keepResume ? {} : { resumedAt: null, resumeActionId: null }),
      };
      await tx.partitionQuarantine.upsert({
        where: { cluster_groupId_topic_partition: id },
        create: { ...id, ...row },
        update: row,
      });
      if (decision.failedResumeId !== null) {
        const sameError = stored?.offset === offset && q.reason === stored.reason;
        await tx.operatorAction.updateMany({
          where: { id: decision.failedResumeId, status: 'done' },
          data: {
            status: 'failed_again',
            outcome: `resumed, but offset ${q.offset} failed again${sameError ? ' with the same error' : ''}: ${q.reason}; ${q.topic}-${q.partition} is held again`,
          },
        });
      }
    });
  }
}

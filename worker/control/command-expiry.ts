import { controlTopicNames } from '@warden/consumer';
import type { Database } from '../../lib/db';
import { instanceState } from '../../lib/instances/instance-liveness';
import { PeriodicTask } from '../periodic-task';

/**
 * How long after a command's expiry it is recorded expired. A consumer checks the expiry against its own
 * clock and reports an outcome in its next state message (published at once after it applies a command, a
 * state interval later at worst), which the ingester then writes: 30 s covers that path and a host clock a few
 * seconds off, so an action applied just in time rarely shows 'expired' first. An outcome that arrives later
 * still wins (the ingester updates 'expired' rows too).
 */
export const EXPIRY_GRACE_MS = 30_000;
/** consumer_instance rows not reported for this long are deleted (the dashboard lists them for an hour). */
export const FORGET_INSTANCE_AFTER_MS = 7 * 86_400_000;
/** The forgotten instances are looked for at most this often. */
const FORGET_EVERY_MS = 3_600_000;

/** A consumer_instance row as the expiry judges it. */
export interface InstanceReportRow {
  instanceId: string;
  status: string;
  reportedAt: Date;
  stateIntervalMs: number;
  /** As stored: [{ topic, partition }]. */
  assignment: unknown;
  lastRefusal: string | null;
}

/**
 * What an expired action's outcome says: whether it ever reached the command topic, whether a live instance of
 * the group owned the partition when it expired (live: lib/instances/instance-liveness.ts, as the dashboard says)
 * and what that instance last refused, if anything. Pure.
 */
export function expiryOutcome(
  action: { groupId: string; topic: string; partition: number; relayedAt: Date | null },
  instances: readonly InstanceReportRow[],
  context: { nowMs: number; expireAfterMs: number; commandsTopic: string },
): string {
  const after = `expired after ${Math.round(context.expireAfterMs / 1_000)} s`;
  const name = `${action.topic}-${action.partition}`;
  if (action.relayedAt === null)
    return `${after} without reaching ${context.commandsTopic} (no worker could produce to it); nothing was changed`;
  const live = instances
    .filter((i) => instanceState({ ...i, reportedAtMs: i.reportedAt.getTime() }, context.nowMs) === 'live')
    .sort((a, b) => (a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0));
  const owner = live.find((i) => owns(i.assignment, action));
  if (owner) {
    const refusal = owner.lastRefusal === null ? '' : `; its last refused command: ${owner.lastRefusal}`;
    return `${after}: instance ${owner.instanceId} owns ${name} but did not apply it${refusal}; nothing was changed`;
  }
  const refusing = live.find((i) => i.lastRefusal !== null);
  const refusal =
    refusing === undefined ? '' : `; instance ${refusing.instanceId} last refused a command: ${refusing.lastRefusal}`;
  return `${after}: no live instance of group ${action.groupId} owns ${name}${refusal}; nothing was changed`;
}

function owns(assignment: unknown, tp: { topic: string; partition: number }): boolean {
  if (!Array.isArray(assignment)) return false;
  return assignment.some(
    (entry: unknown) =>
      typeof entry === 'object' &&
      entry !== null &&
      (entry as { topic?: unknown }).topic === tp.topic &&
      (entry as { partition?: unknown }).partition === tp.partition,
  );
}

export interface CommandExpiryOptions {
  db: Database;
  /** The watched clusters: only their rows are expired here. */
  clusters: readonly string[];
  topicPrefix: string;
  /** COMMAND_EXPIRE_AFTER_MS: what a command's expiry is, and a never-relayed row's. */
  expireAfterMs: number;
  intervalMs: number;
  /** Recorded as executed_by of an expired row: the worker instance that expired it. */
  instanceId: string;
  /** Only these groups' rows (tests sharing one database); absent: every group. */
  groupIds?: readonly string[];
  onExpired?: (row: { action: string; groupId: string; topic: string; partition: number; outcome: string }) => void;
  onError?: (error: unknown) => void;
}

interface ExpiringRow {
  id: bigint;
  cluster: string;
  group_id: string;
  topic: string;
  partition: number;
  action: string;
  relayed_at: Date | null;
}

/**
 * Records 'expired' for pending actions no consumer applied: past their expires_at (set by the relay) plus
 * EXPIRY_GRACE_MS, or, for one never relayed, past its request plus COMMAND_EXPIRE_AFTER_MS and the grace. Rows
 * are claimed with FOR UPDATE SKIP LOCKED, so every worker may run it and each row is expired once. Once an
 * hour it also deletes consumer_instance rows not reported for FORGET_INSTANCE_AFTER_MS.
 */
export class CommandExpiry {
  private readonly loop: PeriodicTask;
  private forgottenAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: CommandExpiryOptions) {
    this.loop = new PeriodicTask(
      async () => {
        const now = new Date();
        await this.expireOnce(now);
        if (now.getTime() - this.forgottenAtMs >= FORGET_EVERY_MS) {
          await this.forgetInstances(now);
          this.forgottenAtMs = now.getTime();
        }
      },
      { intervalMs: options.intervalMs, onError: options.onError },
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One round: expires what is due at `now`; returns how many rows. */
  async expireOnce(now = new Date()): Promise<number> {
    const { db, clusters, expireAfterMs } = this.options;
    const groupIds = this.options.groupIds ?? null;
    const commandsTopic = controlTopicNames(this.options.topicPrefix).commands;
    const expired: Array<{ action: string; groupId: string; topic: string; partition: number; outcome: string }> = [];
    await db.$transaction(async (tx) => {
      const dueBefore = new Date(now.getTime() - EXPIRY_GRACE_MS);
      const rows = await tx.$queryRaw<ExpiringRow[]>`
        SELECT id, cluster, group_id, topic, partition, action, relayed_at
        FROM operator_action
        WHERE status = 'pending' AND cluster = ANY(${[...clusters]}::text[])
          AND action IN ('resume', 'skip', 'seek')
          AND COALESCE(expires_at, requested_at + make_interval(secs => ${expireAfterMs / 1_000})) < ${dueBefore}
          AND (${groupIds}::text[] IS NULL OR group_id = ANY(${groupIds}::text[]))
        ORDER BY id
        LIMIT 100
        FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return;
      const instances = await tx.consumerInstance.findMany({
        where: { OR: rows.map((r) => ({ cluster: r.cluster, groupId: r.group_id })) },
        select: {
          cluster: true,
          groupId: true,
          instanceId: true,
          status: true,
          reportedAt: true,
          stateIntervalMs: true,
          assignment: true,
          lastRefusal: true,
        },
      });
      for (const row of rows) {
        const outcome = expiryOutcome(
          { groupId: row.group_id, topic: row.topic, partition: row.partition, relayedAt: row.relayed_at },
          instances.filter((i) => i.cluster === row.cluster && i.groupId === row.group_id),
          { nowMs: now.getTime(), expireAfterMs, commandsTopic },
        );
        await tx.operatorAction.update({
          where: { id: row.id },
          data: { status: 'expired', outcome, completedAt: now, executedBy: this.options.instanceId },
        });
        expired.push({
          action: row.action,
          groupId: row.group_id,
          topic: row.topic,
          partition: row.partition,
          outcome,
        });
      }
    });
    for (const row of expired) this.options.onExpired?.(row);
    return expired.length;
  }

  /** Deletes the instances not reported for FORGET_INSTANCE_AFTER_MS; returns how many. */
  async forgetInstances(now = new Date()): Promise<number> {
    const { count } = await this.options.db.consumerInstance.deleteMany({
      where: { reportedAt: { lt: new Date(now.getTime() - FORGET_INSTANCE_AFTER_MS) } },
    });
    return count;
  }
}

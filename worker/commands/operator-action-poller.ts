import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import type { TopicPartition } from '@warden/consumer';
import { PeriodicTask } from '../periodic-task';
import { quarantineLockKey } from '../shared/quarantine-lock';
import { executeOperatorAction, type ActionPorts, type PendingAction } from './execute-operator-action';

export interface OperatorActionPollerOptions {
  db: Database;
  /** This worker's consumer group: it only ever executes or expires that group's actions. */
  groupId: string;
  /** The cluster this worker's consumer reads (default `default`): actions of other clusters are not its own. */
  cluster?: string;
  /** Recorded as executedBy: which worker instance applied the action. */
  instanceId: string;
  intervalMs: number;
  /** A pending action nobody executed for this long ends 'expired' (no owner, or its owner is stuck). */
  expireAfterMs: number;
  /** The partitions this worker's consumer owns right now. */
  assignment: () => readonly TopicPartition[];
  ports: ActionPorts;
  onError?: (error: Error) => void;
  onApplied?: (action: PendingAction, status: string, outcome: string) => void;
  /** Most actions claimed per round. Default 20. */
  batchSize?: number;
}

/**
 * Executes the pending operator actions for partitions this worker owns, every `intervalMs` and whenever
 * `kick()` is called (a NOTIFY from the API). Exactly-once per action across workers: a round claims rows with
 * SELECT ... FOR UPDATE SKIP LOCKED inside a transaction, executes them on the core and writes the outcome
 * before committing; another worker skips locked rows, and a row is only claimed while still 'pending'.
 * If the process dies between executing and committing, the row stays pending and is re-examined by the next
 * owner: the action carries the quarantined offset the operator saw, so it cannot hit a different record, and
 * a partition that is no longer quarantined ends 'rejected'. Rounds never overlap.
 *
 * The quarantine row changes in the same transaction as the outcome: a skip or seek deletes it, a resume
 * marks it as retrying (the record is not held, but the partition has not passed it yet). So the page never
 * shows an applied action next to a card it resolved, nor an empty page while the resumed record is retried.
 */
export class OperatorActionPoller {
  private readonly loop: PeriodicTask;

  constructor(private readonly options: OperatorActionPollerOptions) {
    this.loop = new PeriodicTask(() => this.pollOnce().then(() => undefined), {
      intervalMs: options.intervalMs,
      onError: (error) => options.onError?.(error as Error),
    });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Runs a round now (or right after the current one); used on NOTIFY. */
  kick(): void {
    this.loop.kick();
  }

  /** One round, awaited: executes what this worker can, then expires what nobody picked up. */
  async pollOnce(now = new Date()): Promise<{ executed: number; expired: number }> {
    const executed = await this.executeOwned();
    const expired = await this.expireStale(now);
    return { executed, expired };
  }

  private async executeOwned(): Promise<number> {
    const { db, groupId, instanceId } = this.options;
    const cluster = this.options.cluster ?? DEFAULT_CLUSTER;
    const owned = this.options.assignment();
    if (owned.length === 0) return 0;
    const topics = owned.map((tp) => tp.topic);
    const partitions = owned.map((tp) => tp.partition);
    let executed = 0;
    await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<
          Array<{
            id: bigint;
            group_id: string;
            topic: string;
            partition: number;
            action: string;
            seek_offset: bigint | null;
            seek_timestamp: Date | null;
            quarantine_offset: bigint | null;
            reason: string;
            requested_by: string;
          }>
        >`
          SELECT id, group_id, topic, partition, action, seek_offset, seek_timestamp, quarantine_offset, reason, requested_by
          FROM operator_action
          WHERE status = 'pending' AND cluster = ${cluster} AND group_id = ${groupId}
            AND (topic, partition) IN (SELECT * FROM unnest(${topics}::text[], ${partitions}::int[]))
          ORDER BY id
          LIMIT ${this.options.batchSize ?? 20}
          FOR UPDATE SKIP LOCKED`;
        for (const row of rows) {
          const action: PendingAction = {
            id: row.id,
            groupId: row.group_id,
            topic: row.topic,
            partition: row.partition,
            action: row.action,
            seekOffset: row.seek_offset,
            seekTimestamp: row.seek_timestamp,
            quarantineOffset: row.quarantine_offset,
            reason: row.reason,
            requestedBy: row.requested_by,
          };
          // Held until commit: a hold the core reports after this action waits for its outcome and lift.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${quarantineLockKey(cluster, groupId, row.topic, row.partition)}, 0))`;
          const result = await executeOperatorAction(action, this.options.ports);
          if (result === null) continue; // the partition moved away since the claim: its new owner will do it
          const completedAt = new Date();
          if (result.status === 'done' && result.liftedOffset !== undefined) {
            const held = { cluster, groupId, topic: row.topic, partition: row.partition, offset: result.liftedOffset };
            if (row.action === 'resume') {
              await tx.partitionQuarantine.updateMany({
                where: held,
                data: { resumedAt: completedAt, resumeActionId: row.id },
              });
            } else {
              await tx.partitionQuarantine.deleteMany({ where: held });
            }
          }
          await tx.operatorAction.update({
            where: { id: row.id },
            data: {
              status: result.status,
              outcome: result.outcome,
              executedBy: instanceId,
              completedAt,
              ...(result.seekOffset !== undefined ? { seekOffset: result.seekOffset } : {}),
            },
          });
          executed += 1;
          this.options.onApplied?.(action, result.status, result.outcome);
        }
      },
      // A skip waits for the dead-letter write (acks=all), which can take a few broker retries.
      { maxWait: 10_000, timeout: 60_000 },
    );
    return executed;
  }

  private async expireStale(now: Date): Promise<number> {
    const { db, groupId, instanceId, expireAfterMs } = this.options;
    const cluster = this.options.cluster ?? DEFAULT_CLUSTER;
    const cutoff = new Date(now.getTime() - expireAfterMs);
    const seconds = Math.round(expireAfterMs / 1000);
    return db.$executeRaw`
      UPDATE operator_action
      SET status = 'expired', completed_at = ${now}, executed_by = ${instanceId},
          outcome = 'no worker owning ' || topic || '-' || partition || ' applied it within ' || ${String(seconds)} ||
                    ' s (the partition has no owner, or its owner is stuck); nothing was changed'
      WHERE id IN (
        SELECT id FROM operator_action
        WHERE status = 'pending' AND cluster = ${cluster} AND group_id = ${groupId} AND requested_at < ${cutoff}
        FOR UPDATE SKIP LOCKED)`;
  }
}

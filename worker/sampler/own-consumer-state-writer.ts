import type { Database } from '../../lib/db';
import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import { PeriodicTask } from '../periodic-task';
import type { CoreSnapshot, QuarantineInfo } from '@warden/consumer';
import { buildConsumerStateRows } from './consumer-state-rows';
import type { ConsumerLogger } from '../shared/worker-types';

export interface OwnConsumerStateWriterOptions {
  db: Database;
  groupId: string;
  /** This worker instance (client id @ host / pid); rows it no longer owns are removed by it. */
  instanceId: string;
  intervalMs: number;
  /** The consumer core's snapshot (synchronous and cheap: one pass over its delivered records). */
  snapshot: () => CoreSnapshot;
  /** Re-saves quarantines the event-driven save may have missed (Postgres down at that moment). */
  saveQuarantine?: (quarantine: QuarantineInfo) => Promise<void>;
  logger?: ConsumerLogger;
}

export interface OwnConsumerStateStats {
  writes: number;
  failedWrites: number;
  droppedRows: number;
}

/**
 * Every interval, writes the commit-prefix state of Warden's own consumer per owned partition into
 * consumer_partition_state. Runs in every worker instance (only it can see its core), independent of which
 * instance leads the cluster sampler.
 *
 * Failure behaviour: a failed write (Postgres down) drops that round's rows, counts them and logs; the next
 * round writes the then-current state. Nothing here blocks or calls into the consumer core beyond the
 * synchronous snapshot.
 *
 * Also reconciles partition_quarantine for owned partitions: a quarantine the core holds is saved if it was
 * not confirmed yet, and a row whose offset the partition's acknowledged commit has passed (the quarantine
 * was resolved while Postgres was down) is removed. A row at or above the commit is never removed: a new
 * owner that has not reached the held record yet must not erase it.
 */
export class OwnConsumerStateWriter {
  private readonly loop: PeriodicTask;
  private readonly confirmedQuarantines = new Set<string>();
  readonly stats: OwnConsumerStateStats = { writes: 0, failedWrites: 0, droppedRows: 0 };

  constructor(private readonly options: OwnConsumerStateWriterOptions) {
    // writeOnce never rejects: a failed write is counted and logged there.
    this.loop = new PeriodicTask(() => this.writeOnce().then(() => undefined), { intervalMs: options.intervalMs });
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** One write; never throws. Returns the rows written (0 when the write failed). */
  async writeOnce(now = new Date()): Promise<number> {
    const { db, groupId, instanceId } = this.options;
    const snapshot = this.options.snapshot();
    const rows = buildConsumerStateRows(snapshot, { groupId, instanceId }, now);
    try {
      await db.$transaction([
        db.consumerPartitionState.deleteMany({
          where: {
            cluster: DEFAULT_CLUSTER,
            groupId,
            OR: [{ instanceId }, ...rows.map((r) => ({ topic: r.topic, partition: r.partition }))],
          },
        }),
        db.consumerPartitionState.createMany({ data: rows }),
      ]);
      this.stats.writes += 1;
    } catch (error) {
      this.stats.failedWrites += 1;
      this.stats.droppedRows += rows.length;
      this.options.logger?.warn(
        { err: error, droppedRows: this.stats.droppedRows },
        'consumer state not written; dropped',
      );
      return 0;
    }
    // A fresh snapshot: an operator action may have lifted a quarantine while the write above awaited.
    await this.reconcileQuarantines(this.options.snapshot());
    return rows.length;
  }

  private async reconcileQuarantines(snapshot: CoreSnapshot): Promise<void> {
    const { db, groupId, saveQuarantine } = this.options;
    if (!saveQuarantine) return;
    try {
      const held = new Set<string>();
      for (const p of snapshot.partitions) {
        if (p.quarantine === null) continue;
        const key = `${p.topic}\u0000${p.partition}\u0000${p.quarantine.offset}\u0000${p.quarantine.sinceMs}`;
        held.add(key);
        if (this.confirmedQuarantines.has(key)) continue;
        await saveQuarantine(p.quarantine);
        this.confirmedQuarantines.add(key);
      }
      for (const key of this.confirmedQuarantines) if (!held.has(key)) this.confirmedQuarantines.delete(key);
      const resolved = snapshot.partitions
        .filter((p) => p.quarantine === null && p.watermark !== null)
        .map((p) => ({ topic: p.topic, partition: p.partition, offset: { lt: BigInt(p.watermark as string) } }));
      if (resolved.length > 0)
        await db.partitionQuarantine.deleteMany({ where: { cluster: DEFAULT_CLUSTER, groupId, OR: resolved } });
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'quarantine reconciliation failed; retried next round');
    }
  }
}

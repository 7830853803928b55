import type { Database } from '../../lib/db';
import { PeriodicTask } from '../periodic-task';
import type { ConsumerLogger } from '../shared/worker-types';

/**
 * Every worker instance reports its readiness (what /readyz says) every interval, so the evaluator can alert
 * on a worker that is not ready or that disappeared (its row stops moving). A clean stop deletes the row:
 * scaling down is not an outage. A failed write is retried at the next interval.
 */
export class WorkerHeartbeatWriter {
  private readonly loop: PeriodicTask;
  private startedAt: Date | null = null;
  private failing = false;

  constructor(
    private readonly options: {
      db: Database;
      instanceId: string;
      groupId: string;
      intervalMs: number;
      readiness: () => { ready: boolean; detail: string };
      logger?: ConsumerLogger;
      now?: () => number;
    },
  ) {
    this.loop = new PeriodicTask(() => this.report(), {
      intervalMs: options.intervalMs,
      onError: (error) => {
        if (!this.failing) options.logger?.warn({ err: error }, 'worker heartbeat not written; retried every interval');
        this.failing = true;
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  async report(): Promise<void> {
    const { db, instanceId, groupId } = this.options;
    const now = new Date((this.options.now ?? Date.now)());
    this.startedAt ??= now;
    const { ready, detail } = this.options.readiness();
    await db.workerHeartbeat.upsert({
      where: { instanceId },
      create: { instanceId, groupId, ready, detail, startedAt: this.startedAt, reportedAt: now },
      update: { groupId, ready, detail, reportedAt: now },
    });
    this.failing = false;
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.options.db.workerHeartbeat
      .deleteMany({ where: { instanceId: this.options.instanceId } })
      .catch(() => undefined);
  }
}

import type { Database } from '../../lib/db';
import { measuredRebalanceRow, rebalanceEventData, type RebalanceRow } from './rebalance-rows';
import type { ConsumerLogger, RebalanceTiming } from '../shared/worker-types';

export interface OwnRebalanceRecorderOptions {
  db: Database;
  clientId: string;
  clientHost: string;
  logger?: ConsumerLogger;
}

/** Rows kept for a retry while Postgres is down; older ones are dropped (and counted) beyond this. */
const MAX_PENDING = 100;
const RETRY_AFTER_MS = 5_000;

/**
 * Writes the measured rebalance rows of Warden's own consumer (source 'own-consumer'). `record` is the
 * consumer's onRebalance callback: it returns at once and writes in the background, so the consumer's event
 * path never waits for Postgres. A failed write keeps the row for the next rebalance or flush (bounded);
 * rows beyond the bound are dropped and counted.
 */
export class OwnRebalanceRecorder {
  private pending: RebalanceRow[] = [];
  private writing: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  readonly stats = { written: 0, dropped: 0, failedWrites: 0 };

  constructor(private readonly options: OwnRebalanceRecorderOptions) {}

  record(timing: RebalanceTiming): void {
    this.pending.push(measuredRebalanceRow(timing, this.options));
    if (this.pending.length > MAX_PENDING) {
      const excess = this.pending.length - MAX_PENDING;
      this.pending.splice(0, excess);
      this.stats.dropped += excess;
    }
    void this.flush();
  }

  /** Stops retrying in the background; pending rows are written by a last flush() if Postgres is up. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.flush();
  }

  /** Writes what is pending; resolves when done (never rejects). */
  flush(): Promise<void> {
    this.writing = this.writing.then(async () => {
      if (this.pending.length === 0) return;
      const rows = this.pending;
      this.pending = [];
      try {
        await this.options.db.rebalanceEvent.createMany({ data: rows.map(rebalanceEventData) });
        this.stats.written += rows.length;
      } catch (error) {
        this.stats.failedWrites += 1;
        const merged = [...rows, ...this.pending];
        this.stats.dropped += Math.max(0, merged.length - MAX_PENDING);
        this.pending = merged.slice(-MAX_PENDING);
        this.options.logger?.warn(
          { err: error, pending: this.pending.length },
          'own rebalance rows not written; retried later',
        );
        if (!this.closed && this.retryTimer === null) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = null;
            void this.flush();
          }, RETRY_AFTER_MS);
          this.retryTimer.unref();
        }
      }
    });
    return this.writing;
  }
}

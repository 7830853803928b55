import { DEFAULT_CLUSTER } from '../../lib/kafka/cluster-settings';
import type { Database } from '../../lib/db';
import type { GroupMember } from '../../lib/kafka/cluster-observation';
import { measuredRebalanceRow, rebalanceEventData, type RebalanceRow } from './rebalance-rows';
import type { ConsumerLogger, RebalanceTiming } from '../shared/worker-types';

/** How the group names a member: its client id and host as the broker sees the connection. */
export interface MemberIdentity {
  clientId: string;
  clientHost: string;
}

export interface OwnRebalanceRecorderOptions {
  db: Database;
  /** This member's own idea of itself, used when the group cannot be asked. */
  clientId: string;
  clientHost: string;
  /**
   * The member as describeGroups shows it (null when the group does not list it any more). Asked once per
   * row before it is first written, so the row names the member as the sampler's rows and the partition
   * table do (the broker's view of the host, e.g. `/10.0.0.7`, rather than the process's host name).
   */
  identify?: (groupId: string, memberId: string) => Promise<MemberIdentity | null>;
  logger?: ConsumerLogger;
}

/** Rows kept for a retry while Postgres is down; older ones are dropped (and counted) beyond this. */
const MAX_PENDING = 100;
const RETRY_AFTER_MS = 5_000;
/** A row waits at most this long for identify; then it is written with the member's own identity. */
const IDENTIFY_TIMEOUT_MS = 2_000;

interface PendingRow {
  row: RebalanceRow;
  memberId: string;
  identified: boolean;
}

/**
 * Writes the measured rebalance rows of Warden's own consumer (source 'own-consumer'). `record` is the
 * consumer's onRebalance callback: it returns at once and writes in the background, so the consumer's event
 * path never waits for Kafka or Postgres. A failed identify leaves the member's own identity in the row; a
 * failed write keeps the row for the next rebalance or flush (bounded); rows beyond the bound are dropped and
 * counted.
 */
export class OwnRebalanceRecorder {
  private pending: PendingRow[] = [];
  private writing: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  readonly stats = { written: 0, dropped: 0, failedWrites: 0, unidentified: 0 };

  constructor(private readonly options: OwnRebalanceRecorderOptions) {}

  record(timing: RebalanceTiming): void {
    this.pending.push({
      row: measuredRebalanceRow(timing, this.options),
      memberId: timing.memberId,
      identified: this.options.identify === undefined,
    });
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
      const batch = this.pending;
      this.pending = [];
      for (const entry of batch) if (!entry.identified) await this.identify(entry);
      try {
        await this.options.db.rebalanceEvent.createMany({
          data: batch.map((entry) => rebalanceEventData(entry.row, DEFAULT_CLUSTER)),
        });
        this.stats.written += batch.length;
      } catch (error) {
        this.stats.failedWrites += 1;
        const merged = [...batch, ...this.pending];
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

  private async identify(entry: PendingRow): Promise<void> {
    entry.identified = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      const identity = await Promise.race([
        this.options.identify!(entry.row.groupId, entry.memberId),
        new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), IDENTIFY_TIMEOUT_MS))),
      ]);
      if (identity === null) {
        this.stats.unidentified += 1;
        return;
      }
      const named = (member: GroupMember): GroupMember => ({ ...member, ...identity });
      entry.row = {
        ...entry.row,
        membersBefore: entry.row.membersBefore.map(named),
        membersAfter: entry.row.membersAfter.map(named),
      };
    } catch (error) {
      this.stats.unidentified += 1;
      this.options.logger?.warn(
        { err: error },
        'own rebalance row: the group could not name this member; its own name is kept',
      );
    } finally {
      clearTimeout(timer);
    }
  }
}

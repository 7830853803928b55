import type { Database } from '../../lib/db';

/**
 * Keeps one sampler_gap row per outage of cluster reads: opened at the first failed round, updated on every
 * further failure, closed at the first successful round. Every write is best effort (Postgres may be down
 * too): a gap that could not be opened is written whole when it closes, so it is recorded as long as
 * Postgres is reachable at some point of it or at its end.
 */
export class SamplerGapStore {
  private open: { id: bigint | null; startedAt: Date; failedRounds: number; lastError: string } | null = null;

  constructor(
    private readonly db: Database,
    private readonly instanceId: string,
    /** The cluster whose reads this store records the outages of (each cluster has its own gaps). */
    private readonly cluster: string,
  ) {}

  get isOpen(): boolean {
    return this.open !== null;
  }

  async roundFailed(at: Date, error: Error): Promise<void> {
    const lastError = `${error.name}: ${error.message}`.slice(0, 1_000);
    if (this.open === null) this.open = { id: null, startedAt: at, failedRounds: 0, lastError };
    const gap = this.open;
    gap.failedRounds += 1;
    gap.lastError = lastError;
    try {
      if (gap.id === null) {
        const row = await this.db.samplerGap.create({
          data: {
            cluster: this.cluster,
            instanceId: this.instanceId,
            startedAt: gap.startedAt,
            failedRounds: gap.failedRounds,
            lastError,
          },
          select: { id: true },
        });
        gap.id = row.id;
      } else {
        await this.db.samplerGap.update({ where: { id: gap.id }, data: { failedRounds: gap.failedRounds, lastError } });
      }
    } catch {
      // Retried at the next failure or when the gap closes.
    }
  }

  /** Closes the open gap, if any. Throws when Postgres cannot record it (the gap stays open in memory). */
  async roundSucceeded(at: Date): Promise<void> {
    const gap = this.open;
    if (gap === null) return;
    if (gap.id === null) {
      await this.db.samplerGap.create({
        data: {
          cluster: this.cluster,
          instanceId: this.instanceId,
          startedAt: gap.startedAt,
          endedAt: at,
          failedRounds: gap.failedRounds,
          lastError: gap.lastError,
        },
      });
    } else {
      await this.db.samplerGap.update({
        where: { id: gap.id },
        data: { endedAt: at, failedRounds: gap.failedRounds, lastError: gap.lastError },
      });
    }
    this.open = null;
  }

  /**
   * Leadership lost or the sampler stops: this instance stops sampling, so it ends its gap at `at` (best
   * effort; a new leader that cannot read the cluster either opens its own).
   */
  async abandon(at: Date): Promise<void> {
    await this.roundSucceeded(at).catch(() => undefined);
    this.open = null;
  }
}

import type { Database } from '../../lib/db';
import type { ConsumerLogger } from '../shared/worker-types';
import { recordGroupSummaries } from './record-group-summaries';
import {
  observeForAlerts,
  recordAlertEvaluation,
  summarizeForAlerts,
  type AlertEvaluationContext,
  type SamplerHealth,
} from './record-alert-evaluation';

/** What the hook reads of a sampler round (the sampler's RoundOutcome has this shape); result null: unreadable. */
export interface SamplerRoundOutcome {
  durationMs: number;
  result: { written: boolean } | null;
}

/** What the hook reads of the sampler's counters (its SamplerStats has these). */
export interface SamplerFailureStats {
  consecutiveFailures: number;
  lastError: string | null;
}

/**
 * After every round of the leading sampler (the only instance whose sampler runs rounds), analyses the
 * cluster's groups once from what that round wrote, stores the result as the overview's rows
 * (record-group-summaries.ts) and evaluates alerts on it. It never blocks the sampler: the round hands its outcome over and returns;
 * evaluations never overlap, and a round that ends while one runs is evaluated right after it (only the
 * newest waiting round: an older one has nothing the newer lacks). A failed evaluation (Postgres down) is
 * logged once per outage and retried at the next round.
 */
export class AlertRoundHook {
  private running: Promise<void> | null = null;
  private waiting: SamplerHealth | null = null;
  private failingSinceMs: number | null = null;
  private failedBefore = false;

  constructor(
    private readonly options: {
      db: Database;
      context: AlertEvaluationContext;
      logger?: ConsumerLogger;
      /** Told after an evaluation committed notifications (wakes the sender). */
      onNotifications?: (count: number) => void;
      now?: () => number;
    },
  ) {}

  /** The sampler's onRound: a failed round (cluster unreadable, rows not written) opens the sampler's gap. */
  onSamplerRound(outcome: SamplerRoundOutcome, stats: SamplerFailureStats): void {
    const nowMs = this.now();
    const failed = outcome.result === null || !outcome.result.written;
    if (failed) this.failingSinceMs ??= nowMs - outcome.durationMs;
    else this.failingSinceMs = null;
    this.waiting = {
      failingSinceMs: this.failingSinceMs,
      failedRounds: failed ? Math.max(1, stats.consecutiveFailures) : 0,
      lastError: failed ? (stats.lastError ?? 'lag samples not written') : null,
    };
    if (!this.running) this.running = this.drain();
  }

  /** Resolves when no evaluation runs or waits (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.waiting) {
      const health = this.waiting;
      this.waiting = null;
      try {
        const nowMs = this.now();
        const { db, context } = this.options;
        const groups = await summarizeForAlerts(db, context, health, nowMs);
        // Stamped when stored, not when the analysis began: the API trusts summaries while this mark is recent
        // (list-groups.ts), and an analysis slower than the interval must not age them past that bound.
        await recordGroupSummaries(db, context.cluster, groups?.map((g) => g.summary) ?? null, new Date(this.now()));
        const observation = await observeForAlerts(db, context, health, groups, nowMs);
        const evaluation = await recordAlertEvaluation(db, context, observation);
        this.failedBefore = false;
        if (evaluation.notifications.length > 0) this.options.onNotifications?.(evaluation.notifications.length);
      } catch (error) {
        if (!this.failedBefore)
          this.options.logger?.warn({ err: error }, 'alert evaluation failed; retried next round');
        this.failedBefore = true;
      }
    }
    this.running = null;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

// When commits happen: at most one in flight (later requests queue behind it), automatic commits at most
// every intervalMs after a change, expedited ones on the next timer turn (a backpressured partition waits
// for its commit to resume), and a failed attempt retried one interval after it started (never in a tight
// loop against a failing broker). What is committed is the caller's business (`attempt`).

import type { Clock, TimerHandle } from './types.js';

export type CommitAttempt = () => Promise<'committed' | 'failed' | 'nothing-to-commit'>;

export class CommitScheduler {
  private timer: TimerHandle | null = null;
  /** What the armed timer is for; an expedite timer also covers the interval. */
  private timerKind: 'interval' | 'expedite' | null = null;
  private chain: Promise<void> = Promise.resolve();
  private lastAttemptMs: number | null = null;
  private runningAttemptStartedMs: number | null = null;
  private automatic = true;
  /** An expedited attempt is queued and has not started: further expedite() calls are covered by it. */
  private expeditedQueued = false;
  private lastOutcome: Awaited<ReturnType<CommitAttempt>> | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly attempt: CommitAttempt,
    /** A bug in `attempt` (it must not throw); the chain continues afterwards. */
    private readonly onCrash: (err: unknown) => void,
  ) {}

  /**
   * Arms the timer if none is armed: the commit runs intervalMs after the start of the running or previous
   * attempt (or intervalMs from now before the first one), so a burst of completions costs one commit.
   */
  schedule(): void {
    if (this.timer !== null || !this.automatic) return;
    const now = this.clock.now();
    const reference = this.runningAttemptStartedMs ?? this.lastAttemptMs;
    const delay = reference === null ? this.intervalMs : Math.max(0, reference + this.intervalMs - now);
    this.timerKind = 'interval';
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.timerKind = null;
      void this.commitNow();
    }, delay);
  }

  /**
   * Commits on the next timer turn (after the attempt in flight, if any) instead of at the next interval;
   * calls made until that attempt starts coalesce into it, so this costs at most one commit per commit round
   * trip. The timer turn lets completions that settle in the same burst of microtasks (fast handlers finish
   * a whole fetch batch in one) join the commit, instead of a first commit carrying one record and a second
   * the rest, a round trip later. After a failed attempt it falls back to the interval.
   */
  expedite(): void {
    if (!this.automatic) return;
    if (this.lastOutcome === 'failed') return this.schedule();
    if (this.expeditedQueued || this.timerKind === 'expedite') return;
    this.cancelTimer();
    this.timerKind = 'expedite';
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.timerKind = null;
      this.expeditedQueued = true;
      void this.commitNow(() => (this.expeditedQueued = false));
    }, 0);
  }

  /** Commits now, after any commit already in flight. Never rejects. */
  commitNow(onStart?: () => void): Promise<void> {
    this.cancelTimer();
    this.chain = this.chain
      .then(async () => {
        onStart?.();
        const startedMs = this.clock.now();
        this.runningAttemptStartedMs = startedMs;
        let outcome: Awaited<ReturnType<CommitAttempt>>;
        try {
          outcome = await this.attempt();
        } finally {
          this.runningAttemptStartedMs = null;
        }
        if (outcome !== 'nothing-to-commit') this.lastAttemptMs = startedMs;
        if (outcome !== 'nothing-to-commit') this.lastOutcome = outcome;
        if (outcome === 'failed') this.schedule();
      })
      .catch(this.onCrash);
    return this.chain;
  }

  /** No more automatic commits (closed, fatal); explicit commitNow() still works. */
  stopAutomatic(): void {
    this.automatic = false;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer === null) return;
    this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.timerKind = null;
  }
}

import type { Clock, TimerHandle } from '../core/index.js';
import type { ConsumerLogger } from './consumer-types.js';

// Rebuilds the kafkajs consumer when the consume loop went silent, on the injected clock.
//
// kafkajs restarts itself after retriable crashes; after a crash it does not restart from (or a consumer that
// hangs without crashing) nothing fetches again. Every `intervalMs` the supervisor reports stalls and, once
// the loop was silent for `restartAfterMs` (never before the first progress), rebuilds it. Invariants: rebuilds
// never overlap and no tick does anything while one runs; a rebuild that fails is reported and the next one
// comes `restartAfterMs` after it began (the rebuild restarts the silence window), for as long as the consumer
// runs: the supervisor never gives up, and readiness stays red meanwhile. After stop() resolves no tick and no
// rebuild runs.

export interface ConsumerSupervisorOptions {
  clock: Clock;
  intervalMs: number;
  restartAfterMs: number;
  /** Time since the consume loop last made progress, or null before the first. */
  silentMs: () => number | null;
  /** Every tick outside a rebuild, before the silence check (the stall report). */
  onTick: () => void;
  /** Tears the kafkajs consumer down and starts a new one. */
  rebuild: () => Promise<void>;
  /** A rebuild rejected; the supervisor tries again after `restartAfterMs` of silence. */
  onRebuildFailed: (error: unknown) => void;
  logger?: ConsumerLogger;
}

export class ConsumerSupervisor {
  private timer: TimerHandle | null = null;
  private rebuilding: Promise<void> | null = null;
  private stopped = true;
  private rebuilds = 0;

  constructor(private readonly options: ConsumerSupervisorOptions) {}

  /** Rebuilds started so far. */
  get restartCount(): number {
    return this.rebuilds;
  }

  /** The first tick comes one interval after start. */
  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** Cancels the next tick and waits for a rebuild under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.rebuilding;
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      if (this.stopped) return;
      this.schedule();
      this.tick();
    }, this.options.intervalMs);
  }

  private tick(): void {
    if (this.rebuilding) return;
    this.options.onTick();
    const silentMs = this.options.silentMs();
    if (silentMs === null || silentMs < this.options.restartAfterMs) return;
    this.rebuilds += 1;
    this.options.logger?.warn(
      { silentMs, restarts: this.rebuilds },
      'consumer made no progress; rebuilding the kafkajs consumer',
    );
    this.rebuilding = this.options
      .rebuild()
      .catch((error: unknown) => {
        this.options.logger?.error({ err: error }, 'consumer restart failed; the supervisor retries');
        this.options.onRebuildFailed(error);
      })
      .finally(() => {
        this.rebuilding = null;
      });
  }
}

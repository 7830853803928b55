// The worker's background loops (the sampler, the control plane's relay and expiry, redrive, alerts) share this shape.
//
// Invariants: rounds never overlap; a round starts `delay` after the previous one ended (the round returns
// the delay, or nothing for the interval); kick() runs a round as soon as possible, right after the one
// running if any; after stop() resolves no round runs and none will. A round that rejects is reported
// through onError and the loop carries on after the interval: a background loop never dies of one failure.

export interface PeriodicTaskOptions {
  intervalMs: number;
  onError?: (error: unknown) => void;
}

export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly round: () => Promise<number | void>,
    private readonly options: PeriodicTaskOptions,
  ) {}

  /** Runs the first round at once. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Cancels the next round and waits for the running one. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A round now, or right after the running one. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round()
        .then(
          (next) => (typeof next === 'number' ? next : this.options.intervalMs),
          (error: unknown) => {
            this.options.onError?.(error);
            return this.options.intervalMs;
          },
        )
        .then((next) => {
          this.running = null;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : next);
        });
    }, delayMs);
  }
}

import os from 'node:os';

// The machine's load while the bench runs: other work on a shared machine skews every number, so the
// table says how busy the machine was.

/** The 1-minute load average, sampled while the bench runs (other work on the machine skews numbers). */
export class LoadWatch {
  readonly start = os.loadavg()[0]!;
  max = this.start;
  private readonly timer = setInterval(() => {
    this.max = Math.max(this.max, os.loadavg()[0]!);
  }, 2_000);

  stop(): { start: number; max: number; end: number } {
    clearInterval(this.timer);
    const end = os.loadavg()[0]!;
    return { start: this.start, max: Math.max(this.max, end), end };
  }
}

// A log line per kind of trouble at most once per interval, with how many were left out since the last one:
// a stream of bad messages (a misbehaving producer) or a database outage must not flood the log. Pure.

export class RateLimit {
  private readonly last = new Map<string, { atMs: number; suppressed: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * Whether a line about `kind` goes out now; when it does, `suppressed` counts the lines about it left out
   * since the previous one. Remembers at most `maxKinds` kinds (the oldest is forgotten first).
   */
  take(kind: string, maxKinds = 1_000): { log: boolean; suppressed: number } {
    const nowMs = this.now();
    const seen = this.last.get(kind);
    if (seen && nowMs - seen.atMs < this.intervalMs) {
      seen.suppressed += 1;
      return { log: false, suppressed: 0 };
    }
    this.last.delete(kind);
    this.last.set(kind, { atMs: nowMs, suppressed: 0 });
    if (this.last.size > maxKinds) this.last.delete(this.last.keys().next().value as string);
    return { log: true, suppressed: seen?.suppressed ?? 0 };
  }
}

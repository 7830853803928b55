import type { Clock } from '../core/index.js';
import type { ConsumerLogger } from '../kafkajs/consumer-types.js';

// Logs a repeating failure at most once per interval per kind, on the injected clock: a broker that stays
// away must not flood the host's log. The next line of a kind says how many were left out meanwhile.

export const DEFAULT_LOG_INTERVAL_MS = 60_000;

export class LogLimiter {
  private readonly kinds = new Map<string, { lastMs: number; suppressed: number }>();

  constructor(
    private readonly logger: ConsumerLogger | undefined,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly intervalMs = DEFAULT_LOG_INTERVAL_MS,
  ) {}

  warn(kind: string, obj: object, msg: string): void {
    this.log('warn', kind, obj, msg);
  }

  error(kind: string, obj: object, msg: string): void {
    this.log('error', kind, obj, msg);
  }

  private log(level: 'warn' | 'error', kind: string, obj: object, msg: string): void {
    const nowMs = this.clock.now();
    const seen = this.kinds.get(kind);
    if (seen && nowMs - seen.lastMs < this.intervalMs) {
      seen.suppressed++;
      return;
    }
    const suppressed = seen?.suppressed ?? 0;
    this.kinds.set(kind, { lastMs: nowMs, suppressed: 0 });
    try {
      this.logger?.[level](suppressed > 0 ? { ...obj, suppressed } : obj, msg);
    } catch {
      // A failing logger must not break the control plane.
    }
  }
}

import type { Clock } from '../core/types';
import type { Readiness } from '../shared/worker-types';

// Whether the consume loop demonstrably makes progress, on the injected clock. Pure.
//
// Progress is a join, a fetch (or its start) or a heartbeat. Ready only while the core is not fatal, no crash
// is pending, the member has joined once, and the last progress lies within the window: a consumer that
// stopped polling is never reported healthy, whatever state it stopped in (a rebalance that never completes
// turns red once the window passes, because kafkajs does not heartbeat while it rejoins).

export interface ReadinessInputs {
  /** The core's fatal reason, or null while it is healthy. */
  fatalReason: string | null;
  assignedPartitions: number;
}

export class ReadinessTracker {
  private lastProgressMs: number | null = null;
  private joined = false;
  private crashReason: string | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** A fetch, fetch start or heartbeat of the current kafkajs consumer. */
  progress(): void {
    this.lastProgressMs = this.clock.now();
  }

  /** A join counts as progress and ends a pending crash. */
  joinedGroup(): void {
    this.progress();
    this.crashReason = null;
    this.joined = true;
  }

  /** Not ready until the next join, whether or not kafkajs restarts itself. */
  crashed(reason: string): void {
    this.crashReason = reason;
  }

  /**
   * A rebuild of the kafkajs consumer restarts the silence window (the supervisor then waits a full
   * restartAfterMs before the next one); a pending crash stays until the rebuilt consumer joins.
   */
  rebuilt(): void {
    this.progress();
  }

  /** Time since the last progress, or null before the first. */
  silentMs(): number | null {
    return this.lastProgressMs === null ? null : this.clock.now() - this.lastProgressMs;
  }

  readiness({ fatalReason, assignedPartitions }: ReadinessInputs): Readiness {
    if (fatalReason !== null) return { ready: false, detail: `consumer core is fatal: ${fatalReason}` };
    if (this.crashReason) return { ready: false, detail: `consumer crashed: ${this.crashReason}; restarting` };
    if (!this.joined) return { ready: false, detail: 'not joined to the group yet' };
    const silentMs = this.silentMs() ?? 0;
    if (silentMs > this.windowMs) {
      return { ready: false, detail: `no fetch or heartbeat for ${Math.round(silentMs / 1000)} s` };
    }
    return {
      ready: true,
      detail: `${assignedPartitions} partition(s) assigned; last progress ${Math.round(silentMs / 1000)} s ago`,
    };
  }
}

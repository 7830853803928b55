import type { Clock, WorkProgress } from '../core/index.js';
import type { Readiness } from './consumer-types.js';

// Whether the consume loop demonstrably makes progress, on the injected clock. Pure.
//
// Progress is a join, a fetch (or its start) or a heartbeat. Ready only while the core is not fatal, no crash
// is pending, the member has joined once, and the last progress lies within the window: a consumer that
// stopped polling is never reported healthy, whatever state it stopped in (a rebalance that never completes
// turns red once the window passes, because kafkajs does not heartbeat while it rejoins).
//
// Heartbeats alone do not prove the worker moves its work: with the group coordinator alive and the results
// topic below min.insync.replicas, heartbeats flow while no result is acknowledged. So, besides, a worker that
// holds work (unfinished records outside quarantine) and has completed none of it for the same window is not
// ready. The silence is measured from the later of the last completion and the delivery of the oldest held
// record, so work arriving after an idle spell gets a full window. An idle worker stays ready on heartbeats;
// a slow handler stays ready as long as some record completes within each window. A quarantined partition is
// held on purpose and never counts. Completions are worker-wide: one stuck partition while others complete
// is the stall watch's report (per partition), not a readiness failure.

export interface ReadinessInputs {
  /** The core's fatal reason, or null while it is healthy. */
  fatalReason: string | null;
  assignedPartitions: number;
  work: WorkProgress;
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

  /** How long held work has gone without a completion, or null while nothing is held. */
  private stuckMs({ heldRecords, heldSinceMs, lastCompletedAtMs }: WorkProgress): number | null {
    if (heldRecords === 0 || heldSinceMs === null) return null;
    const since = lastCompletedAtMs === null ? heldSinceMs : Math.max(heldSinceMs, lastCompletedAtMs);
    return this.clock.now() - since;
  }

  readiness({ fatalReason, assignedPartitions, work }: ReadinessInputs): Readiness {
    if (fatalReason !== null) return { ready: false, detail: `consumer core is fatal: ${fatalReason}` };
    if (this.crashReason) return { ready: false, detail: `consumer crashed: ${this.crashReason}; restarting` };
    if (!this.joined) return { ready: false, detail: 'not joined to the group yet' };
    const silentMs = this.silentMs() ?? 0;
    if (silentMs > this.windowMs) {
      return { ready: false, detail: `no fetch or heartbeat for ${Math.round(silentMs / 1000)} s` };
    }
    const stuckMs = this.stuckMs(work);
    if (stuckMs !== null && stuckMs > this.windowMs) {
      return {
        ready: false,
        detail: `${work.heldRecords} record(s) waiting, none completed for ${Math.round(stuckMs / 1000)} s`,
      };
    }
    return {
      ready: true,
      detail: `${assignedPartitions} partition(s) assigned; last progress ${Math.round(silentMs / 1000)} s ago`,
    };
  }
}

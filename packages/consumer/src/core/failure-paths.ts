// What happens to a record once its admission or one of its calls failed: the decision table
// (failure-routing.ts) says where it goes, this part carries the decision out.
// - retry: the record waits ('retry-wait') in its lane, holding no slot; on the clock, or at once when the
//   route says so; when due, the scheduler takes it again (handler) or restarts its failure path.
// - publish the failure result, dead-letter: the scheduler starts that path at once (it holds no slot).
// - quarantine: the quarantine controller holds the partition at the record.
// The stall watch hands stuck records here too: the call is detached and ignored, the dead-letter write starts.
//
// Invariants:
// - The handler never runs again for a record that failed permanently: its phase only moves on (failure
//   result, then dead letter), and a retry keeps the phase it failed in, with that phase's own attempts.
// - No route drops a record (the table's invariant); an admission failure takes no lane and no slot.
// - No retry timer is armed once the core closed; a due retry does nothing for a record that no longer waits
//   or whose partition was revoked.

import { describeError } from './classify-error.js';
import type { CoreEvents } from './core-events.js';
import {
  classifyFailure,
  routeFailure,
  undeliverableInfo,
  type RetryRoute,
  type RoutingPolicy,
  type UndeliverableRoute,
} from './failure-routing.js';
import type { RecordRelease } from './record-release.js';
import type { RecordEntry } from './record-entry.js';
import type { Clock, CoreCounters, DeadLetterInfo, ErrorClass, RecordPhase } from './types.js';

/** The scheduler's side of the failure paths. */
export interface FailurePathStarts<T> {
  /** Starts the record's failure-result or dead-letter call now. */
  startFailurePath(entry: RecordEntry<T>): void;
  /** The record's handler retry is due: it waits for a slot again, in its lane. */
  retryDue(entry: RecordEntry<T>): void;
}

export interface QuarantineHold<T> {
  hold(entry: RecordEntry<T>, info: DeadLetterInfo): void;
}

export interface FailurePathPorts<T> {
  clock: Clock;
  routing: RoutingPolicy;
  classifyError: (error: unknown) => ErrorClass;
  counters: CoreCounters;
  events: CoreEvents;
  status: { readonly closed: boolean };
  release: Pick<RecordRelease<T>, 'detachEntry'>;
  scheduler: FailurePathStarts<T>;
  quarantines: QuarantineHold<T>;
}

export class FailurePaths<T> {
  private readonly clock: Clock;
  private readonly routing: RoutingPolicy;
  private readonly classifyError: (error: unknown) => ErrorClass;
  private readonly counters: CoreCounters;
  private readonly events: CoreEvents;
  private readonly status: { readonly closed: boolean };
  private readonly release: Pick<RecordRelease<T>, 'detachEntry'>;
  private readonly scheduler: FailurePathStarts<T>;
  private readonly quarantines: QuarantineHold<T>;

  constructor(ports: FailurePathPorts<T>) {
    this.clock = ports.clock;
    this.routing = ports.routing;
    this.classifyError = ports.classifyError;
    this.counters = ports.counters;
    this.events = ports.events;
    this.status = ports.status;
    this.release = ports.release;
    this.scheduler = ports.scheduler;
    this.quarantines = ports.quarantines;
  }

  /** The record failed admission (never retried): the policy dead-letters or quarantines it. */
  admissionFailed(entry: RecordEntry<T>, reason: string, errorClass: string): void {
    this.counters.admissionFailures++;
    this.events.emit({ type: 'admission-failed', ...refOf(entry), reason, errorClass });
    const route = routeFailure({ phase: 'admission' }, this.routing);
    this.undeliverable(entry, route, { errorClass, reason, attempts: 0 });
  }

  /** A call of the record failed (its slot is already freed). */
  failed(entry: RecordEntry<T>, phase: RecordPhase, error: unknown): void {
    const errorClass = classifyFailure(this.classifyError, error);
    const attempt = phase === 'handle' ? entry.handleAttempts : entry.phaseAttempts;
    const route = routeFailure({ phase, errorClass, attempt }, this.routing);
    if (route.action === 'retry') {
      this.scheduleRetry(entry, attempt, route, error);
      return;
    }
    this.events.emit({ type: 'permanent-failure', ...refOf(entry), phase, error });
    if (phase === 'handle') {
      this.counters.permanentFailures++;
      entry.failure = { error, reason: describeError(error) };
    }
    if (route.action === 'publish-failed-result') {
      entry.phase = 'permanent-failure';
      entry.phaseAttempts = 0;
      this.scheduler.startFailurePath(entry);
      return;
    }
    this.undeliverable(entry, route, undeliverableInfo(phase, error, entry));
  }

  /**
   * Opt-in trade-off: a record that has been running or retrying for longer than stallDeadLetterAfterMs since
   * it first started is written to the dead-letter port as 'stalled' and completes when that write is
   * acknowledged. Its running call is aborted and its outcome ignored, so a late success duplicates the effect.
   */
  deadLetterStalled(entry: RecordEntry<T>, ageMs: number): void {
    this.release.detachEntry(entry, 'ignore', 'record dead-lettered as stalled');
    this.counters.stallDeadLetters++;
    this.events.emit({ type: 'stall-dead-letter', ...refOf(entry), ageMs });
    this.startDeadLetter(entry, {
      errorClass: 'stalled',
      reason: `no progress for ${ageMs} ms in phase ${entry.phase} after ${entry.handleAttempts} attempts`,
      attempts: entry.handleAttempts,
    });
  }

  /** Moves a record no earlier path can finish to its last path. */
  private undeliverable(entry: RecordEntry<T>, route: UndeliverableRoute, info: DeadLetterInfo): void {
    switch (route.action) {
      case 'dead-letter':
        this.startDeadLetter(entry, info);
        return;
      case 'quarantine':
        this.quarantines.hold(entry, info);
        return;
    }
  }

  private startDeadLetter(entry: RecordEntry<T>, info: DeadLetterInfo): void {
    entry.phase = 'dead-letter';
    entry.phaseAttempts = 0;
    entry.deadLetterInfo = info;
    this.scheduler.startFailurePath(entry);
  }

  private scheduleRetry(entry: RecordEntry<T>, attempt: number, route: RetryRoute, error: unknown): void {
    entry.status = 'retry-wait';
    this.counters.retries++;
    this.events.emit({
      type: 'retry-scheduled',
      ...refOf(entry),
      phase: entry.phase,
      attempt,
      delayMs: route.delayMs,
      error,
    });
    if (this.status.closed) return;
    if (!route.viaClock) {
      this.onRetryDue(entry);
      return;
    }
    entry.retryTimer = this.clock.setTimeout(() => this.onRetryDue(entry), route.delayMs);
  }

  private onRetryDue(entry: RecordEntry<T>): void {
    entry.retryTimer = null;
    if (entry.status !== 'retry-wait' || entry.owner.revoked) return;
    if (entry.phase === 'handle') this.scheduler.retryDue(entry);
    else this.scheduler.startFailurePath(entry);
  }
}

function refOf<T>(entry: RecordEntry<T>): { topic: string; partition: number; offset: string } {
  return { topic: entry.owner.topic, partition: entry.owner.partition, offset: entry.offset };
}

// Where a failure goes: one pure decision table for every failure the core meets. Given the phase that
// failed, the error's class, the attempt, the quarantine policy and which ports exist, it answers one of:
// retry in place after N ms, publish the failure result, dead-letter, quarantine, or fatal (and, for commits,
// retry at the next interval; for the resume of a partition being revoked, report only).
//
// Invariants of the table:
// - Only a transient error is retried, and a retried record keeps its lane and its phase (never re-run the
//   handler of a record that failed permanently).
// - No row drops a record: each permanent failure moves the record to a path that can still finish it
//   (failure result → dead letter → quarantine), and the last one, quarantine, holds the partition at the
//   record, so the commit cannot pass it.
// - A dead-letter write that fails permanently always quarantines (the dead letter was the last automatic
//   path), whatever the policy says.
// - A failed pause, resume or seek of an owned partition, and a commit failure classified permanent, are
//   fatal: the core stops starting work rather than consume past input it could not hold back. A partition
//   left paused by a failed resume would be a stall nobody sees, so a failed resume is fatal too.

import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { describeError } from './classify-error.js';
import type { DeadLetterInfo, ErrorClass, QuarantinePolicy, Random, RecordPhase } from './types.js';

/** A record that failed admission (decode, validation, result key): that never heals by retrying. */
export interface AdmissionFailure {
  phase: 'admission';
}

/** One of a record's calls failed: its handler, its failure result or its dead-letter write. */
export interface CallFailure {
  phase: RecordPhase;
  errorClass: ErrorClass;
  /** Attempts of the failing phase so far, the failed one included (1 after the first failure). */
  attempt: number;
}

export interface CommitFailure {
  phase: 'commit';
  errorClass: ErrorClass;
}

/** A pause, resume or seek of the source that threw. */
export interface SourceControlFailure {
  phase: 'source-control';
  /**
   * False for the resume of a partition being revoked: its pause state is no longer the core's to keep, so the
   * failure is only reported.
   */
  owned: boolean;
}

export type Failure = AdmissionFailure | CallFailure | CommitFailure | SourceControlFailure;

/** What routing needs to know of the core's configuration; fixed for the core's lifetime. */
export interface RoutingPolicy {
  quarantinePolicy: QuarantinePolicy;
  /** An `onPermanentFailure` port exists (a failure result can be published). */
  hasFailureResult: boolean;
  /** A `deadLetter` port exists. */
  hasDeadLetter: boolean;
  retry: BackoffPolicy;
  random: Random;
}

export type RetryRoute = {
  action: 'retry';
  delayMs: number;
  /**
   * False only for a first retry that drew no delay: it runs at once, because a timer would hold its lane (and
   * every record behind it) for a timer turn. Later retries always wait on the clock, so a record failing on
   * every attempt cannot keep the event loop from turning.
   */
  viaClock: boolean;
};
/** The paths that can still finish a record no automatic path before could. */
export type UndeliverableRoute = { action: 'dead-letter' } | { action: 'quarantine' };
/** Where a record goes once a call of it failed permanently. */
export type FinishRoute = { action: 'publish-failed-result' } | UndeliverableRoute;
export type CallRoute = RetryRoute | FinishRoute;
/** A transient commit failure is retried by the commit scheduler, one interval after the failed attempt began. */
export type CommitRoute = { action: 'retry-at-interval' } | { action: 'fatal' };
export type SourceControlRoute = { action: 'fatal' } | { action: 'report' };
export type FailureRoute = CallRoute | CommitRoute | SourceControlRoute;

export function routeFailure(failure: AdmissionFailure, policy: RoutingPolicy): UndeliverableRoute;
export function routeFailure(failure: CallFailure, policy: RoutingPolicy): CallRoute;
export function routeFailure(failure: CommitFailure, policy: RoutingPolicy): CommitRoute;
export function routeFailure(failure: SourceControlFailure, policy: RoutingPolicy): SourceControlRoute;
export function routeFailure(failure: Failure, policy: RoutingPolicy): FailureRoute {
  switch (failure.phase) {
    case 'source-control':
      return failure.owned ? { action: 'fatal' } : { action: 'report' };
    case 'commit':
      return failure.errorClass === 'transient' ? { action: 'retry-at-interval' } : { action: 'fatal' };
    case 'admission':
      return undeliverable(policy);
    case 'handle':
      if (failure.errorClass === 'transient') return retry(failure.attempt, policy);
      return policy.hasFailureResult ? { action: 'publish-failed-result' } : undeliverable(policy);
    case 'permanent-failure':
      if (failure.errorClass === 'transient') return retry(failure.attempt, policy);
      return undeliverable(policy);
    case 'dead-letter':
      if (failure.errorClass === 'transient') return retry(failure.attempt, policy);
      return { action: 'quarantine' };
  }
}

/** A record no earlier path can finish: the quarantine policy decides, if its port exists. */
function undeliverable(policy: RoutingPolicy): UndeliverableRoute {
  return policy.quarantinePolicy === 'dead-letter' && policy.hasDeadLetter
    ? { action: 'dead-letter' }
    : { action: 'quarantine' };
}

function retry(attempt: number, policy: RoutingPolicy): RetryRoute {
  const delayMs = backoffDelayMs(attempt, policy.retry, policy.random);
  return { action: 'retry', delayMs, viaClock: !(delayMs === 0 && attempt === 1) };
}

/** Classifies with the configured classifier; a classifier that throws counts as 'permanent' (no endless retry). */
export function classifyFailure(classify: (error: unknown) => ErrorClass, error: unknown): ErrorClass {
  try {
    return classify(error);
  } catch {
    return 'permanent';
  }
}

/** What a record carries into its next path after a call failed permanently. */
export interface FailedRecord {
  handleAttempts: number;
  /** The handler's permanent failure, once there was one. */
  failure: { reason: string } | null;
  /** Why the record is being dead-lettered, once it is. */
  deadLetterInfo: DeadLetterInfo | null;
}

/**
 * The dead-letter or quarantine information of a record whose `phase` call failed permanently with `error`:
 * the reason names every failure on the way, so an operator sees why each path gave up.
 */
export function undeliverableInfo(phase: RecordPhase, error: unknown, record: FailedRecord): DeadLetterInfo {
  const reason = describeError(error);
  const attempts = record.handleAttempts;
  switch (phase) {
    case 'handle':
      return { errorClass: 'permanent', reason: `handler failed permanently: ${reason}`, attempts };
    case 'permanent-failure':
      return {
        errorClass: 'permanent',
        reason: `failure result could not be delivered: ${reason} (handler: ${record.failure?.reason ?? 'unknown'})`,
        attempts,
      };
    case 'dead-letter':
      return {
        errorClass: record.deadLetterInfo?.errorClass ?? 'permanent',
        reason: `dead-letter write failed permanently: ${reason} (${record.deadLetterInfo?.reason ?? 'no reason'})`,
        attempts,
      };
  }
}

import type { INSTANCE_STATES } from '../schemas/values';

// Whether a consumer instance that reports over the control plane is still there, judged from its newest
// stored report (consumer_instance) at a given time. Pure: the caller passes the time.

export type InstanceState = (typeof INSTANCE_STATES)[number];

/** A running instance is gone after this much silence at the least, whatever its report interval. */
export const MIN_GONE_AFTER_MS = 15_000;
/** Report intervals an instance may miss before it counts as gone. */
export const MISSED_REPORTS_BEFORE_GONE = 3;
/** A gone or stopped instance is listed for this long after its last report, then left out. */
export const INSTANCE_RETENTION_MS = 3_600_000;

export interface InstanceReport {
  /** 'running' | 'stopped' as stored; anything else reads as running (silence then decides). */
  status: string;
  reportedAtMs: number;
  stateIntervalMs: number;
}

/** How long a running instance may stay silent and still count as live: max(3 report intervals, 15 s). */
export function goneAfterMs(stateIntervalMs: number): number {
  return Math.max(MISSED_REPORTS_BEFORE_GONE * stateIntervalMs, MIN_GONE_AFTER_MS);
}

/**
 * `stopped` when the last report was a clean stop; else `gone` once more than goneAfterMs passed since it, else
 * `live`. A report stamped ahead of `nowMs` (the instance's clock runs ahead of ours) is live.
 */
export function instanceState(report: InstanceReport, nowMs: number): InstanceState {
  if (report.status === 'stopped') return 'stopped';
  return nowMs - report.reportedAtMs > goneAfterMs(report.stateIntervalMs) ? 'gone' : 'live';
}

/** Listed at `nowMs`: every live instance, and a gone or stopped one for INSTANCE_RETENTION_MS after its last report. */
export function isListed(report: InstanceReport, nowMs: number): boolean {
  return instanceState(report, nowMs) === 'live' || nowMs - report.reportedAtMs <= INSTANCE_RETENTION_MS;
}

/**
 * A running instance whose last report is older than INSTANCE_RETENTION_MS can still be live only when its
 * report interval is above this (3 intervals longer than the retention): what a query must fetch besides
 * the reports inside the retention.
 */
export const LIVE_BEYOND_RETENTION_INTERVAL_MS = INSTANCE_RETENTION_MS / MISSED_REPORTS_BEFORE_GONE;

/**
 * The order of the Instances card: live ones first, newest started first (a restarted service's new process on
 * top; stable while they keep reporting), then the gone and stopped ones, most recently heard from first; ties
 * by instance id.
 */
export function compareInstances(
  a: { state: InstanceState; startedAtMs: number; reportedAtMs: number; instanceId: string },
  b: { state: InstanceState; startedAtMs: number; reportedAtMs: number; instanceId: string },
): number {
  const liveA = a.state === 'live';
  const liveB = b.state === 'live';
  if (liveA !== liveB) return liveA ? -1 : 1;
  const newer = liveA ? b.startedAtMs - a.startedAtMs : b.reportedAtMs - a.reportedAtMs;
  if (newer !== 0) return newer;
  return a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0;
}

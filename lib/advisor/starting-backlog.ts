// Where a group starts a partition it never committed, and so how much it will read there. Pure.
//
// A partition without a committed offset has no lag, but it is not empty work: when its consumer starts it,
// it reads from the log start (auto.offset.reset=earliest) or from the log end (latest). The broker cannot
// tell which: the policy lives in the client. Warden's own worker always starts at the log start; for other
// groups the policy comes from ADVISOR_CLIENT_SETTINGS, else it is unknown and the plan says it is not a
// promise (lib/analysis/group-advice.ts).

import type { OffsetResetPolicy, ResolvedClientSettings } from './client-settings';

export interface ResetPolicy {
  /** null: unknown. */
  policy: OffsetResetPolicy | null;
  /** Where the policy came from, in words. */
  basis: string;
}

export type BacklogBasis = 'committed' | 'log-start' | 'log-end' | 'unknown';

/** Warden's worker subscribes fromBeginning (worker/worker.ts): a partition it never committed starts at the log start. */
export function resolveResetPolicy(isWardenConsumer: boolean, settings: ResolvedClientSettings): ResetPolicy {
  if (isWardenConsumer)
    return { policy: 'earliest', basis: "Warden's worker starts a partition it never committed at the log start" };
  if (settings.autoOffsetReset !== null)
    return { policy: settings.autoOffsetReset.policy, basis: settings.autoOffsetReset.origin };
  return {
    policy: null,
    basis:
      'auto.offset.reset unknown: the broker cannot tell it and ADVISOR_CLIENT_SETTINGS does not set autoOffsetReset for the group',
  };
}

/**
 * The records the group will read on a partition: its lag when it committed; else the whole log
 * (log end - log start) under earliest, nothing under latest, and null when the policy is unknown.
 * Throws RangeError when the log end is below the log start or the lag is negative.
 */
export function startingBacklog(
  partition: { lag: number | null; logStartOffset: number; logEndOffset: number },
  policy: OffsetResetPolicy | null,
): { backlog: number | null; basis: BacklogBasis } {
  const { lag, logStartOffset, logEndOffset } = partition;
  if (lag !== null) {
    if (!(lag >= 0)) throw new RangeError(`lag must be >= 0, got ${lag}`);
    return { backlog: lag, basis: 'committed' };
  }
  if (!(logEndOffset >= logStartOffset))
    throw new RangeError(`log end ${logEndOffset} is below the log start ${logStartOffset}`);
  if (policy === 'earliest') return { backlog: logEndOffset - logStartOffset, basis: 'log-start' };
  if (policy === 'latest') return { backlog: 0, basis: 'log-end' };
  return { backlog: null, basis: 'unknown' };
}

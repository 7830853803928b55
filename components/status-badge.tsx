import type { TBurrowStatus, TGroupStatus, TPartitionStatus } from '@/lib/schemas/groups';
import './status-badge.css';

const GROUP_TEXT: Record<TGroupStatus, string> = {
  OK: 'OK',
  WARN: 'Warning',
  ERR: 'Error',
  QUARANTINED: 'Quarantined',
  LOST: 'Records lost',
};

/**
 * Group status with its reasons as a tooltip; the text, not only the colour, carries the meaning.
 * `reasonCount`: how many reasons there are in all, when `reasons` holds only the first (an overview row).
 */
export function GroupStatusBadge({
  status,
  reasons,
  reasonCount,
}: {
  status: TGroupStatus;
  reasons?: string[];
  reasonCount?: number;
}) {
  const more = reasons && reasonCount !== undefined ? reasonCount - reasons.length : 0;
  const title = reasons
    ? [...reasons, ...(more > 0 ? [`… and ${more} more on the group page`] : [])].join('\n')
    : undefined;
  return (
    <span className={`badge badge-${status.toLowerCase()}`} title={title} data-testid="group-status">
      {GROUP_TEXT[status]}
    </span>
  );
}

const PARTITION_HELP: Record<TPartitionStatus, string> = {
  OK: 'Caught up, or committing and not falling behind at every commit',
  WARN: 'Lag grew at every commit in the window',
  STOP: 'Stopped committing while lagging',
  STALL: 'Committing the same offset while lagging',
  REWIND: 'Committed offset moved backwards and no later commit made it up',
  LOST: "Records were deleted by the topic's retention before the group read them (not acknowledged yet)",
};

/** Plain words first; Burrow's term follows in small type ("Stopped (Burrow: STOP)"). */
export const PARTITION_WORDS: Record<TPartitionStatus, string> = {
  OK: 'OK',
  WARN: 'Falling behind',
  STOP: 'Stopped',
  STALL: 'Stalled',
  REWIND: 'Rewound',
  LOST: 'Records lost',
};

/**
 * A partition's commit status. A quarantined partition reads Held, as its group reads Quarantined: its commit
 * waits for an operator, so STOP, STALL or WARN are the quarantine's expected consequences and OK would claim
 * a health it does not have. REWIND still shows: a quarantine never moves a commit backwards; so does LOST,
 * louder than every other, with Burrow's own status beside it.
 */
export function PartitionStatusBadge({
  status,
  quarantined = false,
  burrowStatus,
}: {
  status: TPartitionStatus;
  quarantined?: boolean;
  /** Burrow's own status, shown beside LOST (which is Warden's, not Burrow's). */
  burrowStatus?: TBurrowStatus;
}) {
  if (quarantined && status !== 'REWIND' && status !== 'LOST') {
    return (
      <span
        className="badge badge-quarantined"
        title={`Quarantined: its commit waits for an operator (commit status ${status})`}
        data-testid="partition-status"
      >
        Held
      </span>
    );
  }
  const tone = status === 'OK' ? 'ok' : status === 'WARN' ? 'warn' : 'err';
  const term = status === 'LOST' ? burrowStatus : status;
  return (
    <>
      <span className={`badge badge-${tone}`} title={PARTITION_HELP[status]} data-testid="partition-status">
        {PARTITION_WORDS[status]}
      </span>
      {term === undefined || status === 'OK' ? null : (
        <span className="muted small status-term" data-testid="status-term">
          {' '}
          (Burrow: {term})
        </span>
      )}
    </>
  );
}

export function StatePill({ state }: { state: string }) {
  return <span className={`pill pill-${state.toLowerCase()}`}>{state}</span>;
}

import { memo, useState } from 'react';
import { AppLink } from './app-link';
import type { TRebalance } from '@/lib/schemas/rebalances';
import { groupPath } from './api-client';
import { formatDurationMs } from '@/lib/format';
import { formatDateTime } from './format';
import { useTimeZone } from './display-preferences';
import './rebalance-list.css';

const TRIGGER_TEXT: Record<string, string> = {
  join: 'a member joined',
  leave: 'a member left (a member that came back under a new member id left and joined)',
  timeout: 'a member that had stopped committing left: most likely expelled after its session timed out',
  assignment:
    'the same members got a new assignment: partitions added, a subscription changed, or a member came and went between two samples',
  unknown: 'nothing the group showed changed, or only a Warden member’s own view is known',
};

/**
 * Rebalances as a timeline, newest first, one entry per rebalance: when, how long the group stopped (each
 * Warden member's measured stop; an upper bound when only samples bound it), why, and how the group's members
 * changed. The bar length compares durations on the page.
 */
export const RebalanceTimeline = memo(function RebalanceTimeline({
  rebalances,
  cluster,
  showGroup,
}: {
  rebalances: TRebalance[];
  /** The cluster the rebalances are of (links to their groups keep it). */
  cluster: string;
  showGroup: boolean;
}) {
  const zone = useTimeZone();
  const longest = Math.max(1, ...rebalances.map((r) => r.durationMs));
  return (
    <ol className="timeline">
      {rebalances.map((r) => (
        <li key={r.id} className="timeline-item" data-testid="rebalance-item" data-trigger={r.trigger}>
          <div className="timeline-when">
            <time dateTime={r.startedAt}>{formatDateTime(r.startedAt, zone)}</time>
            <span className="muted small">{observedBy(r)}</span>
          </div>
          <div className="timeline-body">
            <div className="timeline-head">
              {showGroup ? (
                <AppLink href={groupPath(r.groupId, cluster)} className="group-link">
                  {r.groupId}
                </AppLink>
              ) : null}
              <span className={`badge badge-trigger trigger-${r.trigger}`} title={TRIGGER_TEXT[r.trigger]}>
                {r.trigger}
              </span>
              <span className="duration" data-testid="rebalance-duration">
                {`${r.durationIsBound ? '≤ ' : ''}${formatDurationMs(r.durationMs)}`}
              </span>
              <span className="muted" data-testid="rebalance-moved">
                {r.partitionsMoved === 0
                  ? 'no partition moved'
                  : `${r.partitionsMoved} partition${r.partitionsMoved === 1 ? '' : 's'} moved`}
              </span>
            </div>
            <div className="duration-bar" aria-hidden="true">
              <span
                style={{ width: `${Math.max(2, (r.durationMs / longest) * 100)}%` }}
                className={r.durationIsBound ? 'bound' : undefined}
              />
            </div>
            {r.stops.length > 0 ? (
              <ul className="stops" aria-label="Stops measured by Warden members">
                {r.stops.map((s) => (
                  <li key={`${s.memberId ?? s.name}-${s.startedAt}`} data-testid="rebalance-stop">
                    <span className="mono">{s.name}</span>{' '}
                    <span className="muted">
                      {s.joining ? 'joining' : 'stopped'} {formatDurationMs(s.durationMs)}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
            <MemberChanges rebalance={r} />
            {r.membersSeenBy === 'measuring-members' ? (
              <p className="muted small">
                The sampler did not see this rebalance: members as the Warden members that measured it saw themselves.
              </p>
            ) : null}
          </div>
        </li>
      ))}
    </ol>
  );
});

function observedBy(r: TRebalance): string {
  if (r.stops.length === 0) return 'inferred from samples';
  const measured = `measured by ${r.stops.length} member${r.stops.length === 1 ? '' : 's'}`;
  return r.sampledBetween ? `${measured}, sampled` : measured;
}

/**
 * Who left and who joined, always; the members who stayed (most of a large group, in most rebalances) behind
 * a button, drawn only when asked for: 200 rebalances of a 50-member group would otherwise be 20,000 names.
 */
function MemberChanges({ rebalance }: { rebalance: TRebalance }) {
  const left = rebalance.membersBefore.filter((m) => m.change === 'left');
  const joined = rebalance.membersAfter.filter((m) => m.change === 'joined');
  const stayed = rebalance.membersAfter.filter((m) => m.change === 'stayed');
  return (
    <div className="members" data-testid="rebalance-members">
      <span className="muted small">
        Members {rebalance.membersBefore.length} → {rebalance.membersAfter.length}
        {left.length === 0 && joined.length === 0 ? ', none joined or left' : ''}
      </span>
      <MemberList label="Left" members={left} />
      <MemberList label="Joined" members={joined} />
      {stayed.length > 0 ? <StayedMembers members={stayed} /> : null}
    </div>
  );
}

function MemberList({ label, members }: { label: string; members: TRebalance['membersBefore'] }) {
  if (members.length === 0) return null;
  return (
    <div className="member-list">
      <span className="muted small">{label}</span>
      <ul>
        {members.map((m, i) => (
          <li key={`${m.memberId ?? m.name}-${i}`} className={`member-${m.change}`} data-testid="rebalance-member">
            <span className="mono member-name">{m.name}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function StayedMembers({ members }: { members: TRebalance['membersAfter'] }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="member-list">
      <button
        type="button"
        className="button button-small"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="stayed-toggle"
      >
        {open ? 'Hide' : 'Show'} the {members.length} who stayed
      </button>
      {open ? (
        <ul>
          {members.map((m, i) => (
            <li key={`${m.memberId ?? m.name}-${i}`} className="member-stayed" data-testid="rebalance-member">
              <span className="mono member-name">{m.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

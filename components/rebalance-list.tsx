import Link from 'next/link';
import type { TRebalance } from '@/lib/schemas/rebalances';
import { groupPath } from './api-client';
import { formatDateTime, formatMs } from './format';

/**
 * Rebalances as a timeline, newest first: when, how long the group stopped (an upper bound when inferred from
 * samples), why, and who was in the group before and after. The bar length compares durations on the page.
 */
export function RebalanceTimeline({ rebalances, showGroup }: { rebalances: TRebalance[]; showGroup: boolean }) {
  const longest = Math.max(1, ...rebalances.map((r) => r.durationMs ?? 0));
  return (
    <ol className="timeline">
      {rebalances.map((r) => (
        <li key={r.id} className="timeline-item" data-testid="rebalance-item">
          <div className="timeline-when">
            <time dateTime={r.startedAt}>{formatDateTime(r.startedAt)}</time>
            <span className="muted small">{r.source === 'own-consumer' ? 'measured' : 'inferred from samples'}</span>
          </div>
          <div className="timeline-body">
            <div className="timeline-head">
              {showGroup ? (
                <Link href={groupPath(r.groupId)} className="group-link">
                  {r.groupId}
                </Link>
              ) : null}
              <span className={`badge badge-trigger trigger-${r.trigger}`}>{r.trigger}</span>
              <span className="duration">
                {r.durationMs === null
                  ? 'duration unknown'
                  : `${r.durationIsBound ? '≤ ' : ''}${formatMs(r.durationMs)}`}
              </span>
              {r.partitionsMoved > 0 ? <span className="muted">{r.partitionsMoved} partitions moved</span> : null}
            </div>
            <div className="duration-bar" aria-hidden="true">
              <span
                style={{ width: `${Math.max(2, ((r.durationMs ?? 0) / longest) * 100)}%` }}
                className={r.durationIsBound ? 'bound' : undefined}
              />
            </div>
            <div className="members">
              <MemberList label="Before" members={r.membersBefore} />
              <span aria-hidden="true" className="arrow">
                →
              </span>
              <MemberList label="After" members={r.membersAfter} />
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}

function MemberList({ label, members }: { label: string; members: string[] }) {
  return (
    <div className="member-list">
      <span className="muted small">
        {label} ({members.length})
      </span>
      {members.length === 0 ? (
        <span className="muted">none</span>
      ) : (
        <ul>
          {members.map((m, i) => (
            <li key={`${m}-${i}`} className="mono">
              {m}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

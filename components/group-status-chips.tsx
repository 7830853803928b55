'use client';

import type { TGroupStatusCounts } from '@/lib/schemas/groups';
import { GROUP_STATUSES } from '@/lib/schemas/values';
import { formatCount } from '@/lib/format';
import type { OverviewView } from './overview-view';
import './group-status-chips.css';

const CHIP_WORDS: Record<(typeof GROUP_STATUSES)[number], string> = {
  OK: 'ok',
  WARN: 'warn',
  ERR: 'err',
  QUARANTINED: 'quarantined',
  LOST: 'records lost',
};

/** How many groups have each status; a chip filters the overview to that status, pressed again it clears. */
export function GroupStatusChips({
  counts,
  status,
  onStatus,
}: {
  counts: TGroupStatusCounts;
  status: OverviewView['status'];
  onStatus: (status: OverviewView['status']) => void;
}) {
  return (
    <div className="summary-strip" aria-label="Groups by status">
      {GROUP_STATUSES.map((s) => (
        <button
          key={s}
          type="button"
          className={`summary-chip chip-${s.toLowerCase()} ${status === s ? 'selected' : ''}`}
          aria-pressed={status === s}
          onClick={() => onStatus(status === s ? 'all' : s)}
        >
          <strong>{formatCount(counts[s])}</strong> {CHIP_WORDS[s]}
        </button>
      ))}
    </div>
  );
}

'use client';

import { useMemo, useState } from 'react';
import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import { AUDIT_ROWS_PER_STEP } from './audit-steps';
import { useStepwise } from './stepwise-list';

/**
 * The Audit page's text filter over operator actions (group, partition, who, action, status, reason), and the
 * rows of it drawn so far. Held by the page, so the text stays while another kind or cluster is shown; a new
 * `choice` (kind and cluster) or a new text draws from the first step again.
 */
export function useAuditActionFilter(actions: readonly TOperatorAction[] | undefined, choice: string) {
  const [filter, setFilter] = useState('');
  const matching = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (actions ?? []).filter(
      (a) =>
        needle === '' ||
        [a.groupId, `${a.topic}-${a.partition}`, a.requestedBy, a.action, a.status, a.reason].some((s) =>
          s.toLowerCase().includes(needle),
        ),
    );
  }, [actions, filter]);
  const drawn = useStepwise(matching, AUDIT_ROWS_PER_STEP, `${choice}/${filter}`);
  return { filter, setFilter, matching, drawn };
}

export type AuditActionFilter = ReturnType<typeof useAuditActionFilter>;

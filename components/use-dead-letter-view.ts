'use client';

import { useState } from 'react';
import { EMPTY_FILTER, type DeadLetterFilterForm } from './dead-letter-filter';

/**
 * Which dead letters the Dead letters page shows: the filter applied, and the cursors of the older pages read to
 * reach the one on screen (none: the newest page). A new filter starts again from the newest page.
 */
export function useDeadLetterView() {
  const [filter, setFilter] = useState<DeadLetterFilterForm>(EMPTY_FILTER);
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    filter,
    /** The page on screen: undefined for the newest. */
    cursor: cursors.at(-1),
    isNewest: cursors.length === 0,
    apply: (next: DeadLetterFilterForm) => {
      setFilter(next);
      setCursors([]);
    },
    newer: () => setCursors(cursors.slice(0, -1)),
    older: (nextCursor: string) => setCursors([...cursors, nextCursor]),
  };
}

'use client';

import { useCallback, useState } from 'react';
import type { TDeadLetter, TRedriveSelection } from '@/lib/schemas/dead-letters';

/** A dead letter's place in the dead-letter topic, `partition:offset`: what a selection holds. */
export const recordId = (r: TDeadLetter) => `${r.dlq.partition}:${r.dlq.offset}`;

/** The dead letters an operator ticked, by recordId; `toggle` keeps its identity, so memo rows stay drawn. */
export function useRecordSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  return { selected, toggle, clear: () => setSelected(new Set()) };
}

/** The ticked records as a redrive request names them. */
export function selectionOf(selected: ReadonlySet<string>): TRedriveSelection {
  return {
    kind: 'records',
    records: [...selected].map((id) => {
      const [partition, offset] = id.split(':');
      return { partition: Number(partition), offset: offset! };
    }),
  };
}

'use client';

import { useState } from 'react';
import type { TRedriveSelection } from '@/lib/schemas/dead-letters';
import type { DeadLetterFilterForm } from './dead-letter-filter';
import { filterBody } from './hooks/use-dead-letters';
import { selectionOf } from './use-record-selection';

/**
 * The redrive an operator is asked to confirm (null: no dialog open), and why the filter could not be redriven,
 * if it could not: a filter the API would refuse says so at once instead of opening the dialog.
 */
export function useRedriveRequest() {
  const [selection, setSelection] = useState<TRedriveSelection | null>(null);
  const [filterRefusal, setFilterRefusal] = useState<string | null>(null);
  return {
    selection,
    filterRefusal,
    askForRecords: (selected: ReadonlySet<string>) => setSelection(selectionOf(selected)),
    askForMatching: (filter: DeadLetterFilterForm) => {
      setFilterRefusal(null);
      filterBody(filter).then(
        (body) => setSelection({ kind: 'filter', filter: body }),
        (error: Error) => setFilterRefusal(`The filter cannot be redriven: ${error.message}`),
      );
    },
    close: () => setSelection(null),
  };
}

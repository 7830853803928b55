'use client';

import { useState, type FormEvent } from 'react';
import { EMPTY_FILTER, type DeadLetterFilterForm } from './dead-letter-filter';
import './dead-letter-filter-bar.css';

const FILTER_FIELDS: Array<{ name: keyof DeadLetterFilterForm; label: string; type?: string }> = [
  { name: 'sourceTopic', label: 'Source topic' },
  { name: 'sourcePartition', label: 'Source partition', type: 'number' },
  { name: 'errorClass', label: 'Error class' },
  { name: 'key', label: 'Key' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
];

/**
 * The Dead letters page's filter, applied on submit (what is typed meanwhile changes nothing), and the operators'
 * two ways to start a redrive: the records ticked, or everything the applied filter matches.
 */
export function DeadLetterFilterBar({
  canOperate,
  selectedCount,
  onApply,
  onRedriveSelected,
  onRedriveMatching,
}: {
  canOperate: boolean;
  selectedCount: number;
  onApply: (filter: DeadLetterFilterForm) => void;
  onRedriveSelected: () => void;
  onRedriveMatching: () => void;
}) {
  const [draft, setDraft] = useState<DeadLetterFilterForm>(EMPTY_FILTER);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="card filter-form" onSubmit={apply} aria-label="Filter dead letters">
      {FILTER_FIELDS.map((f) => (
        <label key={f.name}>
          {f.label}
          <input
            name={f.name}
            type={f.type ?? 'text'}
            min={f.type === 'number' ? 0 : undefined}
            value={draft[f.name]}
            onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
          />
        </label>
      ))}
      <div className="filter-actions">
        <button type="submit">Apply filter</button>
        {canOperate ? (
          <>
            <button type="button" disabled={selectedCount === 0} onClick={onRedriveSelected}>
              Redrive selected ({selectedCount})
            </button>
            <button type="button" onClick={onRedriveMatching}>
              Redrive all matching…
            </button>
          </>
        ) : null}
      </div>
    </form>
  );
}

'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TRedriveSelection } from '@/lib/schemas/dead-letters';
import { ApiRequestError } from './api-client';
import type { DeadLetterFilterForm } from './dead-letter-filter';
import { useMatches, useRequestRedrive } from './hooks/use-dead-letters';

/** The redrive confirmation: counts what the selection holds now, asks for a reason, names the count on the button. */
export function RedriveDialog({
  selection,
  filter,
  onClose,
  onRequested,
}: {
  selection: TRedriveSelection;
  filter: DeadLetterFilterForm;
  onClose: () => void;
  /** The job was recorded (called before onClose). */
  onRequested: () => void;
}) {
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  const [targetTopic, setTargetTopic] = useState('');
  const counted = useMatches(filter, selection.kind === 'filter');
  const matches =
    selection.kind === 'records' ? { count: selection.records.length, alreadyRedriven: 0 } : (counted.data ?? null);
  const countError = counted.error?.message ?? null;
  const request = useRequestRedrive();
  const dialog = useRef<HTMLDialogElement | null>(null);
  // Modal: focus stays inside and Escape cancels (the native dialog does both).
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const count = matches?.count ?? 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(
      {
        selection,
        reason,
        expectedCount: count,
        force,
        ...(targetTopic.trim() ? { targetTopic: targetTopic.trim() } : {}),
      },
      {
        onSuccess: () => {
          onRequested();
          onClose();
        },
      },
    );
  };
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="redrive-title" onCancel={onClose}>
      <form onSubmit={submit}>
        <h2 id="redrive-title">Redrive dead letters</h2>
        {matches === null ? (
          <p>{countError ? countError : 'Counting the records the filter matches…'}</p>
        ) : (
          <p data-testid="redrive-count">
            {count} record{count === 1 ? '' : 's'} will be produced back to{' '}
            {targetTopic.trim() || 'their source topics'}, with their original key, value and headers.
            {matches.alreadyRedriven > 0 ? ` ${matches.alreadyRedriven} of them were redriven before.` : ''}
          </p>
        )}
        <label>
          Reason (for the audit log)
          <textarea name="reason" required value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <label>
          Target topic (optional; default: each record&apos;s source topic)
          <input name="targetTopic" value={targetTopic} onChange={(e) => setTargetTopic(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Send records that were
          redriven before again
        </label>
        {request.error ? (
          <p className="banner banner-error" role="alert">
            {request.error instanceof ApiRequestError ? request.error.message : 'The redrive could not be requested.'}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={matches === null || count === 0 || reason.trim() === '' || request.isPending}>
            Redrive {count} record{count === 1 ? '' : 's'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

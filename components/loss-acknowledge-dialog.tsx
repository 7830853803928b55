'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { TRecordLoss } from '@/lib/schemas/record-losses';
import { useAcknowledgeLoss } from './hooks/use-acknowledge-loss';
import { groupDigits } from './retention-text';
import { AuditReasonField } from './audit-reason-field';
import './action-dialog.css';

/**
 * The confirmation of acknowledging one record-loss episode: says which records are gone and what the
 * acknowledgement does, requires a reason (it goes to the audit log), and shows the API's refusal (a viewer, an
 * episode acknowledged meanwhile, one grown since) in place. A native modal <dialog>: focus stays inside, Escape
 * cancels, and the caller returns focus to the button that opened it.
 */
export function LossAcknowledgeDialog({
  cluster,
  groupId,
  loss,
  onClose,
}: {
  cluster: string;
  groupId: string;
  loss: TRecordLoss;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const mutation = useAcknowledgeLoss(cluster, groupId);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const name = `${loss.topic}-${loss.partition}`;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    reasonRef.current?.focus();
  }, []);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const given = reason.trim();
    if (given === '') {
      setProblem('reason: is required: say why, for the audit log');
      reasonRef.current?.focus();
      return;
    }
    mutation.mutate(
      { lossId: loss.id, request: { reason: given } },
      {
        onSuccess: () => dialog.current?.close(),
        onError: (error) => setProblem(error.message),
      },
    );
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      onClose={onClose}
      data-testid="loss-acknowledge-dialog"
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`}>Acknowledge the records lost on {name}?</h2>
        <div id={`${id}-what`} className="dialog-what">
          <p className="mono small">group {groupId}</p>
          <p>{loss.summary}.</p>
          <p>
            Says you know these records are gone and why that is settled: the partition is no longer{' '}
            <strong>Records lost</strong> and its alert resolves. Nothing is read or written on Kafka. Should more
            records of this partition be lost past offset <strong className="mono">{groupDigits(loss.toOffset)}</strong>
            , it needs acknowledging again.
          </p>
        </div>

        <AuditReasonField
          value={reason}
          onChange={setReason}
          invalid={problem !== null && reason.trim() === ''}
          inputRef={reasonRef}
          testId="loss-acknowledge-reason"
        />

        {problem ? (
          <p role="alert" className="banner banner-error" data-testid="loss-acknowledge-problem">
            {problem}
          </p>
        ) : null}

        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-primary"
            disabled={mutation.isPending}
            data-testid="confirm-loss-acknowledge"
          >
            {mutation.isPending ? 'Sending…' : 'Acknowledge'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

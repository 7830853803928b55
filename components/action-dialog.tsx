'use client';

import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { TActionRequest } from '@/lib/schemas/operator-actions';
import type { TQuarantine } from '@/lib/schemas/quarantines';
import { operatorActionRequest } from './action-request';
import { ApiRequestError } from './api-client';
import { useOperatorAction } from './hooks/use-operator-action';
import { AuditReasonField } from './audit-reason-field';
import './action-dialog.css';

export type ActionKind = TActionRequest['action'];

const TITLES: Record<ActionKind, string> = { resume: 'Resume', skip: 'Skip', seek: 'Seek' };

/**
 * The confirmation for one operator action: says exactly what will happen to which record, requires a reason
 * (it goes to the audit log) and, for a seek, an offset inside the partition's log or a time. A native modal
 * <dialog>: focus stays inside, Escape cancels, and focus returns to the button that opened it.
 */
export function ActionDialog({
  quarantine,
  action,
  onClose,
}: {
  quarantine: TQuarantine;
  action: ActionKind;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const offsetRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const mutation = useOperatorAction();
  const [reason, setReason] = useState('');
  const [seekBy, setSeekBy] = useState<'offset' | 'time'>('offset');
  const [offset, setOffset] = useState('');
  const [time, setTime] = useState('');
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const name = `${quarantine.topic}-${quarantine.partition}`;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    reasonRef.current?.focus();
  }, []);

  const fail = (message: string, field?: string) => {
    setProblem({ message, field });
    if (field === 'reason') reasonRef.current?.focus();
    else if (field === 'offset' || field === 'timestamp') offsetRef.current?.focus();
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const checked = operatorActionRequest(action, { reason, seekBy, offset, time }, quarantine);
    if (checked.problem) return fail(checked.problem.message, checked.problem.field);
    const request = checked.request;
    mutation.mutate(
      {
        target: {
          cluster: quarantine.cluster,
          groupId: quarantine.groupId,
          topic: quarantine.topic,
          partition: quarantine.partition,
        },
        request,
      },
      {
        onSuccess: () => dialog.current?.close(),
        onError: (error) => fail(error.message, error instanceof ApiRequestError ? error.field : undefined),
      },
    );
  };

  const danger = action !== 'resume';
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-what`}
      onClose={onClose}
      data-testid="action-dialog"
    >
      <form onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`}>
          {TITLES[action]} {name}?
        </h2>
        <div id={`${id}-what`} className="dialog-what">
          <p className="mono small">group {quarantine.groupId}</p>
          {action === 'resume' ? (
            <p>
              Retries the held record at offset <strong className="mono">{quarantine.offset}</strong>. If its cause is
              not fixed, the partition is quarantined again at the same record.
            </p>
          ) : action === 'skip' ? (
            <p>
              Completes the record at offset <strong className="mono">{quarantine.offset}</strong>{' '}
              <strong>without processing it</strong>, after copying it to the dead-letter topic (when one is
              configured). The commit then moves past it. This cannot be undone from here.
            </p>
          ) : (
            <p>
              Forgets this partition&apos;s uncommitted work and continues reading at the chosen position. Records
              between the held offset <strong className="mono">{quarantine.offset}</strong> and the new position are not
              processed (or, seeking backwards, processed again).
            </p>
          )}
          <p className="muted small">
            A Warden worker sends it to the instance of the group that owns the partition, which applies it; the outcome
            appears here and in the audit log.
          </p>
          {quarantine.liveOwner === null ? (
            <p className="banner banner-warn" data-testid="no-live-owner">
              No live instance of {quarantine.groupId} owns {name} now: the action waits until one does, and expires if
              none does in time.
            </p>
          ) : null}
        </div>

        {action === 'seek' ? (
          <fieldset className="seek-choice">
            <legend>Continue at</legend>
            <label>
              <input
                type="radio"
                name={`${id}-by`}
                checked={seekBy === 'offset'}
                onChange={() => setSeekBy('offset')}
              />{' '}
              an offset
            </label>
            <label>
              <input type="radio" name={`${id}-by`} checked={seekBy === 'time'} onChange={() => setSeekBy('time')} />{' '}
              the first record at or after a time
            </label>
            {seekBy === 'offset' ? (
              <label className="field">
                <span>Offset</span>
                <input
                  ref={offsetRef}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  value={offset}
                  onChange={(e) => setOffset(e.target.value.trim())}
                  aria-invalid={problem?.field === 'offset'}
                  aria-describedby={`${id}-range`}
                  data-testid="seek-offset"
                />
                <span id={`${id}-range`} className="muted small">
                  {quarantine.logStartOffset !== null && quarantine.logEndOffset !== null
                    ? `The log holds offsets ${quarantine.logStartOffset} to ${quarantine.logEndOffset} (log end = after the last record).`
                    : 'The log range is not sampled yet; the instance that applies it checks it.'}
                </span>
              </label>
            ) : (
              <label className="field">
                <span>Time (your time zone)</span>
                <input
                  ref={offsetRef}
                  type="datetime-local"
                  step={1}
                  value={time}
                  onChange={(e) => setTime(e.target.value)}
                  aria-invalid={problem?.field === 'timestamp'}
                  data-testid="seek-time"
                />
              </label>
            )}
          </fieldset>
        ) : null}

        <AuditReasonField
          value={reason}
          onChange={setReason}
          invalid={problem?.field === 'reason'}
          inputRef={reasonRef}
          testId="action-reason"
        />

        {problem ? (
          <p role="alert" className="banner banner-error">
            {problem.message}
          </p>
        ) : null}

        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="submit"
            className={`button ${danger ? 'button-danger' : 'button-primary'}`}
            disabled={mutation.isPending}
            data-testid="confirm-action"
          >
            {mutation.isPending
              ? 'Sending…'
              : action === 'seek'
                ? `Seek ${name}`
                : `${TITLES[action]} offset ${quarantine.offset}`}
          </button>
        </div>
      </form>
    </dialog>
  );
}

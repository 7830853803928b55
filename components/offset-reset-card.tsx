'use client';

import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TGroupDetail } from '@/lib/schemas/groups';
import type { TOffsetResetRequest, TOffsetResetResult, TResetTarget } from '@/lib/schemas/offset-reset';
import { REASON_MAX_CHARS, RESETTABLE_STATES } from '@/lib/schemas/values';
import { ApiRequestError } from './api-client';
import { useOffsetReset } from './hooks/use-offset-reset';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';

const TARGET_LABELS: Record<TResetTarget, string> = {
  earliest: 'earliest (log start)',
  latest: 'latest (log end)',
  timestamp: 'a time',
  offset: 'an explicit offset',
};

/**
 * Offset reset for a group that is not a Warden consumer (operators only; the caller hides it from viewers).
 * Offered only while the sampled state is Empty or Dead, with the reason shown otherwise; the server checks
 * the state again on the broker right before writing, and the broker refuses the write if a member joined.
 * Two steps: the form, then a confirmation saying exactly what will move.
 */
export function OffsetResetCard({ detail }: { detail: TGroupDetail }) {
  const zone = useTimeZone();
  const id = useId();
  const mutation = useOffsetReset(detail.cluster, detail.groupId);
  const topics = useMemo(() => [...new Set(detail.partitions.map((p) => p.topic))].sort(), [detail.partitions]);
  const [topic, setTopic] = useState(topics[0] ?? '');
  const [scope, setScope] = useState('all');
  const [to, setTo] = useState<TResetTarget>('earliest');
  const [offset, setOffset] = useState('');
  const [time, setTime] = useState('');
  const [reason, setReason] = useState('');
  const [review, setReview] = useState<TOffsetResetRequest | null>(null);
  const [problem, setProblem] = useState<{ message: string; field?: string } | null>(null);
  const [done, setDone] = useState<TOffsetResetResult | null>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);

  const resettable = (RESETTABLE_STATES as readonly string[]).includes(detail.state);
  const partitionsOfTopic = detail.partitions.filter((p) => p.topic === topic).map((p) => p.partition);
  const chosen = scope === 'all' ? null : Number(scope);
  const log = chosen === null ? null : detail.partitions.find((p) => p.topic === topic && p.partition === chosen);

  const onReview = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setDone(null);
    if (reason.trim() === '')
      return setProblem({ message: 'reason: is required: say why, for the audit log', field: 'reason' });
    const request: TOffsetResetRequest = {
      topic,
      to,
      reason: reason.trim(),
      ...(chosen === null ? {} : { partition: chosen }),
    };
    if (to === 'offset') {
      if (chosen === null)
        return setProblem({
          message: 'partition: pick one partition to reset to an explicit offset',
          field: 'partition',
        });
      if (!/^\d{1,19}$/.test(offset))
        return setProblem({ message: 'offset: must be a whole, non-negative offset', field: 'offset' });
      request.offset = offset;
    }
    if (to === 'timestamp') {
      const ms = Date.parse(time);
      if (Number.isNaN(ms)) return setProblem({ message: 'timestamp: pick a date and time', field: 'timestamp' });
      request.timestamp = new Date(ms).toISOString();
    }
    setReview(request);
    requestAnimationFrame(() => confirmRef.current?.focus());
  };

  const onConfirm = () => {
    if (!review) return;
    mutation.mutate(review, {
      onSuccess: (result) => {
        setDone(result);
        setReview(null);
        setReason('');
      },
      onError: (error) => {
        setReview(null);
        setProblem({ message: error.message, field: error instanceof ApiRequestError ? error.field : undefined });
      },
    });
  };

  const where = (r: TOffsetResetRequest) =>
    `${r.topic} ${r.partition === undefined ? `(all ${partitionsOfTopic.length} partitions)` : `partition ${r.partition}`}`;
  const target = (r: TOffsetResetRequest) =>
    r.to === 'offset'
      ? `offset ${r.offset}`
      : r.to === 'timestamp'
        ? `the first record at or after ${formatDateTime(r.timestamp!, zone)}`
        : `the ${r.to} offset`;

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="offset-reset">
      <div className="card-head">
        <h2 id={`${id}-title`}>Reset offsets</h2>
        <span className="muted small">moves where this group will continue reading; audited</span>
      </div>
      {!resettable ? (
        <p className="banner banner-info" data-testid="reset-disabled-reason">
          Offsets can only be reset while the group has no members (Empty or Dead). It is{' '}
          <strong>{detail.state}</strong> with {detail.members} member
          {detail.members === 1 ? '' : 's'}: a member would overwrite the reset with its next commit. Stop its consumers
          first; the form opens once the group is sampled Empty.
        </p>
      ) : null}
      <form onSubmit={onReview} noValidate>
        <fieldset className="reset-form" disabled={!resettable || mutation.isPending || review !== null}>
          <label className="field">
            <span>Topic</span>
            <select value={topic} onChange={(e) => setTopic(e.target.value)} data-testid="reset-topic">
              {topics.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Partitions</span>
            <select
              value={scope}
              onChange={(e) => setScope(e.target.value)}
              aria-invalid={problem?.field === 'partition'}
              data-testid="reset-scope"
            >
              <option value="all">all partitions of the topic</option>
              {partitionsOfTopic.map((p) => (
                <option key={p} value={String(p)}>
                  partition {p}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Reset to</span>
            <select value={to} onChange={(e) => setTo(e.target.value as TResetTarget)} data-testid="reset-to">
              {(Object.keys(TARGET_LABELS) as TResetTarget[]).map((t) => (
                <option key={t} value={t}>
                  {TARGET_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          {to === 'offset' ? (
            <label className="field">
              <span>Offset</span>
              <input
                type="text"
                inputMode="numeric"
                value={offset}
                onChange={(e) => setOffset(e.target.value.trim())}
                aria-invalid={problem?.field === 'offset'}
                aria-describedby={`${id}-range`}
                data-testid="reset-offset"
              />
              <span id={`${id}-range`} className="muted small">
                {log ? `log ${log.logStartOffset} – ${log.logEndOffset}` : 'pick one partition'}
              </span>
            </label>
          ) : null}
          {to === 'timestamp' ? (
            <label className="field">
              <span>Time (your time zone)</span>
              <input
                type="datetime-local"
                step={1}
                value={time}
                onChange={(e) => setTime(e.target.value)}
                aria-invalid={problem?.field === 'timestamp'}
                data-testid="reset-time"
              />
            </label>
          ) : null}
          <label className="field field-wide">
            <span>
              Reason <span className="muted small">(required, kept in the audit log)</span>
            </span>
            <textarea
              rows={2}
              maxLength={REASON_MAX_CHARS}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={problem?.field === 'reason'}
              data-testid="reset-reason"
            />
          </label>
          <div className="field-wide actions">
            <button type="submit" className="button" data-testid="reset-review">
              Review reset…
            </button>
          </div>
        </fieldset>
      </form>

      {review ? (
        <div
          className="banner banner-warn"
          role="group"
          aria-label="Confirm the offset reset"
          data-testid="reset-confirm"
        >
          <p>
            Reset the committed offsets of <strong className="mono">{detail.groupId}</strong> on{' '}
            <strong className="mono">{where(review)}</strong> to <strong>{target(review)}</strong>? Records before the
            new position will not be read by this group; records after it are read again. The group must still have no
            members when the broker receives it.
          </p>
          <div className="actions">
            <button type="button" className="button" onClick={() => setReview(null)}>
              Cancel
            </button>
            <button
              ref={confirmRef}
              type="button"
              className="button button-danger"
              onClick={onConfirm}
              disabled={mutation.isPending}
              data-testid="reset-confirm-button"
            >
              {mutation.isPending ? 'Resetting…' : 'Reset offsets'}
            </button>
          </div>
        </div>
      ) : null}
      {problem ? (
        <p role="alert" className="banner banner-error" data-testid="reset-error">
          {problem.message}
        </p>
      ) : null}
      {done ? (
        <div role="status" className="reset-result" data-testid="reset-result">
          <p>
            Reset {done.topic} (group was {done.state}):
          </p>
          <ul className="mono small">
            {done.partitions.map((p) => (
              <li key={p.partition}>
                partition {p.partition}: {p.previousOffset ?? 'none'} → {p.offset}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

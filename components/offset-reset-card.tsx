'use client';

import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TGroupDetail } from '@/lib/schemas/groups';
import type { TOffsetResetRequest, TOffsetResetResult, TResetTarget } from '@/lib/schemas/offset-reset';
import { REASON_MAX_CHARS, RESETTABLE_STATES } from '@/lib/schemas/values';
import { ApiRequestError } from './api-client';
import { useOffsetReset } from './hooks/use-offset-reset';
import { OffsetResetConfirm, OffsetResetDone } from './offset-reset-confirm';
import { offsetResetRequest } from './offset-reset-request';
import './offset-reset-card.css';

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
    const checked = offsetResetRequest({ topic, scope, to, offset, time, reason });
    if (checked.problem) return setProblem(checked.problem);
    setReview(checked.request);
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
        <OffsetResetConfirm
          groupId={detail.groupId}
          request={review}
          topicPartitions={partitionsOfTopic.length}
          pending={mutation.isPending}
          confirmRef={confirmRef}
          onCancel={() => setReview(null)}
          onConfirm={onConfirm}
        />
      ) : null}
      {problem ? (
        <p role="alert" className="banner banner-error" data-testid="reset-error">
          {problem.message}
        </p>
      ) : null}
      {done ? <OffsetResetDone result={done} /> : null}
    </section>
  );
}

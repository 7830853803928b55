'use client';

import { useState, type FormEvent } from 'react';
import { ALERT_CONDITIONS, type AlertCondition } from '@/lib/alerts/alert-settings';
import type { TAlert } from '@/lib/schemas/alerts';
import { oneOf, REASON_MAX_CHARS } from '@/lib/schemas/values';
import { ApiRequestError } from './api-client';
import { useCreateSilence } from './hooks/use-alerts';

const isCondition = oneOf(ALERT_CONDITIONS);

/** What a silence form starts from: a row's cluster, group and condition, or the page's cluster alone. */
export type SilenceTarget = { cluster: string; groupId: string | null; condition: TAlert['condition'] | null };

const DURATIONS = [
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1_440, label: '1 day' },
];

/**
 * A new silence: which cluster (with several), group and condition, for how long, and why (for the audit log).
 * `clusters`: the configured clusters to choose from, or null with one cluster (no choice shown).
 */
export function SilenceForm({
  initial,
  clusters,
  onDone,
}: {
  initial: SilenceTarget;
  clusters: readonly string[] | null;
  onDone: () => void;
}) {
  const create = useCreateSilence();
  const [cluster, setCluster] = useState(initial.cluster);
  const [groupId, setGroupId] = useState(initial.groupId ?? '');
  const [condition, setCondition] = useState<AlertCondition | ''>(initial.condition ?? '');
  const [minutes, setMinutes] = useState(60);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (reason.trim() === '') return setProblem('reason: is required: say why, for the audit log');
    create.mutate(
      {
        cluster,
        groupId: groupId.trim() === '' ? null : groupId.trim(),
        condition: condition === '' ? null : condition,
        durationMinutes: minutes,
        reason: reason.trim(),
      },
      {
        onSuccess: onDone,
        onError: (error) => setProblem(error instanceof ApiRequestError ? error.message : String(error)),
      },
    );
  };

  return (
    <form className="card" onSubmit={onSubmit} aria-label="Silence alerts" data-testid="silence-form">
      <h2>Silence alerts</h2>
      {clusters ? (
        <label className="field">
          <span>Cluster</span>
          <select value={cluster} onChange={(e) => setCluster(e.target.value)} data-testid="silence-cluster-choice">
            {clusters.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span>Group (empty: every group)</span>
        <input value={groupId} onChange={(e) => setGroupId(e.target.value)} />
      </label>
      <label className="field">
        <span>Condition</span>
        <select value={condition} onChange={(e) => setCondition(isCondition(e.target.value) ? e.target.value : '')}>
          <option value="">every condition</option>
          {ALERT_CONDITIONS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>For</span>
        <select value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
          {DURATIONS.map((d) => (
            <option key={d.minutes} value={d.minutes}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Reason (for the audit)</span>
        <textarea value={reason} maxLength={REASON_MAX_CHARS} onChange={(e) => setReason(e.target.value)} />
      </label>
      {problem ? (
        <p className="banner banner-error" role="alert">
          {problem}
        </p>
      ) : null}
      <button type="submit" disabled={create.isPending}>
        Silence
      </button>{' '}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

'use client';

import { AppLink } from '@/components/app-link';
import { useState, type FormEvent } from 'react';
import { ApiRequestError } from '@/components/api-client';
import { ClusterSelect } from '@/components/cluster-select';
import { AlertMarks, SeverityBadge } from '@/components/firing-alerts';
import { formatDateTime } from '@/components/format';
import { useAcknowledgeAlert, useAlerts, useCreateSilence } from '@/components/hooks/use-alerts';
import { useCanOperate } from '@/components/session-context';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import type { TAlert, TSilence } from '@/lib/schemas/alerts';
import { ALERT_CONDITIONS, type AlertCondition } from '@/lib/alerts/alert-settings';
import { DEFAULT_CLUSTER, oneOf, REASON_MAX_CHARS } from '@/lib/schemas/values';
import { useTimeZone } from '@/components/display-preferences';
import { useUrlParam } from '@/components/use-url-param';

/** The cluster select's "every cluster" choice (no `?cluster=`). */
const ALL_CLUSTERS = '';
const isCondition = oneOf(ALERT_CONDITIONS);

/** What a silence form starts from: a row's cluster, group and condition, or the page's cluster alone. */
type SilenceTarget = { cluster: string; groupId: string | null; condition: TAlert['condition'] | null };

const DURATIONS = [
  { minutes: 30, label: '30 minutes' },
  { minutes: 60, label: '1 hour' },
  { minutes: 240, label: '4 hours' },
  { minutes: 1_440, label: '1 day' },
];

/**
 * Alerts: what fires now (and who has it), silences, the history, and every notification's deliveries. With
 * several clusters configured, each alert and silence names its cluster, the page can show one cluster's
 * (`?cluster=`), and a silence is set for one cluster.
 */
export function AlertsPageClient({ refreshMs, clusters }: { refreshMs: number; clusters: string[] }) {
  const several = clusters.length > 1;
  const [cluster, setCluster] = useUrlParam<string>('cluster', ALL_CLUSTERS, oneOf(clusters));
  const query = useAlerts(refreshMs, cluster === ALL_CLUSTERS ? undefined : cluster);
  const { data, error, isPending } = query;
  const canOperate = useCanOperate();
  const [silencing, setSilencing] = useState<SilenceTarget | null>(null);

  return (
    <section aria-labelledby="alerts-heading">
      <div className="page-head">
        <div>
          <h1 id="alerts-heading">Alerts</h1>
          <p className="muted subtitle">
            Evaluated after every sampler round; one alert per group and condition, delivered to the configured
            receivers.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="the alerts" hasStaleData={data !== undefined} /> : null}
      {several ? (
        <div className="toolbar">
          <ClusterSelect
            value={cluster}
            clusters={clusters}
            onChange={setCluster}
            all={{ value: ALL_CLUSTERS, label: 'all clusters' }}
            ariaLabel="Cluster of alerts"
            testId="alerts-cluster"
          />
        </div>
      ) : null}
      {canOperate ? (
        <p>
          <button
            type="button"
            onClick={() =>
              setSilencing({
                cluster: cluster === ALL_CLUSTERS ? DEFAULT_CLUSTER : cluster,
                groupId: null,
                condition: null,
              })
            }
          >
            New silence…
          </button>
        </p>
      ) : null}
      {silencing ? (
        <SilenceForm
          // A new target (another row's Silence…) starts a new form.
          key={`${silencing.cluster}/${silencing.groupId ?? ''}/${silencing.condition ?? ''}`}
          initial={silencing}
          clusters={several ? clusters : null}
          onDone={() => setSilencing(null)}
        />
      ) : null}
      {isPending ? (
        <LoadingState label="Loading the alerts…" />
      ) : data ? (
        <>
          <h2>Firing now</h2>
          {data.open.length === 0 ? (
            <EmptyState title="Nothing is firing.">Alerts appear here while their condition holds.</EmptyState>
          ) : (
            <AlertTable
              alerts={data.open}
              canOperate={canOperate}
              onSilence={setSilencing}
              showCluster={several}
              testId="open-alert"
            />
          )}
          <h2>Silences</h2>
          {data.silences.length === 0 ? (
            <p className="muted">No active silence.</p>
          ) : (
            <SilenceTable silences={data.silences} showCluster={several} />
          )}
          <h2>History</h2>
          {data.history.length === 0 ? (
            <p className="muted">No alert resolved yet.</p>
          ) : (
            <AlertTable
              alerts={data.history}
              canOperate={false}
              onSilence={setSilencing}
              showCluster={several}
              testId="history-alert"
            />
          )}
        </>
      ) : null}
    </section>
  );
}

function AlertTable({
  alerts,
  canOperate,
  onSilence,
  showCluster,
  testId,
}: {
  alerts: TAlert[];
  canOperate: boolean;
  onSilence: (target: SilenceTarget) => void;
  showCluster: boolean;
  testId: string;
}) {
  return (
    <div className="table-wrap">
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Since</th>
            {showCluster ? <th scope="col">Cluster</th> : null}
            <th scope="col">Severity</th>
            <th scope="col">Alert</th>
            <th scope="col">Reasons</th>
            <th scope="col">Notifications</th>
            {canOperate ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {alerts.map((a) => (
            <AlertRow
              key={a.id}
              alert={a}
              canOperate={canOperate}
              onSilence={onSilence}
              showCluster={showCluster}
              testId={testId}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AlertRow({
  alert: a,
  canOperate,
  onSilence,
  showCluster,
  testId,
}: {
  alert: TAlert;
  canOperate: boolean;
  onSilence: (target: SilenceTarget) => void;
  showCluster: boolean;
  testId: string;
}) {
  const zone = useTimeZone();
  const acknowledge = useAcknowledgeAlert();
  return (
    <tr
      data-testid={testId}
      data-condition={a.condition}
      data-group={a.groupId ?? ''}
      data-cluster={a.cluster}
      data-phase={a.phase}
    >
      <td className="nowrap">
        <time dateTime={a.firingSince ?? a.activeSince}>{formatDateTime(a.firingSince ?? a.activeSince, zone)}</time>
        {a.phase === 'pending' ? <span className="cell-note">pending: its for-duration has not passed yet</span> : null}
        {a.resolvedAt ? <span className="cell-note">resolved {formatDateTime(a.resolvedAt, zone)}</span> : null}
      </td>
      {showCluster ? <td data-testid="alert-cluster">{a.cluster}</td> : null}
      <td>
        <SeverityBadge severity={a.severity} />
      </td>
      <td>
        {/* The link names the alert's cluster (`?cluster=`) unless it is the default one. */}
        <AppLink href={a.link}>{a.summary}</AppLink>
        <span className="cell-note mono">{a.condition}</span>
        <AlertMarks alert={a} />
      </td>
      <td className="reason">
        <AlertReasons reasons={a.reasons} />
      </td>
      <td className="small">
        {a.notifications.length === 0 ? (
          <span className="muted">none yet</span>
        ) : (
          <details>
            <summary>
              {a.notifications.length} notification{a.notifications.length === 1 ? '' : 's'}; latest:{' '}
              {a.notifications[0]!.kind} → {a.notifications[0]!.receiver}, {a.notifications[0]!.status}
            </summary>
            <ul className="plain-list">
              {a.notifications.map((n) => (
                <li key={n.id} data-testid="notification">
                  <strong>
                    {n.kind} → {n.receiver}: {n.status}
                  </strong>{' '}
                  <span className="muted">{formatDateTime(n.createdAt, zone)}</span>
                  {n.lastError ? <span className="cell-note">{n.lastError}</span> : null}
                  <ul className="plain-list">
                    {n.deliveries.map((d) => (
                      <li key={d.attempt}>
                        #{d.attempt} {formatDateTime(d.startedAt, zone)} · {d.statusCode ?? 'no answer'} ·{' '}
                        {d.durationMs} ms · {d.outcome}
                        {d.error ? ` · ${d.error}` : ''}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </details>
        )}
      </td>
      {canOperate ? (
        <td className="nowrap">
          {a.phase === 'firing' && !a.acknowledgedBy ? (
            <button type="button" disabled={acknowledge.isPending} onClick={() => acknowledge.mutate(a.id)}>
              Acknowledge
            </button>
          ) : null}{' '}
          <button
            type="button"
            onClick={() => onSilence({ cluster: a.cluster, groupId: a.groupId, condition: a.condition })}
          >
            Silence…
          </button>
          {acknowledge.error ? (
            <span className="cell-note" role="alert">
              {acknowledge.error.message}
            </span>
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

function SilenceTable({ silences, showCluster }: { silences: TSilence[]; showCluster: boolean }) {
  const zone = useTimeZone();
  return (
    <div className="table-wrap">
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Until</th>
            {showCluster ? <th scope="col">Cluster</th> : null}
            <th scope="col">Group</th>
            <th scope="col">Condition</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {silences.map((s) => (
            <tr key={s.id} data-testid="silence" data-cluster={s.cluster}>
              <td className="nowrap">{formatDateTime(s.endsAt, zone)}</td>
              {showCluster ? <td data-testid="silence-cluster">{s.cluster}</td> : null}
              <td>{s.groupId ?? <span className="muted">every group</span>}</td>
              <td>{s.condition ?? <span className="muted">every condition</span>}</td>
              <td className="reason">{s.reason}</td>
              <td>
                {s.createdBy}
                <span className="cell-note">{formatDateTime(s.createdAt, zone)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `clusters`: the configured clusters to choose from, or null with one cluster (no choice shown). */
function SilenceForm({
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

/** Reasons shown before the rest fold away: a group with hundreds of partitions gives hundreds of reasons. */
const SHOWN_REASONS = 5;

function AlertReasons({ reasons }: { reasons: readonly string[] }) {
  const list = (items: readonly string[]) => (
    <ul className="plain-list">
      {items.map((r) => (
        <li key={r}>{r}</li>
      ))}
    </ul>
  );
  if (reasons.length <= SHOWN_REASONS) return list(reasons);
  return (
    <>
      {list(reasons.slice(0, SHOWN_REASONS))}
      <details data-testid="more-reasons">
        <summary>and {reasons.length - SHOWN_REASONS} more</summary>
        {list(reasons.slice(SHOWN_REASONS))}
      </details>
    </>
  );
}

'use client';

import { AppLink } from '@/components/app-link';
import { useMemo, useState } from 'react';
import { groupPath } from '@/components/api-client';
import { ClusterSelect } from '@/components/cluster-select';
import { useAudit } from '@/components/hooks/use-audit';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { ShowOlder, useStepwise } from '@/components/stepwise-list';
import type { TAccessEvent, TAuditKindFilter } from '@/lib/schemas/access-events';
import { AUDIT_KIND_FILTERS, DEFAULT_CLUSTER, oneOf } from '@/lib/schemas/values';
import type { TRedriveJob, TRedriveSelection } from '@/lib/schemas/dead-letters';
import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import { formatDateTime } from '@/components/format';
import { useTimeZone } from '@/components/display-preferences';
import { useUrlParam } from '@/components/use-url-param';

/** The cluster select's "every cluster" choice (no `?cluster=`). */
const ALL_CLUSTERS = '';
const isAuditKind = oneOf(AUDIT_KIND_FILTERS);
/**
 * Rows of each table drawn at first, and added by each "Show older": the log answers up to 500 of each, and every
 * row drawn goes through the page's first render and hydration.
 */
const ROWS_PER_STEP = 50;

/** The kind filter's choices; the API filters (GET /api/audit?kind=). */
const KIND_CHOICES: readonly { value: TAuditKindFilter | ''; label: string }[] = [
  { value: '', label: 'Everything' },
  { value: 'actions', label: 'Operator actions' },
  { value: 'access', label: 'Sign-ins and sign-outs' },
  { value: 'sign-in', label: 'Sign-ins' },
  { value: 'sign-in-failed', label: 'Failed sign-ins' },
  { value: 'sign-in-rate-limited', label: 'Rate-limited sign-ins' },
  { value: 'sign-out', label: 'Sign-outs' },
  { value: 'sign-out-all', label: 'Sign-outs everywhere' },
];

/**
 * Audit: every operator action, newest first (who, what, on which partition, why, when, and the outcome),
 * and every sign-in and sign-out (who, from which address and browser), filtered by kind; with several clusters
 * configured, by cluster too (`?cluster=`; one cluster's log has no sign-ins, which belong to none).
 */
export function AuditPageClient({ refreshMs, clusters }: { refreshMs: number; clusters: string[] }) {
  const [kind, setKind] = useState<TAuditKindFilter | undefined>(undefined);
  const [cluster, setCluster] = useUrlParam<string>('cluster', ALL_CLUSTERS, oneOf(clusters));
  const query = useAudit(refreshMs, kind, cluster === ALL_CLUSTERS ? undefined : cluster);
  const { data, error, isPending } = query;
  const [filter, setFilter] = useState('');
  const matching = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (data?.actions ?? []).filter(
      (a) =>
        needle === '' ||
        [a.groupId, `${a.topic}-${a.partition}`, a.requestedBy, a.action, a.status, a.reason].some((s) =>
          s.toLowerCase().includes(needle),
        ),
    );
  }, [data, filter]);
  /** The kind and cluster chosen: a new choice draws every table from its first step again. */
  const choice = `${kind ?? ''}/${cluster}`;
  const actions = useStepwise(matching, ROWS_PER_STEP, `${choice}/${filter}`);

  return (
    <section aria-labelledby="audit-heading">
      <div className="page-head">
        <div>
          <h1 id="audit-heading">Audit log</h1>
          <p className="muted subtitle">
            Every resume, skip and seek asked for and what the owning worker did with it, every offset reset, every
            dead-letter redrive, and every sign-in and sign-out.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="the audit log" hasStaleData={data !== undefined} /> : null}
      <div className="toolbar">
        <label className="field-inline">
          <span>Show</span>
          <select
            value={kind ?? ''}
            onChange={(e) => setKind(isAuditKind(e.target.value) ? e.target.value : undefined)}
            aria-label="Kind of audit entries"
          >
            {KIND_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        {clusters.length > 1 ? (
          <ClusterSelect
            value={cluster}
            clusters={clusters}
            onChange={setCluster}
            all={{ value: ALL_CLUSTERS, label: 'all clusters' }}
            ariaLabel="Cluster of audit entries"
            testId="audit-cluster"
          />
        ) : null}
      </div>
      {isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : !data || (data.actions.length === 0 && data.access.length === 0 && data.redrives.length === 0) ? (
        <EmptyState title="Nothing recorded yet.">
          Actions taken on the Quarantine page, offset resets, dead-letter redrives, and sign-ins and sign-outs appear
          here.
        </EmptyState>
      ) : data.actions.length === 0 ? null : (
        <>
          <div className="toolbar">
            <label className="field-inline">
              <span>Filter</span>
              <input
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="group, partition, who, status…"
                aria-label="Filter the audit log"
              />
            </label>
            <span className="muted" aria-live="polite" data-testid="audit-shown">
              {matching.length} of {data.actions.length}
              {actions.hidden > 0 ? `, newest ${actions.shown.length} drawn` : ''}
            </span>
          </div>
          <div className="table-wrap">
            <table className="grid grid-audit">
              <caption className="visually-hidden">Operator actions, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Requested</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Status</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Applied by</th>
                </tr>
              </thead>
              <tbody>
                {actions.shown.map((a) => (
                  <AuditRow key={a.id} action={a} />
                ))}
              </tbody>
            </table>
          </div>
          <ShowOlder hidden={actions.hidden} step={ROWS_PER_STEP} onClick={actions.more} testId="audit-more" />
        </>
      )}
      {data && data.redrives.length > 0 ? <RedriveTable jobs={data.redrives} choice={choice} /> : null}
      {data && data.access.length > 0 ? <AccessTable events={data.access} choice={choice} /> : null}
    </section>
  );
}

/** What a redrive sends: the records an operator chose, or every dead letter a filter matched. */
function describeSelection(selection: TRedriveSelection): string {
  if (selection.kind === 'records') {
    return `${selection.records.length} chosen record${selection.records.length === 1 ? '' : 's'}`;
  }
  const f = selection.filter;
  const parts = [
    f.sourceTopic ? `topic ${f.sourceTopic}` : null,
    f.sourcePartition !== undefined ? `partition ${f.sourcePartition}` : null,
    f.errorClass ? `error ${f.errorClass}` : null,
    f.key ? `key ${f.key}` : null,
    f.from ? `from ${f.from}` : null,
    f.to ? `before ${f.to}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? 'every dead letter' : `every dead letter with ${parts.join(', ')}`;
}

/** Redrives of dead letters (Dead letters page): who sent what back, why, and how far the job got. */
function RedriveTable({ jobs, choice }: { jobs: readonly TRedriveJob[]; choice: string }) {
  const zone = useTimeZone();
  const { shown, hidden, more } = useStepwise(jobs, ROWS_PER_STEP, choice);
  return (
    <div className="table-wrap">
      <h2>Dead-letter redrives</h2>
      <table className="grid grid-audit">
        <caption className="visually-hidden">Dead-letter redrives, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Requested</th>
            <th scope="col">Who</th>
            <th scope="col">Records</th>
            <th scope="col">From → to</th>
            <th scope="col">Reason</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Sent / of
            </th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((j) => (
            <tr key={j.id} data-testid="redrive-audit-row" data-status={j.status}>
              <td className="nowrap">
                <time dateTime={j.requestedAt}>{formatDateTime(j.requestedAt, zone)}</time>
              </td>
              <td>{j.requestedBy}</td>
              <td>
                {describeSelection(j.selection)}
                {j.force ? <span className="cell-note">forced: records redriven before go again</span> : null}
              </td>
              <td className="mono">
                {j.dlqTopic} → {j.targetTopic ?? 'their source partitions'}
              </td>
              <td>{j.reason}</td>
              <td>
                <span className={`badge badge-${j.status}`}>{j.status}</span>
              </td>
              <td className="num" data-testid="redrive-audit-progress">
                {j.sent} / {j.total}
                {j.skipped > 0 || j.failed > 0 ? (
                  <span className="cell-note">
                    {j.skipped} skipped, {j.failed} failed
                  </span>
                ) : null}
              </td>
              <td>
                {j.outcome ?? <span className="muted">—</span>}
                {j.completedAt ? <span className="cell-note">{formatDateTime(j.completedAt, zone)}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowOlder hidden={hidden} step={ROWS_PER_STEP} onClick={more} testId="redrive-audit-more" />
    </div>
  );
}

const ACCESS_LABELS: Record<TAccessEvent['kind'], string> = {
  'sign-in': 'signed in',
  'sign-in-failed': 'wrong user name or password',
  'sign-in-rate-limited': 'refused: too many failures',
  'sign-out': 'signed out',
  'sign-out-all': 'signed out everywhere',
};

function AccessTable({ events, choice }: { events: readonly TAccessEvent[]; choice: string }) {
  const zone = useTimeZone();
  const { shown, hidden, more } = useStepwise(events, ROWS_PER_STEP, choice);
  return (
    <div className="table-wrap">
      <h2>Sign-ins and sign-outs</h2>
      <table className="grid grid-access">
        <caption className="visually-hidden">Sign-ins and sign-outs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">User name</th>
            <th scope="col">What</th>
            <th scope="col">Address</th>
            <th scope="col">Browser</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <tr key={e.id} data-testid="access-row" data-kind={e.kind}>
              <td className="nowrap">
                <time dateTime={e.at}>{formatDateTime(e.at, zone)}</time>
              </td>
              <td>{e.userName}</td>
              <td>
                <span className={`badge badge-access-${e.kind}`}>{ACCESS_LABELS[e.kind]}</span>
                {e.detail ? <span className="cell-note">{e.detail}</span> : null}
              </td>
              <td className="mono">{e.clientAddress}</td>
              <td className="small">{e.userAgent || <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowOlder hidden={hidden} step={ROWS_PER_STEP} onClick={more} testId="access-more" />
    </div>
  );
}

function AuditRow({ action: a }: { action: TOperatorAction }) {
  const zone = useTimeZone();
  const what =
    a.action === 'seek' || a.action === 'reset'
      ? `${a.action === 'seek' ? 'seek' : 'offset reset'} to ${a.seekOffset ?? '?'}${a.seekTimestamp ? ` (time ${formatDateTime(a.seekTimestamp, zone)})` : ''}`
      : a.action;
  return (
    <tr data-testid="audit-row" data-status={a.status}>
      <td className="nowrap">
        <time dateTime={a.requestedAt}>{formatDateTime(a.requestedAt, zone)}</time>
      </td>
      <td>{a.requestedBy}</td>
      <td className="nowrap">
        {what}
        <span className="cell-note">#{a.id}</span>
      </td>
      <td>
        <span className="mono">
          {a.topic}-{a.partition}
        </span>
        {a.quarantineOffset ? <span className="cell-note mono">held @ {a.quarantineOffset}</span> : null}
        <AppLink href={groupPath(a.groupId, a.cluster)} className="cell-note">
          {a.groupId}
        </AppLink>
        {a.cluster !== DEFAULT_CLUSTER ? <span className="cell-note">cluster {a.cluster}</span> : null}
      </td>
      <td className="reason">{a.reason}</td>
      <td>
        <span className={`badge badge-status-${a.status}`}>{a.status}</span>
      </td>
      <td className="outcome">{a.outcome ?? <span className="muted">—</span>}</td>
      <td className="small">
        {a.executedBy ?? <span className="muted">—</span>}
        {a.completedAt ? <span className="cell-note">{formatDateTime(a.completedAt, zone)}</span> : null}
      </td>
    </tr>
  );
}

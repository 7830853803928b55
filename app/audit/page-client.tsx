'use client';

import Link from 'next/link';
import { useMemo, useState } from 'react';
import { groupPath } from '@/components/api-client';
import { useAudit } from '@/components/hooks/use-audit';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import { formatDateTime } from '@/components/format';

/** Audit: every operator action, newest first: who, what, on which partition, why, when, and the outcome. */
export function AuditPageClient({ refreshMs }: { refreshMs: number }) {
  const { data, error, isPending, isFetching } = useAudit(refreshMs);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return (data?.actions ?? []).filter(
      (a) =>
        needle === '' ||
        [a.groupId, `${a.topic}-${a.partition}`, a.requestedBy, a.action, a.status, a.reason].some((s) =>
          s.toLowerCase().includes(needle),
        ),
    );
  }, [data, filter]);

  return (
    <section aria-labelledby="audit-heading">
      <div className="page-head">
        <div>
          <h1 id="audit-heading">Audit log</h1>
          <p className="muted subtitle">
            Every resume, skip and seek asked for and what the owning worker did with it, and every offset reset.
          </p>
        </div>
        <RefreshIndicator isFetching={isFetching} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="the audit log" hasStaleData={data !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading the audit log…" />
      ) : !data || data.actions.length === 0 ? (
        <EmptyState title="No operator action yet.">Actions taken on the Quarantine page appear here.</EmptyState>
      ) : (
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
            <span className="muted" aria-live="polite">
              {shown.length} of {data.actions.length}
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
                {shown.map((a) => (
                  <AuditRow key={a.id} action={a} />
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function AuditRow({ action: a }: { action: TOperatorAction }) {
  const what =
    a.action === 'seek' || a.action === 'reset'
      ? `${a.action === 'seek' ? 'seek' : 'offset reset'} to ${a.seekOffset ?? '?'}${a.seekTimestamp ? ` (time ${formatDateTime(a.seekTimestamp)})` : ''}`
      : a.action;
  return (
    <tr data-testid="audit-row" data-status={a.status}>
      <td className="nowrap">
        <time dateTime={a.requestedAt}>{formatDateTime(a.requestedAt)}</time>
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
        <Link href={groupPath(a.groupId)} className="cell-note">
          {a.groupId}
        </Link>
      </td>
      <td className="reason">{a.reason}</td>
      <td>
        <span className={`badge badge-status-${a.status}`}>{a.status}</span>
      </td>
      <td className="outcome">{a.outcome ?? <span className="muted">—</span>}</td>
      <td className="small">
        {a.executedBy ?? <span className="muted">—</span>}
        {a.completedAt ? <span className="cell-note">{formatDateTime(a.completedAt)}</span> : null}
      </td>
    </tr>
  );
}

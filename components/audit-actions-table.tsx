'use client';

import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { groupPath } from './api-client';
import { AppLink } from './app-link';
import { AUDIT_ROWS_PER_STEP } from './audit-steps';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { ShowOlder } from './stepwise-list';
import type { AuditActionFilter } from './use-audit-action-filter';
import './audit-actions-table.css';

/**
 * Operator actions, newest first (who, what, on which partition, why, and what the owning worker did), under
 * the text filter; `total` is how many the log answered before it.
 */
export function AuditActionsTable({ total, view }: { total: number; view: AuditActionFilter }) {
  const { filter, setFilter, matching, drawn } = view;
  return (
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
          {matching.length} of {total}
          {drawn.hidden > 0 ? `, newest ${drawn.shown.length} drawn` : ''}
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
            {drawn.shown.map((a) => (
              <AuditRow key={a.id} action={a} />
            ))}
          </tbody>
        </table>
      </div>
      <ShowOlder hidden={drawn.hidden} step={AUDIT_ROWS_PER_STEP} onClick={drawn.more} testId="audit-more" />
    </>
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

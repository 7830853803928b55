'use client';

import type { TRedriveJob, TRedriveSelection } from '@/lib/schemas/dead-letters';
import { AUDIT_ROWS_PER_STEP } from './audit-steps';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { ShowOlder, useStepwise } from './stepwise-list';

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

/**
 * Redrives of dead letters (Dead letters page): who sent what back, why, and how far the job got. A new `choice`
 * (the Audit page's kind and cluster) draws from the first step again.
 */
export function RedriveAuditTable({ jobs, choice }: { jobs: readonly TRedriveJob[]; choice: string }) {
  const zone = useTimeZone();
  const { shown, hidden, more } = useStepwise(jobs, AUDIT_ROWS_PER_STEP, choice);
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
      <ShowOlder hidden={hidden} step={AUDIT_ROWS_PER_STEP} onClick={more} testId="redrive-audit-more" />
    </div>
  );
}

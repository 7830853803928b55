'use client';

import type { TAccessEvent } from '@/lib/schemas/access-events';
import { AUDIT_ROWS_PER_STEP } from './audit-steps';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { ShowOlder, useStepwise } from './stepwise-list';

const ACCESS_LABELS: Record<TAccessEvent['kind'], string> = {
  'sign-in': 'signed in',
  'sign-in-failed': 'wrong user name or password',
  'sign-in-rate-limited': 'refused: too many failures',
  'sign-out': 'signed out',
  'sign-out-all': 'signed out everywhere',
};

/**
 * Sign-ins and sign-outs: who, what, from which address and browser. A new `choice` (the Audit page's kind and
 * cluster) draws from the first step again.
 */
export function AccessAuditTable({ events, choice }: { events: readonly TAccessEvent[]; choice: string }) {
  const zone = useTimeZone();
  const { shown, hidden, more } = useStepwise(events, AUDIT_ROWS_PER_STEP, choice);
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
      <ShowOlder hidden={hidden} step={AUDIT_ROWS_PER_STEP} onClick={more} testId="access-more" />
    </div>
  );
}

'use client';

import type { TSilence } from '@/lib/schemas/alerts';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';

/** The active silences: until when, what they cover, why and who set them. */
export function SilenceTable({ silences, showCluster }: { silences: TSilence[]; showCluster: boolean }) {
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

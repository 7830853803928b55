'use client';

import type { TRecordLossOfGroup } from '@/lib/schemas/record-losses';
import { groupPath } from './api-client';
import { AppLink } from './app-link';
import { AUDIT_ROWS_PER_STEP } from './audit-steps';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { groupDigits } from './retention-text';
import { ShowOlder, useStepwise } from './stepwise-list';

/**
 * Acknowledged record losses (the group page's Records lost card): who acknowledged which records of which
 * partition, when and why, newest first. An episode that grew past its acknowledgement says so. A new `choice`
 * (the Audit page's kind and cluster) draws from the first step again.
 */
export function LossAuditTable({ losses, choice }: { losses: readonly TRecordLossOfGroup[]; choice: string }) {
  const zone = useTimeZone();
  const { shown, hidden, more } = useStepwise(losses, AUDIT_ROWS_PER_STEP, choice);
  return (
    <div className="table-wrap">
      <h2>Record losses acknowledged</h2>
      <table className="grid grid-audit">
        <caption className="visually-hidden">Acknowledged record losses, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Acknowledged</th>
            <th scope="col">Who</th>
            <th scope="col">Group</th>
            <th scope="col">Partition</th>
            <th scope="col">Records lost</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((loss) => (
            <tr key={`${loss.cluster}/${loss.id}`} data-testid="loss-audit-row" data-acknowledged={loss.acknowledged}>
              <td className="nowrap">
                {loss.acknowledgedAt ? (
                  <time dateTime={loss.acknowledgedAt}>{formatDateTime(loss.acknowledgedAt, zone)}</time>
                ) : null}
              </td>
              <td>{loss.acknowledgedBy}</td>
              <td>
                <AppLink href={groupPath(loss.groupId, loss.cluster)}>{loss.groupId}</AppLink>
              </td>
              <td className="mono">
                {loss.topic}-{loss.partition}
              </td>
              <td>
                {loss.summary}
                {loss.acknowledged ? null : (
                  <span className="cell-note">
                    more records lost since
                    {loss.acknowledgedToOffset === null
                      ? ''
                      : `; acknowledged up to offset ${groupDigits(loss.acknowledgedToOffset)}`}
                  </span>
                )}
              </td>
              <td>{loss.acknowledgeReason ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowOlder hidden={hidden} step={AUDIT_ROWS_PER_STEP} onClick={more} testId="loss-audit-more" />
    </div>
  );
}

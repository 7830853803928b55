'use client';

import type { TAlert } from '@/lib/schemas/alerts';
import { AlertNotifications } from './alert-notifications';
import { AlertReasons } from './alert-reasons';
import { AppLink } from './app-link';
import { useTimeZone } from './display-preferences';
import { AlertMarks, SeverityBadge } from './firing-alerts';
import { formatDateTime } from './format';
import { useAcknowledgeAlert } from './hooks/use-alerts';
import type { SilenceTarget } from './silence-form';

/**
 * Alerts, one a row: since when, severity, what and why, their notifications, and (operators, open alerts)
 * Acknowledge and Silence…. `testId` names the rows (open or history).
 */
export function AlertTable({
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
        <AlertNotifications notifications={a.notifications} />
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

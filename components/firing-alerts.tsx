'use client';

import { AppLink } from './app-link';
import { formatDateTime } from './format';
import { useAlerts } from './hooks/use-alerts';
import type { TAlert } from '@/lib/schemas/alerts';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { useTimeZone } from './display-preferences';

/**
 * The firing alerts of one group (or of all groups), as a banner: what, since when, whether someone has it,
 * whether it is silenced; an alert of a cluster other than the default names its cluster. Shown on the
 * overview and the group page; the Alerts page has the rest. `cluster` narrows to one cluster's alerts (a
 * group id names a group in one cluster only).
 */
export function FiringAlerts({
  refreshMs,
  groupId,
  cluster,
}: {
  refreshMs: number;
  groupId?: string;
  cluster?: string;
}) {
  const zone = useTimeZone();
  const { data } = useAlerts(Math.max(refreshMs, 5_000));
  const firing = (data?.open ?? []).filter(
    (a) =>
      a.phase === 'firing' &&
      (groupId === undefined || a.groupId === groupId) &&
      (cluster === undefined || a.cluster === cluster),
  );
  if (firing.length === 0) return null;
  return (
    <div className="banner banner-error" role="status" data-testid="firing-alerts">
      <strong>
        {firing.length} alert{firing.length === 1 ? '' : 's'} firing
      </strong>{' '}
      (<AppLink href="/alerts">Alerts</AppLink>)
      <ul className="plain-list">
        {firing.map((a) => (
          <li key={a.id} data-testid="firing-alert">
            <SeverityBadge severity={a.severity} /> {a.summary}{' '}
            {a.cluster !== DEFAULT_CLUSTER ? <span className="muted">(cluster {a.cluster}) </span> : null}
            <span className="muted">since {formatDateTime(a.firingSince ?? a.activeSince, zone)}</span>
            <AlertMarks alert={a} />
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SeverityBadge({ severity }: { severity: TAlert['severity'] }) {
  return <span className={`badge badge-sev-${severity}`}>{severity}</span>;
}

/** Acknowledged and silenced marks, wherever an alert is shown. */
export function AlertMarks({ alert }: { alert: TAlert }) {
  const zone = useTimeZone();
  return (
    <>
      {alert.acknowledgedBy ? (
        <span className="badge badge-inline" data-testid="alert-acknowledged">
          acknowledged by {alert.acknowledgedBy}
        </span>
      ) : null}
      {alert.silence ? (
        <span
          className="badge badge-inline"
          data-testid="alert-silenced"
          title={`${alert.silence.reason} (by ${alert.silence.createdBy})`}
        >
          silenced until {formatDateTime(alert.silence.endsAt, zone)}
        </span>
      ) : null}
    </>
  );
}

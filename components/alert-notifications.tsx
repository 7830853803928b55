'use client';

import type { TAlert } from '@/lib/schemas/alerts';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';

/** An alert's notifications, the latest in the summary, and every delivery attempt of each behind it. */
export function AlertNotifications({ notifications }: { notifications: TAlert['notifications'] }) {
  const zone = useTimeZone();
  if (notifications.length === 0) return <span className="muted">none yet</span>;
  return (
    <details>
      <summary>
        {notifications.length} notification{notifications.length === 1 ? '' : 's'}; latest: {notifications[0]!.kind} →{' '}
        {notifications[0]!.receiver}, {notifications[0]!.status}
      </summary>
      <ul className="plain-list">
        {notifications.map((n) => (
          <li key={n.id} data-testid="notification">
            <strong>
              {n.kind} → {n.receiver}: {n.status}
            </strong>{' '}
            <span className="muted">{formatDateTime(n.createdAt, zone)}</span>
            {n.lastError ? <span className="cell-note">{n.lastError}</span> : null}
            <ul className="plain-list">
              {n.deliveries.map((d) => (
                <li key={d.attempt}>
                  #{d.attempt} {formatDateTime(d.startedAt, zone)} · {d.statusCode ?? 'no answer'} · {d.durationMs} ms ·{' '}
                  {d.outcome}
                  {d.error ? ` · ${d.error}` : ''}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}

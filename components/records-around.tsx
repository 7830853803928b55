'use client';

import { useState } from 'react';
import type { TPartitionRecord, TQuarantine } from '@/lib/schemas/quarantines';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { useRecordsAround } from './hooks/use-quarantines';
import { ErrorState, LoadingState } from './states';

/**
 * The records just before and after the held one, read from the broker on request, so an operator can tell a
 * lone bad record from the start of a bad batch before choosing skip or seek.
 */
export function RecordsAround({ quarantine: q }: { quarantine: TQuarantine }) {
  const [open, setOpen] = useState(false);
  const around = useRecordsAround(q, open);
  const zone = useTimeZone();
  const row = (r: TPartitionRecord, held: boolean) => (
    <tr key={r.offset} className={held ? 'held-row' : undefined} data-testid="around-record" data-offset={r.offset}>
      <td className="mono">{held ? <strong>{r.offset} (held)</strong> : r.offset}</td>
      <td>{formatDateTime(r.timestamp, zone)}</td>
      <td className="mono">
        {r.key ?? <span className="muted">{around.data?.payloadHidden ? 'hidden' : 'none'}</span>}
      </td>
      <td>
        {/* Text only: React escapes it, and the preview escaped control characters (hex for non-UTF-8). */}
        {r.preview === null ? (
          <span className="muted">{around.data?.payloadHidden ? 'hidden' : 'no value'}</span>
        ) : (
          <code className="payload-inline">{r.preview.slice(0, 200)}</code>
        )}
      </td>
    </tr>
  );
  return (
    <details className="around" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>Records around offset {q.offset}</summary>
      {around.error ? (
        <ErrorState error={around.error} what="records around the held one" hasStaleData={false} />
      ) : null}
      {around.isPending && open ? <LoadingState label="Reading the partition…" /> : null}
      {around.data ? (
        <table className="grid grid-compact">
          <caption className="visually-hidden">Records before and after the held one</caption>
          <thead>
            <tr>
              <th scope="col">Offset</th>
              <th scope="col">Timestamp</th>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {around.data.before.map((r) => row(r, false))}
            {around.data.held ? row(around.data.held, true) : null}
            {around.data.after.map((r) => row(r, false))}
          </tbody>
        </table>
      ) : null}
    </details>
  );
}

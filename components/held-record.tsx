'use client';

import type { TQuarantine } from '@/lib/schemas/quarantines';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';

/** A quarantine card's held record: offset, key, timestamp, the escaped payload preview and the headers. */
export function HeldRecord({ quarantine: q, headingId }: { quarantine: TQuarantine; headingId: string }) {
  const zone = useTimeZone();
  const headers = Object.entries(q.record.headers);
  return (
    <section aria-labelledby={`${headingId}-record`}>
      <h3 className="subhead" id={`${headingId}-record`}>
        Held record
      </h3>
      <dl className="facts facts-tight">
        <div>
          <dt>Offset</dt>
          <dd className="mono">{q.offset}</dd>
        </div>
        <div>
          <dt>Key</dt>
          <dd className="mono">{q.record.key === null ? <span className="muted">none</span> : q.record.key}</dd>
        </div>
        <div>
          <dt>Timestamp</dt>
          <dd>{formatDateTime(q.record.timestamp, zone)}</dd>
        </div>
      </dl>
      <h3 className="subhead">
        Payload preview {q.record.previewTruncated ? <span className="pill pill-warn">truncated</span> : null}
      </h3>
      {q.record.payloadHidden ? (
        <p className="muted" data-testid="payload-hidden">
          Hidden from you (WARDEN_PAYLOAD_ACCESS).
        </p>
      ) : q.record.preview === null ? (
        <p className="muted">No value (a tombstone).</p>
      ) : (
        // Rendered as text only: React escapes it, and the store already escaped control characters.
        <pre className="payload" data-testid="record-preview" tabIndex={0} aria-label="Payload preview">
          {q.record.preview}
        </pre>
      )}
      <h3 className="subhead">Headers</h3>
      {headers.length === 0 ? (
        <p className="muted">none</p>
      ) : (
        <table className="grid grid-compact">
          <caption className="visually-hidden">Record headers</caption>
          <tbody>
            {headers.map(([k, v]) => (
              <tr key={k}>
                <th scope="row" className="mono">
                  {k}
                </th>
                <td className="mono">{v ?? <span className="muted">null</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

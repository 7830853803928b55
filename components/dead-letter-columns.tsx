import type { ReactNode } from 'react';
import type { DisplayZone } from '@/lib/charts/axis';
import type { TDeadLetter } from '@/lib/schemas/dead-letters';
import { formatDateTime } from './format';
import { RecordHeaders } from './record-headers';

/**
 * The dead-letter table's columns after the selection box, in order: each one's heading, which is also its cell's
 * label when a phone stacks a row (`data-label`), and its cell. A new column is one entry here.
 */
export const DEAD_LETTER_COLUMNS: ReadonlyArray<{
  label: string;
  className?: string;
  cell: (r: TDeadLetter, zone: DisplayZone) => ReactNode;
}> = [
  {
    label: 'Dead-lettered',
    cell: (r, zone) => (
      <>
        <time dateTime={r.timestamp}>{formatDateTime(r.timestamp, zone)}</time>
        <div className="muted mono">{`${r.dlq.partition}:${r.dlq.offset}`}</div>
      </>
    ),
  },
  {
    label: 'Source',
    className: 'mono',
    cell: (r) => (
      <>
        {r.source.topic ?? '?'}-{r.source.partition ?? '?'} @ {r.source.offset ?? '?'}
      </>
    ),
  },
  {
    label: 'Error',
    cell: (r) => (
      <>
        <span className="badge badge-quarantined">{r.errorClass ?? 'unknown'}</span>
        {r.attempts !== null ? <span className="muted"> · {r.attempts} attempts</span> : null}
        <div className="error-line">{r.errorMessage}</div>
      </>
    ),
  },
  {
    label: 'Key',
    className: 'mono',
    cell: (r) =>
      r.payloadHidden ? <span className="muted">hidden</span> : (r.key ?? <span className="muted">none</span>),
  },
  {
    label: 'Payload',
    cell: (r) => (
      <>
        {r.payloadHidden ? (
          <span className="muted">hidden</span>
        ) : r.preview === null ? (
          <span className="muted">no value</span>
        ) : (
          // Text only: React escapes it, and the preview already escaped control characters (hex for non-UTF-8).
          <pre className="payload" data-testid="dead-letter-preview">
            {r.preview}
          </pre>
        )}
        {r.payloadHidden ? null : <RecordHeaders headers={r.headers} />}
      </>
    ),
  },
  {
    label: 'Redriven',
    cell: (r, zone) =>
      r.redriven ? `#${r.redriven.jobId} by ${r.redriven.by}, ${formatDateTime(r.redriven.at, zone)}` : '—',
  },
];

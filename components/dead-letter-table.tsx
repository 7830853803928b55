'use client';

import { memo } from 'react';
import type { TDeadLetter, TDeadLettersResponse } from '@/lib/schemas/dead-letters';
import { DEAD_LETTER_COLUMNS } from './dead-letter-columns';
import { useTimeZone } from './display-preferences';
import { recordId } from './use-record-selection';
import './dead-letter-table.css';

/**
 * One page of dead letters, newest first, with (operators) a box to tick each record for a redrive, and the pager.
 * On a phone each row reads top to bottom, its cells labelled, the box beside them.
 */
export function DeadLetterTable({
  page,
  canOperate,
  selected,
  onToggle,
  isNewest,
  onNewer,
  onOlder,
}: {
  page: TDeadLettersResponse;
  canOperate: boolean;
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  /** The newest page is on screen: nothing is newer. */
  isNewest: boolean;
  onNewer: () => void;
  onOlder: (cursor: string) => void;
}) {
  const nextCursor = page.nextCursor;
  return (
    <div className="card">
      {page.payloadAccess !== 'viewer' && page.records[0]?.payloadHidden ? (
        <p className="banner banner-info" data-testid="payloads-hidden">
          Payloads are hidden from you (WARDEN_PAYLOAD_ACCESS={page.payloadAccess}).
        </p>
      ) : null}
      <div className="table-wrap">
        <table className="grid grid-stacked-narrow" data-testid="dead-letter-table">
          <caption className="visually-hidden">Dead letters, newest first</caption>
          <thead>
            <tr>
              {canOperate ? (
                <th scope="col">
                  <span className="visually-hidden">Select</span>
                </th>
              ) : null}
              {DEAD_LETTER_COLUMNS.map((column) => (
                <th key={column.label} scope="col">
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {page.records.map((r) => (
              <DeadLetterRow
                key={recordId(r)}
                record={r}
                selectable={canOperate}
                selected={selected.has(recordId(r))}
                onToggle={onToggle}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <button type="button" disabled={isNewest} onClick={onNewer}>
          Newer
        </button>
        <button type="button" disabled={nextCursor === null} onClick={() => nextCursor && onOlder(nextCursor)}>
          Older
        </button>
        <span className="muted">
          {' '}
          {page.scanned} records read for this page (at most {page.scanLimit})
        </span>
      </div>
    </div>
  );
}

/** One dead letter; memo, so ticking a box or a poll that changed nothing in it renders nothing else. */
const DeadLetterRow = memo(function DeadLetterRow({
  record: r,
  selectable,
  selected,
  onToggle,
}: {
  record: TDeadLetter;
  selectable: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
}) {
  const zone = useTimeZone();
  return (
    <tr data-testid="dead-letter-row" data-dlq-offset={r.dlq.offset} data-dlq-partition={r.dlq.partition}>
      {selectable ? (
        <td className="row-select">
          <input
            type="checkbox"
            aria-label={`Select ${r.dlq.topic}-${r.dlq.partition} @ ${r.dlq.offset}`}
            checked={selected}
            onChange={() => onToggle(recordId(r))}
          />
        </td>
      ) : null}
      {DEAD_LETTER_COLUMNS.map((column) => (
        <td key={column.label} className={column.className} data-label={column.label}>
          {column.cell(r, zone)}
        </td>
      ))}
    </tr>
  );
});

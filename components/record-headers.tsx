'use client';

import { useState } from 'react';

/**
 * A record's headers behind a disclosure, the list rendered only once it is opened: closed, it would still add four
 * or more elements to each of a page's rows (up to 50) that the browser styles and lays out at start.
 */
export function RecordHeaders({ headers }: { headers: Record<string, string> }) {
  const [open, setOpen] = useState(false);
  const entries = Object.entries(headers);
  if (entries.length === 0) return null;
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        {entries.length} header{entries.length === 1 ? '' : 's'}
      </summary>
      {open ? (
        <dl className="facts facts-tight">
          {entries.map(([k, v]) => (
            <div key={k}>
              <dt className="mono">{k}</dt>
              <dd className="mono">{v}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </details>
  );
}

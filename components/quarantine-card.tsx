'use client';

import { memo, useRef, useState } from 'react';
import type { TQuarantine } from '@/lib/schemas/quarantines';
import { ActionDialog, type ActionKind } from './action-dialog';
import { groupPath } from './api-client';
import { AppLink } from './app-link';
import { useTimeZone } from './display-preferences';
import { describeHistoryEntry, formatBlocking, formatClock, formatFailures } from './format';
import { HeldPartition } from './held-partition';
import { HeldRecord } from './held-record';
import { HeldSince } from './held-since';
import { quarantineAnchor } from './quarantine-anchor';
import { RecordsAround } from './records-around';
import './quarantine-card.css';

/**
 * One held partition: what the hold costs, why, the record and the records around it, the partition, the actions
 * taken on the record, and the Resume / Skip / Seek dialog. memo, so a poll that changed nothing in this hold
 * (structurally shared data) renders nothing.
 */
export const QuarantineCard = memo(function QuarantineCard({ quarantine: q }: { quarantine: TQuarantine }) {
  const zone = useTimeZone();
  const [open, setOpen] = useState<ActionKind | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const name = `${q.topic}-${q.partition}`;
  const headingId = `${quarantineAnchor(q.groupId, q.topic, q.partition)}-title`;
  // No second action while one is pending or the resumed record is being retried: the worker would refuse it.
  const locked = q.pendingAction !== null || q.retrying !== null;

  const openDialog = (kind: ActionKind, button: HTMLButtonElement) => {
    opener.current = button;
    setOpen(kind);
  };

  return (
    <article
      className="card quarantine"
      id={quarantineAnchor(q.groupId, q.topic, q.partition)}
      aria-labelledby={headingId}
      data-testid="quarantine-card"
      data-group-id={q.groupId}
      data-partition={q.partition}
    >
      <header className="card-head">
        <h2 id={headingId} className="mono">
          {name} <span className="muted">@ {q.offset}</span>
        </h2>
        <AppLink href={groupPath(q.groupId, q.cluster)} className="group-link">
          {q.groupId}
        </AppLink>
        <span className="badge badge-quarantined">{q.errorClass}</span>
        <span className="muted" data-testid="quarantine-since">
          <HeldSince since={q.since} zone={zone} />
          {' · '}
          <span data-testid="quarantine-failures">{formatFailures(q.failures)}</span>
          {q.attempts > 0
            ? ` · ${q.attempts} handler attempt${q.attempts === 1 ? '' : 's'}`
            : ' · refused before processing (failed admission)'}
        </span>
      </header>

      <p className="blocking" data-testid="quarantine-blocking">
        {formatBlocking({ records: q.blocking.records, timeLag: q.blocking.timeLag })}
      </p>
      {q.retrying ? (
        <p className="banner banner-info" role="status" data-testid="quarantine-retrying">
          Resume #{q.retrying.actionId} applied at {formatClock(q.retrying.since, zone)}: retrying offset {q.offset}.
          The card goes once the commit passes it, or shows the record held again.
        </p>
      ) : null}

      <p className="error-line" data-testid="quarantine-reason">
        <span className="visually-hidden">Error: </span>
        {q.reason}
      </p>

      <RecordsAround quarantine={q} />

      <div className="quarantine-grid">
        <HeldRecord quarantine={q} headingId={headingId} />
        <HeldPartition quarantine={q} headingId={headingId} locked={locked} onAction={openDialog} />
      </div>

      {q.history.length > 0 ? (
        <section aria-labelledby={`${headingId}-history`}>
          <h3 className="subhead" id={`${headingId}-history`}>
            Actions on this record
          </h3>
          <ul className="history" data-testid="quarantine-history">
            {q.history.map((a) => (
              <li key={a.id} data-status={a.status}>
                <span className={`badge badge-status-${a.status}`}>{a.status.replace('_', ' ')}</span>{' '}
                {describeHistoryEntry(a, zone)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {open ? (
        <ActionDialog
          quarantine={q}
          action={open}
          onClose={() => {
            setOpen(null);
            opener.current?.focus();
          }}
        />
      ) : null}
    </article>
  );
});

'use client';

import { AppLink } from '@/components/app-link';
import { useRef, useState } from 'react';
import { ActionDialog, type ActionKind } from '@/components/action-dialog';
import { Age } from '@/components/age';
import { groupPath } from '@/components/api-client';
import {
  describeHistoryEntry,
  formatBlocking,
  formatClock,
  formatDateTime,
  formatFailures,
  formatHeldSince,
} from '@/components/format';
import { useRecentActions } from '@/components/hooks/use-audit';
import { ACTION_FOLLOW_MS, awaitsWorker } from '@/components/hooks/use-operator-action';
import { useQuarantines, useRecordsAround } from '@/components/hooks/use-quarantines';
import { describePendingAction } from '@/components/pending-action-text';
import { quarantineAnchor } from '@/components/quarantine-anchor';
import { useCanOperate } from '@/components/session-context';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { useNow } from '@/components/use-now';
import type { TOperatorAction } from '@/lib/schemas/operator-actions';
import { commandStateOf } from '@/lib/schemas/values';
import type { TPartitionRecord, TQuarantine, TQuarantinesResponse } from '@/lib/schemas/quarantines';
import { formatCount } from '@/lib/format';
import { useTimeZone } from '@/components/display-preferences';
import type { DisplayZone } from '@/lib/charts/axis';

/**
 * Quarantine: every held partition with its record, and Resume / Skip / Seek behind a confirmation. The recent
 * actions come from the API (they survive navigation); while one is pending, or a resumed record is being
 * retried, both lists poll every ACTION_FOLLOW_MS so the worker's outcome shows within a second.
 */
export function QuarantinePageClient({ refreshMs }: { refreshMs: number }) {
  const [followMs, setFollowMs] = useState(refreshMs);
  const query = useQuarantines(followMs);
  const { data, error, isPending } = query;
  const recent = useRecentActions(followMs);
  const busy = awaitsWorker(data, recent.data?.actions);
  const liveOwnerOf = liveOwnerLookup(data);
  const wantedMs = busy ? Math.min(ACTION_FOLLOW_MS, refreshMs) : refreshMs;
  if (wantedMs !== followMs) setFollowMs(wantedMs);

  return (
    <section aria-labelledby="quarantine-heading">
      <div className="page-head">
        <div>
          <h1 id="quarantine-heading">Quarantined partitions</h1>
          <p className="muted subtitle">
            A Warden consumer stopped each of these partitions at a record it could not process. Nothing at or after
            that record is committed until someone decides; every other partition keeps flowing.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>

      {recent.data && recent.data.actions.length > 0 ? (
        <section className="card recent" aria-labelledby="recent-heading">
          <h2 id="recent-heading">Recent actions</h2>
          <ul aria-live="polite">
            {recent.data.actions.map((a) => (
              <ActionProgress key={a.id} action={a} liveOwner={liveOwnerOf(a)} />
            ))}
          </ul>
        </section>
      ) : null}

      {error ? <ErrorState error={error} what="quarantines" hasStaleData={data !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading quarantines…" />
      ) : !data || data.quarantines.length === 0 ? (
        <EmptyState title="No partition is quarantined.">
          Every Warden consumer is processing all of its partitions.
        </EmptyState>
      ) : (
        data.quarantines.map((q) => <QuarantineCard key={`${q.groupId}/${q.topic}/${q.partition}`} quarantine={q} />)
      )}
    </section>
  );
}

/**
 * The live owner of an action's partition as the held partitions' list says it; undefined for a partition the
 * list does not hold (no longer quarantined), whose owner the page does not know.
 */
function liveOwnerLookup(data: TQuarantinesResponse | undefined) {
  const owners = new Map((data?.quarantines ?? []).map((q) => [placeKey(q), q.liveOwner] as const));
  return (a: TOperatorAction): string | null | undefined => owners.get(placeKey(a));
}

function placeKey(p: { cluster: string; groupId: string; topic: string; partition: number }): string {
  return JSON.stringify([p.cluster, p.groupId, p.topic, p.partition]);
}

/** "held since 06:21:01 (4 min 10 s)", its duration kept true by the shared clock. */
function HeldSince({ since, zone }: { since: string; zone: DisplayZone }) {
  const now = useNow();
  return (
    <time dateTime={since} title={formatDateTime(since, zone)}>
      {formatHeldSince(since, now, zone)}
    </time>
  );
}

function QuarantineCard({ quarantine: q }: { quarantine: TQuarantine }) {
  const zone = useTimeZone();
  const [open, setOpen] = useState<ActionKind | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const name = `${q.topic}-${q.partition}`;
  const headingId = `${quarantineAnchor(q.groupId, q.topic, q.partition)}-title`;
  const pending = q.pendingAction;
  // No second action while one is pending or the resumed record is being retried: the worker would refuse it.
  const locked = pending !== null || q.retrying !== null;
  const headers = Object.entries(q.record.headers);
  const canOperate = useCanOperate();

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
        <section aria-labelledby={`${headingId}-partition`}>
          <h3 className="subhead" id={`${headingId}-partition`}>
            Partition
          </h3>
          <dl className="facts facts-tight">
            <div>
              <dt>Log</dt>
              <dd className="mono">{q.logStartOffset === null ? '—' : `${q.logStartOffset} – ${q.logEndOffset}`}</dd>
            </div>
            <div>
              <dt>Committed</dt>
              <dd className="mono">{q.committedOffset ?? '—'}</dd>
            </div>
            <div>
              <dt>Lag</dt>
              <dd>{formatCount(q.lag)}</dd>
            </div>
            <div>
              <dt>Owner</dt>
              <dd>
                {q.owner ? `${q.owner.clientId} ${q.owner.host ?? ''}` : <span className="muted">unassigned</span>}
              </dd>
            </div>
            <div className="facts-wide">
              <dt>Held by</dt>
              <dd className="mono held-by" data-testid="quarantine-held-by">
                {q.heldBy ?? <span className="muted">not reported</span>}
              </dd>
            </div>
          </dl>
          {pending ? (
            <p className="banner banner-info" role="status" data-testid="pending-action">
              {pending.action} #{pending.id} requested by {pending.requestedBy} <Age at={pending.requestedAt} />:{' '}
              {describePendingAction({ ...q, liveOwner: q.liveOwner }, pending, zone)}.
            </p>
          ) : null}
          {canOperate ? (
            <>
              <div className="actions" role="group" aria-label={`Actions on ${name}`}>
                <button
                  type="button"
                  className="button button-primary"
                  disabled={locked}
                  onClick={(e) => openDialog('resume', e.currentTarget)}
                >
                  Resume…
                </button>
                <button
                  type="button"
                  className="button button-danger"
                  disabled={locked}
                  onClick={(e) => openDialog('skip', e.currentTarget)}
                >
                  Skip…
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={locked}
                  onClick={(e) => openDialog('seek', e.currentTarget)}
                >
                  Seek…
                </button>
              </div>
              <p className="muted small">
                Resume retries the record · Skip completes it unprocessed (dead-letter copy first) · Seek continues at
                an offset or time. Each asks for confirmation and a reason; the instance that owns the partition applies
                it.
              </p>
            </>
          ) : (
            <p className="muted small role-note" data-testid="viewer-note">
              You are signed in as a viewer: resuming, skipping and seeking need the operator role.
            </p>
          )}
        </section>
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
}

function ActionProgress({ action: a, liveOwner }: { action: TOperatorAction; liveOwner: string | null | undefined }) {
  const state = commandStateOf(a.status);
  const zone = useTimeZone();
  return (
    <li className={`command command-${state}`} data-testid="command-progress" data-state={state} data-id={a.id}>
      <span className={`badge badge-cmd-${state}`}>{state.replace('_', ' ')}</span>{' '}
      <strong>
        {a.action} {a.topic}-{a.partition}
      </strong>{' '}
      <span className="muted">
        #{a.id} by {a.requestedBy}
      </span>{' '}
      — {a.outcome ?? (a.status === 'pending' ? describePendingAction({ ...a, liveOwner }, a, zone) : a.status)}
    </li>
  );
}

/**
 * The records just before and after the held one, read from the broker on request, so an operator can tell a
 * lone bad record from the start of a bad batch before choosing skip or seek.
 */
function RecordsAround({ quarantine: q }: { quarantine: TQuarantine }) {
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

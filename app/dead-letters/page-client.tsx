'use client';

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiRequestError } from '@/components/api-client';
import { formatDateTime } from '@/components/format';
import { EMPTY_FILTER, type DeadLetterFilterForm } from '@/components/dead-letter-filter';
import {
  filterBody,
  useControlRedrive,
  useDeadLetterCounts,
  useDeadLetters,
  useMatches,
  useRedrives,
  useRequestRedrive,
} from '@/components/hooks/use-dead-letters';
import { useTimeZone } from '@/components/display-preferences';
import { useCanOperate } from '@/components/session-context';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import type { TDeadLetter, TRedriveJob, TRedriveSelection } from '@/lib/schemas/dead-letters';

const FILTER_FIELDS: Array<{ name: keyof DeadLetterFilterForm; label: string; type?: string }> = [
  { name: 'sourceTopic', label: 'Source topic' },
  { name: 'sourcePartition', label: 'Source partition', type: 'number' },
  { name: 'errorClass', label: 'Error class' },
  { name: 'key', label: 'Key' },
  { name: 'from', label: 'From', type: 'datetime-local' },
  { name: 'to', label: 'To', type: 'datetime-local' },
];

/** The record table's columns after the selection box: its headings, and each cell's label when a phone stacks a row. */
const COLUMN = {
  at: 'Dead-lettered',
  source: 'Source',
  error: 'Error',
  key: 'Key',
  payload: 'Payload',
  redriven: 'Redriven',
} as const;

const recordId = (r: TDeadLetter) => `${r.dlq.partition}:${r.dlq.offset}`;

/**
 * Dead letters: the records of the dead-letter topic, newest first, paged from the broker; counts by error
 * class and source; and (operators) redrive of selected records or of everything the filter matches, behind
 * a confirmation naming the count, with each job's progress, pause, resume and cancel.
 */
export function DeadLettersPageClient({ refreshMs }: { refreshMs: number }) {
  const [draft, setDraft] = useState<DeadLetterFilterForm>(EMPTY_FILTER);
  const [filter, setFilter] = useState<DeadLetterFilterForm>(EMPTY_FILTER);
  const [cursors, setCursors] = useState<string[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<TRedriveSelection | null>(null);
  const [filterRefusal, setFilterRefusal] = useState<string | null>(null);
  const canOperate = useCanOperate();
  const zone = useTimeZone();
  const jobsQuery = useRedrives(refreshMs);
  const page = useDeadLetters(filter, cursors[cursors.length - 1], refreshMs);
  const counts = useDeadLetterCounts(refreshMs);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    setCursors([]);
    setSelected(new Set());
  };
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <section aria-labelledby="dead-letters-heading">
      <div className="page-head">
        <div>
          <h1 id="dead-letters-heading">Dead letters</h1>
          <p className="muted subtitle">
            Records a Warden consumer could not process and copied to the dead-letter topic
            {page.data ? <span className="mono"> {page.data.topic}</span> : null}. Once the cause is fixed, an operator
            can send them back to where they came from.
          </p>
        </div>
        <RefreshIndicator query={page} refreshMs={refreshMs} />
      </div>

      {counts.data ? (
        <section className="card" aria-labelledby="dl-counts-heading" data-testid="dead-letter-counts">
          <h2 id="dl-counts-heading">
            By error class and source{' '}
            <span className="muted">
              (
              {counts.data.scanned < counts.data.total
                ? `newest ${counts.data.scanned} of ${counts.data.total} records`
                : `${counts.data.total} records`}
              )
            </span>
          </h2>
          <div className="count-tables">
            <table className="grid grid-compact">
              <caption className="visually-hidden">Dead letters by error class</caption>
              <tbody>
                {counts.data.byErrorClass.map((c) => (
                  <tr key={c.errorClass}>
                    <th scope="row" className="mono">
                      {c.errorClass}
                    </th>
                    <td>{c.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="grid grid-compact">
              <caption className="visually-hidden">Dead letters by source partition</caption>
              <tbody>
                {counts.data.bySource.map((s) => (
                  <tr key={`${s.topic}-${s.partition}`}>
                    <th scope="row" className="mono">{`${s.topic}-${s.partition ?? '?'}`}</th>
                    <td>{s.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      <RedriveJobs query={jobsQuery} canOperate={canOperate} />

      <form className="card filter-form" onSubmit={apply} aria-label="Filter dead letters">
        {FILTER_FIELDS.map((f) => (
          <label key={f.name}>
            {f.label}
            <input
              name={f.name}
              type={f.type ?? 'text'}
              min={f.type === 'number' ? 0 : undefined}
              value={draft[f.name]}
              onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
            />
          </label>
        ))}
        <div className="filter-actions">
          <button type="submit">Apply filter</button>
          {canOperate ? (
            <>
              <button type="button" disabled={selected.size === 0} onClick={() => setConfirm(selectionOf(selected))}>
                Redrive selected ({selected.size})
              </button>
              <button
                type="button"
                onClick={() => {
                  setFilterRefusal(null);
                  filterBody(filter).then(
                    (body) => setConfirm({ kind: 'filter', filter: body }),
                    (error: Error) => setFilterRefusal(`The filter cannot be redriven: ${error.message}`),
                  );
                }}
              >
                Redrive all matching…
              </button>
            </>
          ) : null}
        </div>
      </form>

      {filterRefusal ? (
        <p role="alert" className="banner banner-error" data-testid="redrive-filter-refused">
          {filterRefusal}
        </p>
      ) : null}

      {confirm ? (
        <RedriveDialog
          selection={confirm}
          filter={filter}
          onClose={() => setConfirm(null)}
          // A requested redrive clears the selection, so the same records are not offered again by accident.
          onRequested={() => setSelected(new Set())}
        />
      ) : null}

      {page.error ? <ErrorState error={page.error} what="dead letters" hasStaleData={page.data !== undefined} /> : null}
      {page.isPending ? (
        <LoadingState label="Reading the dead-letter topic…" />
      ) : !page.data || page.data.records.length === 0 ? (
        <EmptyState title="No dead letter matches.">
          {page.data && page.data.nextCursor !== null
            ? `None among the ${page.data.scanned} records read; older pages may hold some.`
            : 'Nothing a consumer could not process is waiting here.'}
        </EmptyState>
      ) : (
        <div className="card">
          {page.data.payloadAccess !== 'viewer' && page.data.records[0]?.payloadHidden ? (
            <p className="banner banner-info" data-testid="payloads-hidden">
              Payloads are hidden from you (WARDEN_PAYLOAD_ACCESS={page.data.payloadAccess}).
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
                  {Object.values(COLUMN).map((label) => (
                    <th key={label} scope="col">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {page.data.records.map((r) => (
                  <tr
                    key={recordId(r)}
                    data-testid="dead-letter-row"
                    data-dlq-offset={r.dlq.offset}
                    data-dlq-partition={r.dlq.partition}
                  >
                    {canOperate ? (
                      <td className="row-select">
                        <input
                          type="checkbox"
                          aria-label={`Select ${r.dlq.topic}-${r.dlq.partition} @ ${r.dlq.offset}`}
                          checked={selected.has(recordId(r))}
                          onChange={() => toggle(recordId(r))}
                        />
                      </td>
                    ) : null}
                    <td data-label={COLUMN.at}>
                      <time dateTime={r.timestamp}>{formatDateTime(r.timestamp, zone)}</time>
                      <div className="muted mono">{`${r.dlq.partition}:${r.dlq.offset}`}</div>
                    </td>
                    <td className="mono" data-label={COLUMN.source}>
                      {r.source.topic ?? '?'}-{r.source.partition ?? '?'} @ {r.source.offset ?? '?'}
                    </td>
                    <td data-label={COLUMN.error}>
                      <span className="badge badge-quarantined">{r.errorClass ?? 'unknown'}</span>
                      {r.attempts !== null ? <span className="muted"> · {r.attempts} attempts</span> : null}
                      <div className="error-line">{r.errorMessage}</div>
                    </td>
                    <td className="mono" data-label={COLUMN.key}>
                      {r.payloadHidden ? (
                        <span className="muted">hidden</span>
                      ) : (
                        (r.key ?? <span className="muted">none</span>)
                      )}
                    </td>
                    <td data-label={COLUMN.payload}>
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
                    </td>
                    <td data-label={COLUMN.redriven}>
                      {r.redriven
                        ? `#${r.redriven.jobId} by ${r.redriven.by}, ${formatDateTime(r.redriven.at, zone)}`
                        : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
            <button
              type="button"
              disabled={page.data.nextCursor === null}
              onClick={() => page.data?.nextCursor && setCursors([...cursors, page.data.nextCursor])}
            >
              Older
            </button>
            <span className="muted">
              {' '}
              {page.data.scanned} records read for this page (at most {page.data.scanLimit})
            </span>
          </div>
        </div>
      )}
    </section>
  );
}

/**
 * A record's headers behind a disclosure, the list rendered only once it is opened: closed, it would still add four
 * or more elements to each of a page's rows (up to 50) that the browser styles and lays out at start.
 */
function RecordHeaders({ headers }: { headers: Record<string, string> }) {
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

function selectionOf(selected: Set<string>): TRedriveSelection {
  return {
    kind: 'records',
    records: [...selected].map((id) => {
      const [partition, offset] = id.split(':');
      return { partition: Number(partition), offset: offset! };
    }),
  };
}

/** The confirmation: counts what the selection holds now, asks for a reason, names the count on the button. */
function RedriveDialog({
  selection,
  filter,
  onClose,
  onRequested,
}: {
  selection: TRedriveSelection;
  filter: DeadLetterFilterForm;
  onClose: () => void;
  /** The job was recorded (called before onClose). */
  onRequested: () => void;
}) {
  const [reason, setReason] = useState('');
  const [force, setForce] = useState(false);
  const [targetTopic, setTargetTopic] = useState('');
  const counted = useMatches(filter, selection.kind === 'filter');
  const matches =
    selection.kind === 'records' ? { count: selection.records.length, alreadyRedriven: 0 } : (counted.data ?? null);
  const countError = counted.error?.message ?? null;
  const request = useRequestRedrive();
  const dialog = useRef<HTMLDialogElement | null>(null);
  // Modal: focus stays inside and Escape cancels (the native dialog does both).
  useEffect(() => {
    if (dialog.current && !dialog.current.open) dialog.current.showModal();
  }, []);
  const count = matches?.count ?? 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(
      {
        selection,
        reason,
        expectedCount: count,
        force,
        ...(targetTopic.trim() ? { targetTopic: targetTopic.trim() } : {}),
      },
      {
        onSuccess: () => {
          onRequested();
          onClose();
        },
      },
    );
  };
  return (
    <dialog ref={dialog} className="dialog" aria-labelledby="redrive-title" onCancel={onClose}>
      <form onSubmit={submit}>
        <h2 id="redrive-title">Redrive dead letters</h2>
        {matches === null ? (
          <p>{countError ? countError : 'Counting the records the filter matches…'}</p>
        ) : (
          <p data-testid="redrive-count">
            {count} record{count === 1 ? '' : 's'} will be produced back to{' '}
            {targetTopic.trim() || 'their source topics'}, with their original key, value and headers.
            {matches.alreadyRedriven > 0 ? ` ${matches.alreadyRedriven} of them were redriven before.` : ''}
          </p>
        )}
        <label>
          Reason (for the audit log)
          <textarea name="reason" required value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
        <label>
          Target topic (optional; default: each record&apos;s source topic)
          <input name="targetTopic" value={targetTopic} onChange={(e) => setTargetTopic(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Send records that were
          redriven before again
        </label>
        {request.error ? (
          <p className="banner banner-error" role="alert">
            {request.error instanceof ApiRequestError ? request.error.message : 'The redrive could not be requested.'}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" disabled={matches === null || count === 0 || reason.trim() === '' || request.isPending}>
            Redrive {count} record{count === 1 ? '' : 's'}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function RedriveJobs({ query, canOperate }: { query: ReturnType<typeof useRedrives>; canOperate: boolean }) {
  const control = useControlRedrive();
  const [reason, setReason] = useState('');
  const jobs = query.data?.jobs ?? [];
  if (jobs.length === 0) return null;
  const act = (job: TRedriveJob, action: 'pause' | 'resume' | 'cancel') =>
    control.mutate({
      id: job.id,
      control: { action, reason: reason.trim() || `${action} from the Dead letters page` },
    });
  return (
    <section className="card" aria-labelledby="redrives-heading">
      <h2 id="redrives-heading">Redrives</h2>
      {canOperate ? (
        <label>
          Reason for pause / resume / cancel
          <input value={reason} onChange={(e) => setReason(e.target.value)} />
        </label>
      ) : null}
      {control.error ? (
        <p className="banner banner-error" role="alert">
          {control.error.message}
        </p>
      ) : null}
      <ul aria-live="polite">
        {jobs.map((job) => {
          const done = job.sent + job.skipped + job.failed;
          return (
            <li key={job.id} data-testid="redrive-job" data-status={job.status}>
              <strong>#{job.id}</strong> {job.status} · {job.requestedBy}: {job.reason}{' '}
              <progress max={Math.max(1, job.total)} value={done} aria-label={`Redrive #${job.id} progress`} />{' '}
              <span data-testid="redrive-progress">
                {job.sent} of {job.total} sent{job.skipped > 0 ? `, ${job.skipped} skipped` : ''}
              </span>{' '}
              <span className="muted">{job.ratePerSec}/s</span>
              {job.outcome ? <div className="muted">{job.outcome}</div> : null}
              {canOperate && (job.status === 'pending' || job.status === 'running') ? (
                <button type="button" onClick={() => act(job, 'pause')}>
                  Pause
                </button>
              ) : null}
              {canOperate && job.status === 'paused' ? (
                <button type="button" onClick={() => act(job, 'resume')}>
                  Resume
                </button>
              ) : null}
              {canOperate && ['pending', 'running', 'paused'].includes(job.status) ? (
                <button type="button" onClick={() => act(job, 'cancel')}>
                  Cancel
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

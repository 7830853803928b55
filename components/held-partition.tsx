'use client';

import type { TQuarantine } from '@/lib/schemas/quarantines';
import { formatCount } from '@/lib/format';
import type { ActionKind } from './action-dialog';
import { Age } from './age';
import { useTimeZone } from './display-preferences';
import { describePendingAction } from './pending-action-text';
import { useCanOperate } from './session-context';

/**
 * A quarantine card's partition: log, commit, lag, owner and the instance holding it, the pending request if
 * any, and (operators) Resume / Skip / Seek, each opening its confirmation; `locked` while a request is pending
 * or the resumed record is being retried, since the worker would refuse a second one.
 */
export function HeldPartition({
  quarantine: q,
  headingId,
  locked,
  onAction,
}: {
  quarantine: TQuarantine;
  headingId: string;
  locked: boolean;
  /** An action's button was pressed: open its dialog, and give the focus back to `button` when it closes. */
  onAction: (kind: ActionKind, button: HTMLButtonElement) => void;
}) {
  const zone = useTimeZone();
  const canOperate = useCanOperate();
  const name = `${q.topic}-${q.partition}`;
  const pending = q.pendingAction;
  return (
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
          <dd>{q.owner ? `${q.owner.clientId} ${q.owner.host ?? ''}` : <span className="muted">unassigned</span>}</dd>
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
              onClick={(e) => onAction('resume', e.currentTarget)}
            >
              Resume…
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={locked}
              onClick={(e) => onAction('skip', e.currentTarget)}
            >
              Skip…
            </button>
            <button
              type="button"
              className="button"
              disabled={locked}
              onClick={(e) => onAction('seek', e.currentTarget)}
            >
              Seek…
            </button>
          </div>
          <p className="muted small">
            Resume retries the record · Skip completes it unprocessed (dead-letter copy first) · Seek continues at an
            offset or time. Each asks for confirmation and a reason; the instance that owns the partition applies it.
          </p>
        </>
      ) : (
        <p className="muted small role-note" data-testid="viewer-note">
          You are signed in as a viewer: resuming, skipping and seeking need the operator role.
        </p>
      )}
    </section>
  );
}

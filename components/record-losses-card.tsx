'use client';

import { memo, useRef, useState } from 'react';
import { formatNumber, plural } from '@/lib/format';
import type { TRecordLoss } from '@/lib/schemas/record-losses';
import { RECORD_LOSS_LISTED_DAYS } from '@/lib/schemas/values';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import { LossAcknowledgeDialog } from './loss-acknowledge-dialog';
import { acknowledgementText, groupDigits, lossStateText } from './retention-text';
import { useCanOperate } from './session-context';
import './record-losses-card.css';

/**
 * The group's record-loss episodes (GET /api/groups/{id} `losses`, newest first): which records of which partition
 * Kafka's retention deleted before the group read them, since when, whether the episode is still open, and who
 * acknowledged it and why. An operator acknowledges an unacknowledged one with a reason; a viewer is told the
 * role it takes. Nothing is drawn for a group without losses.
 */
export const RecordLossesCard = memo(function RecordLossesCard({
  cluster,
  groupId,
  losses,
}: {
  cluster: string;
  groupId: string;
  losses: readonly TRecordLoss[];
}) {
  const canOperate = useCanOperate();
  const [acknowledging, setAcknowledging] = useState<TRecordLoss | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  if (losses.length === 0) return null;
  const unacknowledged = losses.filter((loss) => !loss.acknowledged).length;

  return (
    <section
      className={`card record-losses ${unacknowledged > 0 ? 'record-losses-open' : ''}`}
      aria-labelledby="losses-heading"
      data-testid="record-losses-card"
    >
      <div className="card-head">
        <h2 id="losses-heading">Records lost</h2>
        <span className="muted small" data-testid="record-losses-count">
          {plural(losses.length, 'episode')} ·{' '}
          {unacknowledged === 0 ? 'all acknowledged' : `${formatNumber(unacknowledged)} not acknowledged`}
        </span>
      </div>
      <p className="muted small">
        Kafka&apos;s retention deleted these records before the group read them; its next fetch skipped past them.
        Listed: every episode not acknowledged, and the others of the last {RECORD_LOSS_LISTED_DAYS} days.
      </p>
      <ul className="loss-list">
        {losses.map((loss) => (
          <LossItem
            key={loss.id}
            loss={loss}
            canOperate={canOperate}
            onAcknowledge={(button) => {
              opener.current = button;
              setAcknowledging(loss);
            }}
          />
        ))}
      </ul>
      {!canOperate && unacknowledged > 0 ? (
        <p className="muted small role-note" data-testid="loss-viewer-note">
          You are signed in as a viewer: acknowledging a loss needs the operator role.
        </p>
      ) : null}
      {acknowledging ? (
        <LossAcknowledgeDialog
          cluster={cluster}
          groupId={groupId}
          loss={acknowledging}
          onClose={() => {
            setAcknowledging(null);
            opener.current?.focus();
          }}
        />
      ) : null}
    </section>
  );
});

function LossItem({
  loss,
  canOperate,
  onAcknowledge,
}: {
  loss: TRecordLoss;
  canOperate: boolean;
  onAcknowledge: (button: HTMLButtonElement) => void;
}) {
  const zone = useTimeZone();
  const name = `${loss.topic}-${loss.partition}`;
  const acknowledgement = acknowledgementText(loss, zone);
  return (
    <li
      className={`loss ${loss.acknowledged ? 'loss-acknowledged' : ''}`}
      data-testid="record-loss"
      data-loss-id={loss.id}
      data-acknowledged={loss.acknowledged}
    >
      <div className="loss-head">
        <strong className="mono">{name}</strong>
        <span className={`badge ${loss.open ? 'badge-err' : 'badge-ended'}`} data-testid="loss-state">
          {loss.open ? 'open' : 'ended'}
        </span>
        <span className={`badge ${loss.acknowledged ? 'badge-ok' : 'badge-err'}`} data-testid="loss-acknowledged">
          {loss.acknowledged ? 'acknowledged' : 'not acknowledged'}
        </span>
        {canOperate && !loss.acknowledged ? (
          <button
            type="button"
            className="button button-small"
            aria-label={`Acknowledge the records lost on ${name}`}
            onClick={(e) => onAcknowledge(e.currentTarget)}
          >
            Acknowledge…
          </button>
        ) : null}
      </div>
      <p className="loss-summary" data-testid="loss-summary">
        {loss.summary}
      </p>
      <dl className="facts">
        <div>
          <dt>Records</dt>
          <dd>{groupDigits(loss.count)}</dd>
        </div>
        <div>
          <dt>Offsets</dt>
          <dd className="mono">
            {groupDigits(loss.fromOffset)}–{groupDigits(loss.toOffset)}
          </dd>
        </div>
        <div>
          <dt>First seen</dt>
          <dd>
            <time dateTime={loss.detectedAt}>{formatDateTime(loss.detectedAt, zone)}</time>
          </dd>
        </div>
        <div>
          <dt>Last extended</dt>
          <dd>
            <time dateTime={loss.updatedAt}>{formatDateTime(loss.updatedAt, zone)}</time>
          </dd>
        </div>
      </dl>
      <p className="small" data-testid="loss-open">
        {lossStateText(loss, zone)}
      </p>
      {acknowledgement ? (
        <p className="small" data-testid="loss-acknowledgement">
          {acknowledgement}
        </p>
      ) : null}
    </li>
  );
}

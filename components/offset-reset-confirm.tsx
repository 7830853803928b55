'use client';

import type { Ref } from 'react';
import type { TOffsetResetRequest, TOffsetResetResult } from '@/lib/schemas/offset-reset';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';

/** The offset reset's second step: exactly what will move, and Cancel or Reset offsets (focused when it opens). */
export function OffsetResetConfirm({
  groupId,
  request: r,
  topicPartitions,
  pending,
  confirmRef,
  onCancel,
  onConfirm,
}: {
  groupId: string;
  request: TOffsetResetRequest;
  /** How many partitions the topic has: what "all" means. */
  topicPartitions: number;
  pending: boolean;
  confirmRef: Ref<HTMLButtonElement>;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const zone = useTimeZone();
  const where = `${r.topic} ${r.partition === undefined ? `(all ${topicPartitions} partitions)` : `partition ${r.partition}`}`;
  const target =
    r.to === 'offset'
      ? `offset ${r.offset}`
      : r.to === 'timestamp'
        ? `the first record at or after ${formatDateTime(r.timestamp!, zone)}`
        : `the ${r.to} offset`;
  return (
    <div className="banner banner-warn" role="group" aria-label="Confirm the offset reset" data-testid="reset-confirm">
      <p>
        Reset the committed offsets of <strong className="mono">{groupId}</strong> on{' '}
        <strong className="mono">{where}</strong> to <strong>{target}</strong>? Records before the new position will not
        be read by this group; records after it are read again. The group must still have no members when the broker
        receives it.
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button
          ref={confirmRef}
          type="button"
          className="button button-danger"
          onClick={onConfirm}
          disabled={pending}
          data-testid="reset-confirm-button"
        >
          {pending ? 'Resetting…' : 'Reset offsets'}
        </button>
      </div>
    </div>
  );
}

/** What a reset moved: each partition's offset before and after. */
export function OffsetResetDone({ result: done }: { result: TOffsetResetResult }) {
  return (
    <div role="status" className="reset-result" data-testid="reset-result">
      <p>
        Reset {done.topic} (group was {done.state}):
      </p>
      <ul className="mono small">
        {done.partitions.map((p) => (
          <li key={p.partition}>
            partition {p.partition}: {p.previousOffset ?? 'none'} → {p.offset}
          </li>
        ))}
      </ul>
    </div>
  );
}

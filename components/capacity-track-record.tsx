'use client';

import type { TGroupAdvice } from '@/lib/schemas/advice';
import { formatDurationMs } from '@/lib/format';
import { useTimeZone } from './display-preferences';
import { formatClock } from './format';

function outcomeText(entry: TGroupAdvice['trackRecord'][number]): string {
  if (entry.outcome === 'caught-up') {
    const error = entry.error === null ? '' : ` (${entry.error >= 0 ? '+' : ''}${Math.round(entry.error * 100)}%)`;
    return `caught up in ${formatDurationMs((entry.actualCatchUpSec ?? 0) * 1000)}${error}${entry.planFollowed ? '' : ', plan not followed'}`;
  }
  if (entry.outcome === 'plan-not-followed')
    return `plan not followed; not caught up after ${formatDurationMs(entry.elapsedSec * 1000)}`;
  return `not yet, ${formatDurationMs(entry.elapsedSec * 1000)} on`;
}

/** The advisor's own record for the group: the last plans shown, against what the samples showed after. */
export function CapacityTrackRecord({ entries }: { entries: TGroupAdvice['trackRecord'] }) {
  const zone = useTimeZone();
  return (
    <div className="track-record" data-testid="capacity-track-record">
      <h3 className="small">Track record</h3>
      {entries.length === 0 ? (
        <p className="muted small">No plan shown for this group yet: nothing to check.</p>
      ) : (
        <ul className="small">
          {entries.map((entry) => (
            <li key={entry.predictedAt}>
              <time dateTime={entry.predictedAt}>{formatClock(entry.predictedAt, zone)}</time>: said{' '}
              {entry.predictedConsumers} consumer{entry.predictedConsumers === 1 ? '' : 's'},{' '}
              {entry.predictedCatchUpSec === null
                ? 'never catches up'
                : `catch up in ${formatDurationMs(entry.predictedCatchUpSec * 1000)}`}{' '}
              → {outcomeText(entry)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

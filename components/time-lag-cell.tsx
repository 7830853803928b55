import type { TTimeLag } from '@/lib/schemas/groups';
import { describeTimeLag, formatTimeLag } from './format';
import './time-lag-cell.css';

/** A time lag in human units with how it was obtained underneath, explained in the tooltip. */
export function TimeLagValue({ lag, compact = false }: { lag: TTimeLag | null; compact?: boolean }) {
  if (!lag || lag.ms === null) {
    return (
      <span className="muted" title={lag ? describeTimeLag(lag).explanation : 'No time lag known'}>
        unknown
      </span>
    );
  }
  const { label, explanation } = describeTimeLag(lag);
  return (
    <span className="timelag" title={explanation}>
      <span className="timelag-value" data-testid="time-lag">
        {formatTimeLag(lag)}
      </span>
      {compact ? null : <span className={`timelag-kind kind-${lag.kind}`}>{label}</span>}
    </span>
  );
}

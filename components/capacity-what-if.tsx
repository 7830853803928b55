'use client';

import { useId, useState } from 'react';
import type { TGroupAdvice } from '@/lib/schemas/advice';
import { formatDurationMs } from '@/lib/format';
import './capacity-what-if.css';

function catchUpText(sec: number | null | undefined): string {
  if (sec === undefined) return '—';
  if (sec === null) return 'never catches up';
  return sec === 0 ? 'keeps up (nothing to catch up)' : `catches up in ${formatDurationMs(sec * 1000)}`;
}

/**
 * "What if the group ran N consumers": a slider over the consumer count and the plan's curve of catch-up times
 * (one bar per count, the recommended and the current count marked); a bar click picks its count.
 */
export function CapacityWhatIf({ advice, plan }: { advice: TGroupAdvice; plan: NonNullable<TGroupAdvice['plan']> }) {
  const max = plan.catchUpSecByConsumers.length;
  const [consumers, setConsumers] = useState(() => Math.min(max, Math.max(1, plan.recommendedConsumers)));
  const id = useId();
  const point = plan.catchUpSecByConsumers.find((p) => p.consumers === consumers);
  const known = plan.catchUpSecByConsumers.map((p) => p.catchUpSec).filter((s): s is number => s !== null);
  const worst = Math.max(...known, 1);
  if (max === 0) return null;
  return (
    <div className="whatif">
      <label htmlFor={`${id}-n`} className="whatif-label">
        What if the group ran
      </label>
      <div className="whatif-row">
        <input
          id={`${id}-n`}
          type="range"
          min={1}
          max={max}
          step={1}
          value={consumers}
          onChange={(e) => setConsumers(Number(e.target.value))}
          aria-valuetext={`${consumers} consumers: ${catchUpText(point?.catchUpSec)}`}
          data-testid="whatif-consumers"
        />
        <output htmlFor={`${id}-n`} className="whatif-output" aria-live="polite" data-testid="whatif-result">
          <strong>{consumers}</strong> consumer{consumers === 1 ? '' : 's'}: {catchUpText(point?.catchUpSec)}
        </output>
      </div>
      <svg className="curve" viewBox={`0 0 ${max * 12} 56`} preserveAspectRatio="none" aria-hidden="true">
        {plan.catchUpSecByConsumers.map((p) => {
          // Bar height: catch-up time relative to the slowest that catches up; "never" is a full-height red bar.
          const height = p.catchUpSec === null ? 44 : Math.max(2, (p.catchUpSec / worst) * 38);
          const fill =
            p.catchUpSec === null ? 'bar-never' : p.consumers === plan.recommendedConsumers ? 'bar-recommended' : '';
          return (
            <g key={p.consumers} onClick={() => setConsumers(p.consumers)}>
              <title>{`${p.consumers}: ${catchUpText(p.catchUpSec)}`}</title>
              <rect
                className={`bar ${fill} ${p.consumers === consumers ? 'bar-selected' : ''}`}
                x={(p.consumers - 1) * 12 + 1}
                y={46 - height}
                width={10}
                height={height}
              />
              {p.consumers === advice.consumers ? (
                <rect className="marker-current" x={(p.consumers - 1) * 12 + 1} y={50} width={10} height={4} />
              ) : null}
            </g>
          );
        })}
      </svg>
      <div className="curve-axis muted small" aria-hidden="true" data-testid="whatif-axis">
        <span>1</span>
        {max > 2 ? <span>{Math.ceil(max / 2)}</span> : null}
        {max > 1 ? <span>{max}</span> : null}
      </div>
      <p className="muted small" data-testid="whatif-caption">
        Bars: catch-up time per consumer count (1 to {max}); the tallest that catches up takes{' '}
        {formatDurationMs(worst * 1000)}.
      </p>
      <div className="curve-legend muted small">
        <span>
          <span className="swatch swatch-never" /> never catches up
        </span>
        <span>
          <span className="swatch swatch-recommended" /> recommended
        </span>
        <span>
          <span className="swatch swatch-current" /> current count (underlined)
        </span>
      </div>
    </div>
  );
}

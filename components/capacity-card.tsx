'use client';

import { memo, useId, useState } from 'react';
import type { TGroupAdvice } from '@/lib/schemas/advice';
import { ErrorState, LoadingState } from './states';
import { formatDurationMs, formatRateRounded } from '@/lib/format';
import { useTimeZone } from './display-preferences';
import { formatClock } from './format';

function catchUpText(sec: number | null | undefined): string {
  if (sec === undefined) return '—';
  if (sec === null) return 'never catches up';
  return sec === 0 ? 'keeps up (nothing to catch up)' : `catches up in ${formatDurationMs(sec * 1000)}`;
}

/**
 * "Scale consumers to N to catch up in T", with a what-if control over the consumer count that reads the
 * plan's curve (catch-up time for 1..partitions consumers). Honest about its inputs: a lower-bound rate and
 * every caveat the API returns are shown next to the number.
 */
export const CapacityCard = memo(function CapacityCard({
  advice,
  error,
  isPending,
}: {
  advice: TGroupAdvice | undefined;
  error: Error | null;
  isPending: boolean;
}) {
  return (
    <section className="card capacity" aria-labelledby="capacity-heading" data-testid="capacity-card">
      <h2 id="capacity-heading">Capacity</h2>
      {error ? <ErrorState error={error} what="the capacity plan" hasStaleData={advice !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Computing the capacity plan…" />
      ) : advice ? (
        <CapacityBody advice={advice} />
      ) : null}
    </section>
  );
});

function CapacityBody({ advice }: { advice: TGroupAdvice }) {
  const plan = advice.plan;
  if (!plan) {
    return (
      <div>
        {advice.planState === 'keeping-up' ? (
          <Summary text={advice.planUnavailableReason ?? 'Nothing to plan from yet.'} tone="tone-ok" />
        ) : (
          <>
            <p className="capacity-headline muted" data-testid="capacity-summary">
              No plan yet
            </p>
            <p>{advice.planUnavailableReason}</p>
          </>
        )}
        <dl className="facts">
          <ConsumersNow advice={advice} />
          <PerConsumerRate advice={advice} label="One consumer committed" />
        </dl>
        <Scaling advice={advice} />
        <OffsetReset advice={advice} />
        <Notes notes={advice.notes} />
        <TrackRecord entries={advice.trackRecord} />
      </div>
    );
  }
  return (
    <div>
      <Summary text={plan.summary} tone={plan.limitedByPartitions || plan.catchUpSec === null ? 'tone-bad' : ''} />
      {advice.offsetReset.policy === null && advice.offsetReset.uncommittedPartitions > 0 ? (
        <p>
          <span className="pill pill-warn" data-testid="capacity-not-a-promise">
            not a promise: reset policy unknown
          </span>
        </p>
      ) : null}
      <dl className="facts">
        <ConsumersNow advice={advice} />
        <div>
          <dt>Recommended</dt>
          <dd data-testid="recommended-consumers">{plan.recommendedConsumers}</dd>
        </div>
        {plan.noGainBeyond !== null ? (
          <div>
            {/* Why is in the summary: the partition holding the backlog, or the measured scaling. */}
            <dt>More consumers help up to</dt>
            <dd data-testid="no-gain-beyond">{plan.noGainBeyond}: beyond, under 10% shorter</dd>
          </div>
        ) : null}
        <PerConsumerRate advice={advice} label="One consumer processes" />
        <div>
          <dt>Target</dt>
          <dd>catch up within {formatDurationMs(advice.targetCatchUpSec * 1000)}</dd>
        </div>
      </dl>
      <WhatIf advice={advice} plan={plan} />
      <Scaling advice={advice} />
      <p className="small" data-testid="capacity-rebalance-pause">
        {advice.rebalancePause.statement}
      </p>
      <OffsetReset advice={advice} />
      <p className="muted small">
        Rate: {advice.perConsumerRate.basis}. Rates over the last {formatDurationMs(advice.windowMs)} of samples.
      </p>
      <Notes notes={advice.notes} />
      <TrackRecord entries={advice.trackRecord} />
    </div>
  );
}

/** What the plan assumes about more consumers: measured on this group, or linear. */
function Scaling({ advice }: { advice: TGroupAdvice }) {
  return (
    <p className={`small ${advice.scaling.basis === 'measured' ? '' : 'muted'}`} data-testid="capacity-scaling">
      {advice.scaling.statement}
    </p>
  );
}

/** What the plan counts on partitions the group never committed (the headline's pill warns when unknown). */
function OffsetReset({ advice }: { advice: TGroupAdvice }) {
  const { statement } = advice.offsetReset;
  if (statement === null) return null;
  return (
    <p className="small" data-testid="capacity-offset-reset">
      {statement}
    </p>
  );
}

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
function TrackRecord({ entries }: { entries: TGroupAdvice['trackRecord'] }) {
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

/** The first sentence as the headline, the rest below it. */
function Summary({ text, tone }: { text: string; tone: string }) {
  const [headline, ...rest] = splitFirstSentence(text);
  return (
    <>
      <p className={`capacity-headline ${tone}`} data-testid="capacity-summary">
        {headline}
      </p>
      {rest.length > 0 ? <p className="capacity-rest">{rest.join(' ')}</p> : null}
    </>
  );
}

function ConsumersNow({ advice }: { advice: TGroupAdvice }) {
  return (
    <div>
      <dt>Consumers now</dt>
      <dd>{advice.consumers}</dd>
    </div>
  );
}

function PerConsumerRate({ advice, label }: { advice: TGroupAdvice; label: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd title={advice.perConsumerRate.basis}>
        {formatRateRounded(advice.perConsumerRate.ratePerSec)}{' '}
        {advice.perConsumerRate.isLowerBound ? <span className="pill pill-warn">lower bound</span> : null}
      </dd>
    </div>
  );
}

function WhatIf({ advice, plan }: { advice: TGroupAdvice; plan: NonNullable<TGroupAdvice['plan']> }) {
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

function Notes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="notes">
      {notes.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

function splitFirstSentence(text: string): string[] {
  const match = /^(.+?\.)\s+(.*)$/s.exec(text);
  return match ? [match[1]!, match[2]!] : [text];
}

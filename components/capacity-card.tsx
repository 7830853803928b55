'use client';

import { memo } from 'react';
import type { TGroupAdvice } from '@/lib/schemas/advice';
import { ErrorState, LoadingState } from './states';
import { formatDurationMs, formatRateRounded } from '@/lib/format';
import { CapacityRetention } from './capacity-retention';
import { CapacityTrackRecord } from './capacity-track-record';
import { CapacityWhatIf } from './capacity-what-if';
import './capacity-card.css';

/**
 * "Scale consumers to N to catch up in T", with a what-if control over the consumer count that reads the
 * plan's curve (catch-up time for 1..partitions consumers), and whether that count reads the records retention
 * can delete before it does. Honest about its inputs: a lower-bound rate and every caveat the API returns are
 * shown next to the number.
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
        <CapacityRetention retention={advice.retention} />
        <Scaling advice={advice} />
        <OffsetReset advice={advice} />
        <Notes notes={advice.notes} />
        <CapacityTrackRecord entries={advice.trackRecord} />
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
      <CapacityWhatIf advice={advice} plan={plan} />
      <CapacityRetention retention={advice.retention} />
      <Scaling advice={advice} />
      <p className="small" data-testid="capacity-rebalance-pause">
        {advice.rebalancePause.statement}
      </p>
      <OffsetReset advice={advice} />
      <p className="muted small">
        Rate: {advice.perConsumerRate.basis}. Rates over the last {formatDurationMs(advice.windowMs)} of samples.
      </p>
      <Notes notes={advice.notes} />
      <CapacityTrackRecord entries={advice.trackRecord} />
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

import { memo } from 'react';
import type { TAdvice } from '@/lib/schemas/advice';
import { formatDecimal } from '@/lib/format';
import { ErrorState, LoadingState } from './states';
import './advice-list.css';

const SEVERITY_TEXT: Record<TAdvice['severity'], string> = { critical: 'Critical', warning: 'Warning', info: 'Info' };

/** The advisor's findings, most severe first, each with the numbers that triggered it. */
export const AdviceList = memo(function AdviceList({
  advice,
  error,
  isPending,
}: {
  advice: TAdvice[] | undefined;
  error: Error | null;
  isPending: boolean;
}) {
  return (
    <section className="card" aria-labelledby="advice-heading" data-testid="advice-list">
      <h2 id="advice-heading">Advice</h2>
      {error ? <ErrorState error={error} what="advice" hasStaleData={advice !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading advice…" />
      ) : !advice || advice.length === 0 ? (
        <p className="muted">
          No advice: the recent samples show no stopped consumer, capacity, rebalance or quarantine problem.
        </p>
      ) : (
        <ul className="advice">
          {advice.map((a) => (
            <li key={a.id} className={`advice-item sev-${a.severity}`}>
              <div className="advice-head">
                <span className={`badge badge-sev-${a.severity}`}>{SEVERITY_TEXT[a.severity]}</span>
                <h3>{a.title}</h3>
              </div>
              <p>{a.detail}</p>
              <details>
                <summary>Evidence</summary>
                <dl className="evidence">
                  {Object.entries(a.evidence).map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd>{typeof v === 'number' ? formatDecimal(v, 2) : v}</dd>
                    </div>
                  ))}
                </dl>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});

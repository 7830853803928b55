import { memo } from 'react';
import type { TDeadLetterCounts } from '@/lib/schemas/dead-letters';
import './dead-letter-counts-card.css';

/** The dead letters by error class and by source partition, over the newest records the counts read. */
export const DeadLetterCountsCard = memo(function DeadLetterCountsCard({ counts }: { counts: TDeadLetterCounts }) {
  return (
    <section className="card" aria-labelledby="dl-counts-heading" data-testid="dead-letter-counts">
      <h2 id="dl-counts-heading">
        By error class and source{' '}
        <span className="muted">
          (
          {counts.scanned < counts.total
            ? `newest ${counts.scanned} of ${counts.total} records`
            : `${counts.total} records`}
          )
        </span>
      </h2>
      <div className="count-tables">
        <table className="grid grid-compact">
          <caption className="visually-hidden">Dead letters by error class</caption>
          <tbody>
            {counts.byErrorClass.map((c) => (
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
            {counts.bySource.map((s) => (
              <tr key={`${s.topic}-${s.partition}`}>
                <th scope="row" className="mono">{`${s.topic}-${s.partition ?? '?'}`}</th>
                <td>{s.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});

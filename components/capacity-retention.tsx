'use client';

import type { TRetentionAdvice } from '@/lib/schemas/advice';
import { useTimeZone } from './display-preferences';
import { retentionVerdictText, willBeLostText } from './retention-text';
import './capacity-retention.css';

const TONE: Record<TRetentionAdvice['state'], string> = {
  'in-time': 'badge-ok',
  'finish-first': 'badge-warn',
  'none-can': 'badge-err',
  'not-planned': 'badge-warn',
};

/**
 * The capacity plan's retention verdict (GET /api/groups/{id}/advice `retention`): whether the recommended
 * consumers read every at-risk partition before retention can delete its unread records, how many it takes, or
 * that none can and which records will go. Nothing when no partition is at risk.
 */
export function CapacityRetention({ retention }: { retention: TRetentionAdvice | null }) {
  const zone = useTimeZone();
  if (retention === null) return null;
  // Held partitions (quarantined) lose records whatever the count: never green while some will go.
  const tone = retention.willBeLost.length > 0 && retention.state !== 'none-can' ? 'badge-warn' : TONE[retention.state];
  return (
    <section
      className="capacity-retention"
      aria-labelledby="capacity-retention-heading"
      data-testid="capacity-retention"
      data-state={retention.state}
    >
      <h3 id="capacity-retention-heading" className="small">
        Retention{' '}
        <span className={`badge ${tone}`} data-testid="capacity-retention-verdict">
          {retentionVerdictText(retention)}
        </span>
      </h3>
      <p className="small" data-testid="capacity-retention-statement">
        {retention.statement}
      </p>
      {retention.willBeLost.length > 0 ? (
        <>
          <p className="small will-be-lost-head">Records that will be deleted unread:</p>
          <ul className="small will-be-lost" data-testid="capacity-will-be-lost">
            {retention.willBeLost.map((p) => (
              <li key={`${p.topic}-${p.partition}`}>{willBeLostText(p, zone)}</li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

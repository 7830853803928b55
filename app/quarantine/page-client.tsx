'use client';

import { useState } from 'react';
import { useRecentActions } from '@/components/hooks/use-audit';
import { ACTION_FOLLOW_MS, awaitsWorker } from '@/components/hooks/use-operator-action';
import { useQuarantines } from '@/components/hooks/use-quarantines';
import { QuarantineCard } from '@/components/quarantine-card';
import { RecentActionsCard } from '@/components/recent-actions-card';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';

/**
 * Quarantine: every held partition with its record, and Resume / Skip / Seek behind a confirmation. The recent
 * actions come from the API (they survive navigation); while one is pending, or a resumed record is being
 * retried, both lists poll every ACTION_FOLLOW_MS so the worker's outcome shows within a second.
 */
export function QuarantinePageClient({ refreshMs }: { refreshMs: number }) {
  const [followMs, setFollowMs] = useState(refreshMs);
  const query = useQuarantines(followMs);
  const { data, error, isPending } = query;
  const recent = useRecentActions(followMs);
  const busy = awaitsWorker(data, recent.data?.actions);
  const wantedMs = busy ? Math.min(ACTION_FOLLOW_MS, refreshMs) : refreshMs;
  if (wantedMs !== followMs) setFollowMs(wantedMs);

  return (
    <section aria-labelledby="quarantine-heading">
      <div className="page-head">
        <div>
          <h1 id="quarantine-heading">Quarantined partitions</h1>
          <p className="muted subtitle">
            A Warden consumer stopped each of these partitions at a record it could not process. Nothing at or after
            that record is committed until someone decides; every other partition keeps flowing.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>

      {recent.data ? <RecentActionsCard actions={recent.data.actions} quarantines={data} /> : null}

      {error ? <ErrorState error={error} what="quarantines" hasStaleData={data !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading quarantines…" />
      ) : !data || data.quarantines.length === 0 ? (
        <EmptyState title="No partition is quarantined.">
          Every Warden consumer is processing all of its partitions.
        </EmptyState>
      ) : (
        data.quarantines.map((q) => <QuarantineCard key={`${q.groupId}/${q.topic}/${q.partition}`} quarantine={q} />)
      )}
    </section>
  );
}

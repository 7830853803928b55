'use client';

import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { ClusterSelect } from '@/components/cluster-select';
import { useRebalances } from '@/components/hooks/use-rebalances';
import { RebalanceTimeline } from '@/components/rebalance-list';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { ShowOlder, useStepwise } from '@/components/stepwise-list';
import { anyText, useUrlParam } from '@/components/use-url-param';

/** Rebalances drawn at first, and added by each "Show older": every one drawn is a dozen elements or more. */
const REBALANCES_PER_STEP = 50;

/**
 * One cluster's rebalances across groups, newest first, filterable by group (`?group=`); with several clusters
 * configured, a choice of cluster (`?cluster=`, a new page load: the server checks the name).
 */
export function RebalancesPageClient({
  refreshMs,
  cluster,
  clusters,
}: {
  refreshMs: number;
  cluster: string;
  clusters: string[];
}) {
  const router = useRouter();
  const query = useRebalances(refreshMs, cluster);
  const { data, error, isPending } = query;
  const [group, setGroup] = useUrlParam('group', 'all', anyText);
  const groups = useMemo(() => [...new Set((data?.rebalances ?? []).map((r) => r.groupId))].sort(), [data]);
  const matching = (data?.rebalances ?? []).filter((r) => group === 'all' || r.groupId === group);
  const { shown, hidden, more } = useStepwise(matching, REBALANCES_PER_STEP, group);

  return (
    <section aria-labelledby="rebalances-heading">
      <div className="page-head">
        <div>
          <h1 id="rebalances-heading">Rebalances</h1>
          {clusters.length > 1 ? (
            <ClusterSelect
              value={cluster}
              clusters={clusters}
              onChange={(choice) => router.push(`/rebalances?cluster=${encodeURIComponent(choice)}`)}
              testId="rebalances-cluster"
            />
          ) : null}
          <p className="muted subtitle">
            One entry per rebalance: the stop each Warden member measured, merged with what the sampler inferred between
            two samples (the trigger and the whole group before and after). Where no Warden member measured it, the
            samples only bound its duration, shown as ≤.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      {error ? <ErrorState error={error} what="rebalances" hasStaleData={data !== undefined} /> : null}
      {isPending ? (
        <LoadingState label="Loading rebalances…" />
      ) : !data || data.rebalances.length === 0 ? (
        <EmptyState title="No rebalance recorded yet.">Rebalances appear here as the worker observes them.</EmptyState>
      ) : (
        <>
          <div className="toolbar">
            <label className="field-inline">
              <span>Group</span>
              <select value={group} onChange={(e) => setGroup(e.target.value)}>
                <option value="all">All groups ({groups.length})</option>
                {groups.map((g) => (
                  <option key={g} value={g}>
                    {g}
                  </option>
                ))}
              </select>
            </label>
            <span className="muted" aria-live="polite" data-testid="rebalances-shown">
              {hidden > 0 ? `newest ${shown.length} of ` : ''}
              {matching.length} rebalance{matching.length === 1 ? '' : 's'}
            </span>
          </div>
          <div className="card">
            <RebalanceTimeline rebalances={shown} cluster={cluster} showGroup />
            <ShowOlder hidden={hidden} step={REBALANCES_PER_STEP} onClick={more} testId="rebalances-more" />
          </div>
        </>
      )}
    </section>
  );
}

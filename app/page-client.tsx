'use client';

import { useMemo, useRef } from 'react';
import { FiringAlerts } from '@/components/firing-alerts';
import { GroupStatusChips } from '@/components/group-status-chips';
import { useGroups } from '@/components/hooks/use-groups';
import { lastPage, OverviewPager } from '@/components/overview-pager';
import { OverviewTable } from '@/components/overview-table';
import { OverviewToolbar } from '@/components/overview-toolbar';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { useOverviewView } from '@/components/use-overview-view';
import { formatCount } from '@/lib/format';
import type { TGroupSort } from '@/lib/schemas/groups';

/**
 * Overview: the sampled groups, worst first; sortable by any column, filterable by cluster, name and status,
 * a page of OVERVIEW_PAGE_SIZE at a time. The server sorts, filters and pages (GET /api/groups); the page
 * shows what it answers.
 */
export function OverviewPageClient({
  refreshMs,
  sampleIntervalMs,
  idleStoreMs,
  clusters,
}: {
  refreshMs: number;
  sampleIntervalMs: number;
  /** SAMPLE_IDLE_STORE_MS: an unchanged group's sample may be this much older without being stale. */
  idleStoreMs: number;
  /** The configured clusters: the cluster filter's choices. */
  clusters: string[];
}) {
  // The view is in the URL (?q=&status=&cluster=&sort=&order=&page=): a link shares it, coming back restores it.
  const [view, changeView] = useOverviewView(clusters);
  const query = useGroups(view, refreshMs);
  const { data, error, isPending, isPlaceholderData } = query;
  const sort = useMemo(() => ({ key: view.sort, reversed: view.order === 'reversed' }), [view.sort, view.order]);
  const tableTop = useRef<HTMLDivElement>(null);

  const onSort = (key: TGroupSort) =>
    changeView({ sort: key, order: sort.key === key && !sort.reversed ? 'reversed' : 'natural' });
  const toPage = (page: number) => {
    changeView({ page });
    tableTop.current?.scrollIntoView({ block: 'nearest' });
  };

  // `clusters` of the answer ignores the name and status filters: none listed is none sampled in the scope.
  // (A placeholder, the last view's answer, says nothing of this view's scope.)
  const nothingSampled =
    data !== undefined && !isPlaceholderData && view.cluster === 'all' && data.clusters.length === 0;

  return (
    <section aria-labelledby="groups-heading">
      <div className="page-head">
        <div>
          <h1 id="groups-heading">Consumer groups</h1>
          <p className="muted subtitle">
            Worst first: lost records, errors, quarantines and warnings before healthy groups, then the oldest waiting
            record.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      <FiringAlerts refreshMs={refreshMs} />

      {data && !nothingSampled ? (
        <GroupStatusChips counts={data.counts} status={view.status} onStatus={(status) => changeView({ status })} />
      ) : null}

      {error ? <ErrorState error={error} what="consumer groups" hasStaleData={data !== undefined} /> : null}

      {isPending ? (
        <LoadingState label="Loading consumer groups…" />
      ) : !data || nothingSampled ? (
        <EmptyState title="No consumer group has been sampled in the last 10 minutes.">
          Start the worker (<code>npm run worker</code>): its sampler records every group&apos;s lag every few seconds.
        </EmptyState>
      ) : (
        <>
          <OverviewToolbar
            ref={tableTop}
            view={view}
            clusters={clusters}
            onChange={changeView}
            total={data.total}
            counts={data.counts}
          />
          {data.total === 0 ? (
            <EmptyState title="No group matches the filter." />
          ) : data.groups.length === 0 ? (
            <EmptyState title={`Page ${formatCount(view.page)} is past the last group.`}>
              <button type="button" onClick={() => toPage(lastPage(data.total))}>
                Go to the last page
              </button>
            </EmptyState>
          ) : (
            <>
              <OverviewTable
                groups={data.groups}
                sort={sort}
                onSort={onSort}
                busy={isPlaceholderData}
                sampleIntervalMs={sampleIntervalMs}
                idleStoreMs={idleStoreMs}
              />
              {/* One page needs no pager: the count beside the filters says how many there are. */}
              <OverviewPager page={view.page} total={data.total} onPage={toPage} />
            </>
          )}
        </>
      )}
    </section>
  );
}

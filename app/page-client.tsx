'use client';

import { AppLink } from '@/components/app-link';
import { ClusterSelect } from '@/components/cluster-select';
import { FiringAlerts } from '@/components/firing-alerts';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { groupPath } from '@/components/api-client';
import { useGroups } from '@/components/hooks/use-groups';
import { groupsShownText, MAX_FILTER_LENGTH, OVERVIEW_PAGE_SIZE, type OverviewView } from '@/components/overview-view';
import { Sparkline } from '@/components/sparkline';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { GroupStatusBadge, StatePill } from '@/components/status-badge';
import { TimeLagValue } from '@/components/time-lag-cell';
import { useNow } from '@/components/use-now';
import { useOverviewView } from '@/components/use-overview-view';
import { Age } from '@/components/age';
import type { TGroupSort, TGroupSummary } from '@/lib/schemas/groups';
import { GROUP_STATUSES } from '@/lib/schemas/values';
import { formatAge, formatCount, formatDurationMs } from '@/lib/format';
import { isStale } from '@/components/format';

/** A group is its cluster and its id: the same id on two clusters is two groups. */
const keyOf = (g: TGroupSummary) => `${g.cluster}\u0000${g.groupId}`;

const COLUMNS: Array<{ key: TGroupSort; label: string; numeric?: boolean }> = [
  { key: 'worst', label: 'Status' },
  { key: 'cluster', label: 'Cluster' },
  { key: 'group', label: 'Group' },
  { key: 'totalLag', label: 'Total lag', numeric: true },
  { key: 'timeLag', label: 'Worst time lag', numeric: true },
  { key: 'quarantined', label: 'Quarantined', numeric: true },
  { key: 'rebalance', label: 'Last rebalance' },
];

/** How long the name filter waits after the last keystroke before it asks the server. */
const FILTER_DEBOUNCE_MS = 250;

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
  const firstShown = (view.page - 1) * OVERVIEW_PAGE_SIZE + 1;
  const lastShown = Math.min(view.page * OVERVIEW_PAGE_SIZE, data?.total ?? 0);

  return (
    <section aria-labelledby="groups-heading">
      <div className="page-head">
        <div>
          <h1 id="groups-heading">Consumer groups</h1>
          <p className="muted subtitle">
            Worst first: errors, quarantines and warnings before healthy groups, then the oldest waiting record.
          </p>
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
      <FiringAlerts refreshMs={refreshMs} />

      {data && !nothingSampled ? (
        <div className="summary-strip" aria-label="Groups by status">
          {GROUP_STATUSES.map((s) => (
            <button
              key={s}
              type="button"
              className={`summary-chip chip-${s.toLowerCase()} ${view.status === s ? 'selected' : ''}`}
              aria-pressed={view.status === s}
              onClick={() => changeView({ status: view.status === s ? 'all' : s })}
            >
              <strong>{formatCount(data.counts[s])}</strong> {s === 'QUARANTINED' ? 'quarantined' : s.toLowerCase()}
            </button>
          ))}
        </div>
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
          <div className="toolbar" ref={tableTop}>
            <ClusterSelect
              value={view.cluster}
              clusters={clusters}
              onChange={(cluster) => changeView({ cluster })}
              all={{ value: 'all', label: 'all clusters' }}
              ariaLabel="Filter groups by cluster"
            />
            <NameFilter value={view.q} onChange={(q) => changeView({ q })} />
            <label className="field-inline">
              <span>Status</span>
              <select
                value={view.status}
                onChange={(e) => changeView({ status: e.target.value as OverviewView['status'] })}
                aria-label="Filter groups by status"
              >
                <option value="all">All</option>
                <option value="ERR">Error</option>
                <option value="QUARANTINED">Quarantined</option>
                <option value="WARN">Warning</option>
                <option value="OK">OK</option>
              </select>
            </label>
            <span className="muted" aria-live="polite" data-testid="groups-shown">
              {groupsShownText(view, data.total, data.counts)}
            </span>
          </div>
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
              <div className="table-wrap" aria-busy={isPlaceholderData}>
                <table className="grid grid-overview">
                  <caption className="visually-hidden">Consumer groups; column headers sort the table</caption>
                  <thead>
                    <tr>
                      {COLUMNS.slice(0, 3).map((c) => (
                        <SortHeader key={c.key} column={c} sort={sort} onSort={onSort} />
                      ))}
                      <th scope="col">State</th>
                      {COLUMNS.slice(3, 5).map((c) => (
                        <SortHeader key={c.key} column={c} sort={sort} onSort={onSort} />
                      ))}
                      <th scope="col">Lag trend (10 min)</th>
                      <SortHeader column={COLUMNS[5]!} sort={sort} onSort={onSort} />
                      <th scope="col" className="num">
                        Members
                      </th>
                      <SortHeader column={COLUMNS[6]!} sort={sort} onSort={onSort} />
                      <th scope="col">Sampled</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.groups.map((g) => (
                      <GroupRow
                        key={keyOf(g)}
                        group={g}
                        sampleIntervalMs={sampleIntervalMs}
                        idleStoreMs={idleStoreMs}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              {/* One page needs no pager: the count beside the filters says how many there are. */}
              {data.total > OVERVIEW_PAGE_SIZE || view.page > 1 ? (
                <nav className="pager" aria-label="Pages of consumer groups">
                  <button type="button" disabled={view.page <= 1} onClick={() => toPage(view.page - 1)}>
                    Previous
                  </button>
                  <button
                    type="button"
                    disabled={view.page >= lastPage(data.total)}
                    onClick={() => toPage(view.page + 1)}
                  >
                    Next
                  </button>
                  <span className="muted" aria-live="polite" data-testid="groups-page-range">
                    {`${formatCount(firstShown)}–${formatCount(lastShown)} of ${formatCount(data.total)}`}
                  </span>
                </nav>
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The last page with a group on it (1 when there is none). */
const lastPage = (total: number) => Math.max(1, Math.ceil(total / OVERVIEW_PAGE_SIZE));

/**
 * The name filter. What is typed shows at once; the view (the URL and the server's answer) follows once typing
 * pauses for FILTER_DEBOUNCE_MS, so a request per keystroke never replaces the text being typed.
 */
function NameFilter({ value, onChange }: { value: string; onChange: (q: string) => void }) {
  // What is typed but not yet in the view; null when the view holds it.
  const [typed, setTyped] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <label className="field-inline">
      <span>Filter</span>
      <input
        type="search"
        value={typed ?? value}
        maxLength={MAX_FILTER_LENGTH}
        onChange={(e) => {
          const text = e.target.value;
          setTyped(text);
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            onChange(text);
            setTyped(null);
          }, FILTER_DEBOUNCE_MS);
        }}
        placeholder="group name"
        aria-label="Filter groups by name"
      />
    </label>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: { key: TGroupSort; reversed: boolean };
  onSort: (key: TGroupSort) => void;
}) {
  const active = sort.key === column.key;
  // Every column's natural order is "worst / largest first"; aria-sort describes what a reader sees.
  const ariaSort = active ? (sort.reversed === (column.key === 'group') ? 'descending' : 'ascending') : 'none';
  return (
    <th scope="col" className={column.numeric ? 'num' : undefined} aria-sort={ariaSort}>
      <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
        {column.label}
        <span aria-hidden="true" className="sort-arrow">
          {active ? (sort.reversed ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** One group; memo, so a poll that changed nothing in it (structurally shared data) renders nothing. */
const GroupRow = memo(function GroupRow({
  group,
  sampleIntervalMs,
  idleStoreMs,
}: {
  group: TGroupSummary;
  sampleIntervalMs: number;
  idleStoreMs: number;
}) {
  return (
    <tr
      data-testid="group-row"
      data-group-id={group.groupId}
      data-cluster={group.cluster}
      className={`row-${group.status.toLowerCase()}`}
    >
      <td>
        <GroupStatusBadge status={group.status} reasons={group.statusReasons} reasonCount={group.statusReasonCount} />
      </td>
      <td data-testid="group-cluster">{group.cluster}</td>
      <th scope="row" className="group-name">
        <AppLink href={groupPath(group.groupId, group.cluster)}>{group.groupId}</AppLink>
        {group.partitionsWithoutCommit > 0 ? (
          <span className="pill pill-warn" title="These partitions have no committed offset, so their lag is unknown">
            {group.partitionsWithoutCommit} never committed
          </span>
        ) : null}
      </th>
      <td>
        <StatePill state={group.state} />
      </td>
      <td className="num" data-testid="total-lag">
        {formatCount(group.totalLag)}
      </td>
      <td className="num">
        <TimeLagValue lag={group.worstTimeLag} compact />
        {group.worstTimeLag ? (
          <div className="cell-note">{`${group.worstTimeLag.topic}-${group.worstTimeLag.partition}`}</div>
        ) : null}
      </td>
      <td>
        <Sparkline
          values={group.trend.map((t) => t.totalLag)}
          label={`Total lag of ${group.groupId} over 10 minutes`}
        />
      </td>
      <td className="num">
        {group.quarantinedPartitions > 0 ? (
          <AppLink href="/quarantine" className="badge badge-quarantined">
            {group.quarantinedPartitions}
          </AppLink>
        ) : (
          <span className="muted">0</span>
        )}
      </td>
      <td className="num">{group.members}</td>
      <td>
        {group.lastRebalance ? (
          <span
            title={`took ${group.lastRebalance.durationIsBound ? 'at most ' : ''}${formatDurationMs(group.lastRebalance.durationMs)}`}
          >
            <Age at={group.lastRebalance.startedAt} />
          </span>
        ) : (
          <span className="muted">none recorded</span>
        )}
      </td>
      <SampledCell sampledAt={group.sampledAt} sampleIntervalMs={sampleIntervalMs} idleStoreMs={idleStoreMs} />
    </tr>
  );
});

/** The row's sample age and stale mark, the only part of a row that changes with the clock. */
function SampledCell({
  sampledAt,
  sampleIntervalMs,
  idleStoreMs,
}: {
  sampledAt: string;
  sampleIntervalMs: number;
  idleStoreMs: number;
}) {
  const now = useNow();
  const stale = now !== null && isStale(sampledAt, now, sampleIntervalMs, idleStoreMs);
  return (
    <td className={stale ? undefined : 'muted'}>
      {now === null ? null : formatAge(sampledAt, now)}
      {stale ? (
        <span className="pill pill-warn" title="No newer sample: the sampler is down or no longer sees this group">
          stale
        </span>
      ) : null}
    </td>
  );
}

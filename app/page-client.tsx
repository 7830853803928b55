'use client';

import Link from 'next/link';
import { FiringAlerts } from '@/components/firing-alerts';
import { useSearchParams } from 'next/navigation';
import { memo, useMemo, useState } from 'react';
import { groupPath } from '@/components/api-client';
import { useGroups } from '@/components/hooks/use-groups';
import { Sparkline } from '@/components/sparkline';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { GroupStatusBadge, StatePill } from '@/components/status-badge';
import { TimeLagValue } from '@/components/time-lag-cell';
import { useNow } from '@/components/use-now';
import { Age } from '@/components/age';
import { overviewQueryFromSearch, overviewSearch, withOverviewChange } from '@/components/overview-query';
import {
  GROUP_FILTER_MAX_CHARS,
  GROUPS_PAGE_SIZE_DEFAULT,
  type TGroupSortKey,
  type TGroupsQueryInput,
  type TGroupStatus,
  type TGroupSummary,
} from '@/lib/schemas/groups';
import { formatAge, formatCount, formatDurationMs } from '@/lib/format';
import { isStale } from '@/components/format';

/** A group is its cluster and its id: the same id on two clusters is two groups. */
const keyOf = (g: TGroupSummary) => `${g.cluster}\u0000${g.groupId}`;

const COLUMNS: Array<{ key: TGroupSortKey; label: string; numeric?: boolean }> = [
  { key: 'worst', label: 'Status' },
  { key: 'cluster', label: 'Cluster' },
  { key: 'group', label: 'Group' },
  { key: 'totalLag', label: 'Total lag', numeric: true },
  { key: 'timeLag', label: 'Worst time lag', numeric: true },
  { key: 'quarantined', label: 'Quarantined', numeric: true },
  { key: 'rebalance', label: 'Last rebalance' },
];

type Sort = { key: TGroupSortKey; reversed: boolean };

/**
 * Overview: the sampled groups, worst first; sorted by any column, filtered by cluster, name and status, and
 * paged, all on the server (GET /api/groups), with the choices kept in the page's URL.
 */
export function OverviewPageClient({
  refreshMs,
  sampleIntervalMs,
  idleStoreMs,
}: {
  refreshMs: number;
  sampleIntervalMs: number;
  /** SAMPLE_IDLE_STORE_MS: an unchanged group's sample may be this much older without being stale. */
  idleStoreMs: number;
}) {
  const searchParams = useSearchParams();
  const overview = useMemo(() => overviewQueryFromSearch(searchParams), [searchParams]);
  const query = useGroups(overview, refreshMs);
  const { data, error, isPending } = query;
  const [text, setText] = useState(overview.q ?? '');
  // Back and Forward change the URL's text under the input: the input follows it.
  const [textOfUrl, setTextOfUrl] = useState(overview.q);
  if (textOfUrl !== overview.q) {
    setTextOfUrl(overview.q);
    setText(overview.q ?? '');
  }
  const status = overview.status ?? 'all';
  const cluster = overview.cluster ?? 'all';
  const sort: Sort = { key: overview.sort ?? 'worst', reversed: overview.order === 'reversed' };

  // A choice is a history entry (Back undoes it); typing replaces the current one, not one entry per key.
  const change = (patch: Partial<TGroupsQueryInput>, mode: 'push' | 'replace' = 'push') => {
    const search = overviewSearch(withOverviewChange(overview, patch));
    const url = search ? `?${search}` : window.location.pathname;
    if (mode === 'push') window.history.pushState(null, '', url);
    else window.history.replaceState(null, '', url);
  };
  const onSort = (key: TGroupSortKey) =>
    change({ sort: key, order: sort.key === key && !sort.reversed ? 'reversed' : 'natural' });
  const pageNumber = data?.page.number ?? 1;
  const pageSize = data?.page.size ?? GROUPS_PAGE_SIZE_DEFAULT;
  const pages = Math.max(1, Math.ceil((data?.page.total ?? 0) / pageSize));
  const firstRow = (pageNumber - 1) * pageSize + 1;

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

      {data && data.groupCount > 0 ? (
        <div className="summary-strip" aria-label="Groups by status">
          {(Object.keys(data.statusCounts) as TGroupStatus[]).map((s) => (
            <button
              key={s}
              type="button"
              className={`summary-chip chip-${s.toLowerCase()} ${status === s ? 'selected' : ''}`}
              aria-pressed={status === s}
              onClick={() => change({ status: status === s ? undefined : s })}
            >
              <strong>{data.statusCounts[s]}</strong> {s === 'QUARANTINED' ? 'quarantined' : s.toLowerCase()}
            </button>
          ))}
        </div>
      ) : null}

      {error ? <ErrorState error={error} what="consumer groups" hasStaleData={data !== undefined} /> : null}

      {isPending ? (
        <LoadingState label="Loading consumer groups…" />
      ) : !data || data.groupCount === 0 ? (
        <EmptyState title="No consumer group has been sampled in the last 10 minutes.">
          Start the worker (<code>npm run worker</code>): its sampler records every group&apos;s lag every few seconds.
        </EmptyState>
      ) : (
        <>
          <div className="toolbar">
            <label className="field-inline">
              <span>Cluster</span>
              <select
                value={cluster}
                onChange={(e) => change({ cluster: e.target.value === 'all' ? undefined : e.target.value })}
                aria-label="Filter groups by cluster"
              >
                <option value="all">all clusters</option>
                {[...new Set([...data.clusters, ...(cluster === 'all' ? [] : [cluster])])].sort().map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <label className="field-inline">
              <span>Filter</span>
              <input
                type="search"
                value={text}
                onChange={(e) => {
                  setText(e.target.value);
                  change({ q: e.target.value.trim() === '' ? undefined : e.target.value }, 'replace');
                }}
                placeholder="group name"
                aria-label="Filter groups by name"
                maxLength={GROUP_FILTER_MAX_CHARS}
              />
            </label>
            <label className="field-inline">
              <span>Status</span>
              <select
                value={status}
                onChange={(e) =>
                  change({ status: e.target.value === 'all' ? undefined : (e.target.value as TGroupStatus) })
                }
                aria-label="Filter groups by status"
              >
                <option value="all">All</option>
                <option value="ERR">Error</option>
                <option value="QUARANTINED">Quarantined</option>
                <option value="WARN">Warning</option>
                <option value="OK">OK</option>
              </select>
            </label>
            <span className="muted" aria-live="polite" data-testid="groups-count">
              {formatCount(data.page.total)} of {formatCount(data.groupCount)} groups
            </span>
          </div>
          {data.page.total === 0 ? (
            <EmptyState title="No group matches the filter." />
          ) : (
            <>
              <div className="table-wrap">
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
              {pages > 1 || pageNumber > 1 ? (
                <div className="pager" data-testid="groups-pager">
                  <button
                    type="button"
                    className="button button-small"
                    disabled={pageNumber <= 1}
                    onClick={() => change({ page: String(Math.min(pageNumber - 1, pages)) })}
                  >
                    ← Previous
                  </button>
                  <span className="small" aria-live="polite">
                    {data.groups.length > 0
                      ? `Rows ${formatCount(firstRow)}–${formatCount(firstRow + data.groups.length - 1)} of ${formatCount(data.page.total)}`
                      : `Page ${pageNumber} is past the last (${pages})`}
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    disabled={pageNumber >= pages}
                    onClick={() => change({ page: String(pageNumber + 1) })}
                  >
                    Next →
                  </button>
                </div>
              ) : null}
            </>
          )}
        </>
      )}
    </section>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort: (key: TGroupSortKey) => void;
}) {
  const active = sort.key === column.key;
  // Every column's natural order is "worst / largest first"; aria-sort describes what a reader sees.
  const ariaSort = active
    ? sort.reversed === (column.key === 'group' || column.key === 'cluster')
      ? 'descending'
      : 'ascending'
    : 'none';
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
        <GroupStatusBadge status={group.status} reasons={group.statusReasons} />
      </td>
      <td data-testid="group-cluster">{group.cluster}</td>
      <th scope="row" className="group-name">
        <Link href={groupPath(group.groupId, group.cluster)}>{group.groupId}</Link>
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
          <Link href="/quarantine" className="badge badge-quarantined">
            {group.quarantinedPartitions}
          </Link>
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
  const stale = isStale(sampledAt, now, sampleIntervalMs, idleStoreMs);
  return (
    <td className={stale ? undefined : 'muted'}>
      {formatAge(sampledAt, now)}
      {stale ? (
        <span className="pill pill-warn" title="No newer sample: the sampler is down or no longer sees this group">
          stale
        </span>
      ) : null}
    </td>
  );
}

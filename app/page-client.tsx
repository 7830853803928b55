'use client';

import Link from 'next/link';
import { ClusterSelect } from '@/components/cluster-select';
import { FiringAlerts } from '@/components/firing-alerts';
import { memo, useMemo } from 'react';
import { groupPath } from '@/components/api-client';
import { useGroups } from '@/components/hooks/use-groups';
import { Sparkline } from '@/components/sparkline';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { GroupStatusBadge, StatePill } from '@/components/status-badge';
import { TimeLagValue } from '@/components/time-lag-cell';
import { useNow } from '@/components/use-now';
import { anyText, oneOf, useUrlParam } from '@/components/use-url-param';
import { Age } from '@/components/age';
import { ZGroupStatus, type TGroupStatus, type TGroupSummary } from '@/lib/schemas/groups';
import { formatAge, formatCount, formatDurationMs } from '@/lib/format';
import { isStale } from '@/components/format';

type SortKey = 'worst' | 'cluster' | 'group' | 'totalLag' | 'timeLag' | 'quarantined' | 'rebalance';

/** A group is its cluster and its id: the same id on two clusters is two groups. */
const keyOf = (g: TGroupSummary) => `${g.cluster}\u0000${g.groupId}`;

const COLUMNS: Array<{ key: SortKey; label: string; numeric?: boolean }> = [
  { key: 'worst', label: 'Status' },
  { key: 'cluster', label: 'Cluster' },
  { key: 'group', label: 'Group' },
  { key: 'totalLag', label: 'Total lag', numeric: true },
  { key: 'timeLag', label: 'Worst time lag', numeric: true },
  { key: 'quarantined', label: 'Quarantined', numeric: true },
  { key: 'rebalance', label: 'Last rebalance' },
];

function compare(key: SortKey, a: TGroupSummary, b: TGroupSummary, serverRank: Map<string, number>): number {
  switch (key) {
    case 'worst':
      return (serverRank.get(keyOf(a)) ?? 0) - (serverRank.get(keyOf(b)) ?? 0);
    case 'cluster':
      return a.cluster.localeCompare(b.cluster);
    case 'group':
      return a.groupId.localeCompare(b.groupId);
    case 'totalLag':
      return b.totalLag - a.totalLag;
    case 'timeLag':
      return (b.worstTimeLag?.ms ?? -1) - (a.worstTimeLag?.ms ?? -1);
    case 'quarantined':
      return b.quarantinedPartitions - a.quarantinedPartitions;
    case 'rebalance':
      return (
        Date.parse(b.lastRebalance?.startedAt ?? '1970-01-01') - Date.parse(a.lastRebalance?.startedAt ?? '1970-01-01')
      );
  }
}

/** Overview: every sampled group, worst first; sortable by any column, filterable by name and status. */
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
  const query = useGroups(refreshMs);
  const { data, error, isPending } = query;
  // The view is in the URL (?q=&status=&cluster=&sort=&order=): a link shares it, coming back restores it.
  const [filter, setFilter] = useUrlParam('q', '', anyText);
  const [status, setStatus] = useUrlParam<'all' | TGroupStatus>(
    'status',
    'all',
    oneOf(['all', ...ZGroupStatus.options]),
  );
  const [cluster, setCluster] = useUrlParam('cluster', 'all', anyText);
  const [sortKey, setSortKey] = useUrlParam<SortKey>('sort', 'worst', oneOf(COLUMNS.map((c) => c.key)));
  const [order, setOrder] = useUrlParam<'natural' | 'reversed'>('order', 'natural', oneOf(['natural', 'reversed']));
  const sort = useMemo(() => ({ key: sortKey, reversed: order === 'reversed' }), [sortKey, order]);

  const groups = useMemo(() => {
    const all = data?.groups ?? [];
    const rank = new Map(all.map((g, i) => [keyOf(g), i]));
    const needle = filter.trim().toLowerCase();
    const shown = all.filter(
      (g) =>
        (status === 'all' || g.status === status) &&
        (cluster === 'all' || g.cluster === cluster) &&
        (needle === '' || g.groupId.toLowerCase().includes(needle)),
    );
    shown.sort(
      (a, b) =>
        compare(sort.key, a, b, rank) * (sort.reversed ? -1 : 1) ||
        (rank.get(keyOf(a)) ?? 0) - (rank.get(keyOf(b)) ?? 0),
    );
    return shown;
  }, [data, filter, status, cluster, sort]);
  const clusters = useMemo(() => [...new Set((data?.groups ?? []).map((g) => g.cluster))].sort(), [data]);

  const counts = useMemo(() => {
    const c: Record<TGroupStatus, number> = { ERR: 0, QUARANTINED: 0, WARN: 0, OK: 0 };
    for (const g of data?.groups ?? []) c[g.status] += 1;
    return c;
  }, [data]);

  const onSort = (key: SortKey) => {
    setOrder(sort.key === key && !sort.reversed ? 'reversed' : 'natural');
    setSortKey(key);
  };

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

      {data && data.groups.length > 0 ? (
        <div className="summary-strip" aria-label="Groups by status">
          {(Object.keys(counts) as TGroupStatus[]).map((s) => (
            <button
              key={s}
              type="button"
              className={`summary-chip chip-${s.toLowerCase()} ${status === s ? 'selected' : ''}`}
              aria-pressed={status === s}
              onClick={() => setStatus(status === s ? 'all' : s)}
            >
              <strong>{counts[s]}</strong> {s === 'QUARANTINED' ? 'quarantined' : s.toLowerCase()}
            </button>
          ))}
        </div>
      ) : null}

      {error ? <ErrorState error={error} what="consumer groups" hasStaleData={data !== undefined} /> : null}

      {isPending ? (
        <LoadingState label="Loading consumer groups…" />
      ) : !data || data.groups.length === 0 ? (
        <EmptyState title="No consumer group has been sampled in the last 10 minutes.">
          Start the worker (<code>npm run worker</code>): its sampler records every group&apos;s lag every few seconds.
        </EmptyState>
      ) : (
        <>
          <div className="toolbar">
            <ClusterSelect
              value={cluster}
              clusters={clusters}
              onChange={setCluster}
              all={{ value: 'all', label: 'all clusters' }}
              ariaLabel="Filter groups by cluster"
            />
            <label className="field-inline">
              <span>Filter</span>
              <input
                type="search"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
                placeholder="group name"
                aria-label="Filter groups by name"
              />
            </label>
            <label className="field-inline">
              <span>Status</span>
              <select
                value={status}
                onChange={(e) => setStatus(e.target.value as typeof status)}
                aria-label="Filter groups by status"
              >
                <option value="all">All</option>
                <option value="ERR">Error</option>
                <option value="QUARANTINED">Quarantined</option>
                <option value="WARN">Warning</option>
                <option value="OK">OK</option>
              </select>
            </label>
            <span className="muted" aria-live="polite">
              {groups.length} of {data.groups.length} groups
            </span>
          </div>
          {groups.length === 0 ? (
            <EmptyState title="No group matches the filter." />
          ) : (
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
                  {groups.map((g) => (
                    <GroupRow key={keyOf(g)} group={g} sampleIntervalMs={sampleIntervalMs} idleStoreMs={idleStoreMs} />
                  ))}
                </tbody>
              </table>
            </div>
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
  sort: { key: SortKey; reversed: boolean };
  onSort: (key: SortKey) => void;
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

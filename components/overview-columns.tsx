import type { ReactElement } from 'react';
import type { TGroupSort, TGroupSummary } from '@/lib/schemas/groups';
import { formatCount, formatDurationMs } from '@/lib/format';
import { Age } from './age';
import { groupPath } from './api-client';
import { AppLink } from './app-link';
import { SoonestDeletionValue } from './retention-cell';
import { SampledCell } from './sampled-cell';
import { Sparkline } from './sparkline';
import { GroupStatusBadge, StatePill } from './status-badge';
import { TimeLagValue } from './time-lag-cell';

/** What a row's cells need besides the group: how old a sample may be before it is stale. */
export interface OverviewRowContext {
  sampleIntervalMs: number;
  /** SAMPLE_IDLE_STORE_MS: an unchanged group's sample may be this much older without being stale. */
  idleStoreMs: number;
}

export interface OverviewColumn {
  label: string;
  /** The order its header asks the server for; none: the header does not sort. */
  sort?: TGroupSort;
  /** Right-aligned figures (the header's `num`). */
  numeric?: boolean;
  /** The column's cell in a group's row: a td, or the row's th (the group's name). */
  cell: (group: TGroupSummary, context: OverviewRowContext) => ReactElement;
}

/**
 * The overview's columns, in order: each one's header and its cell. A new column is one entry here; a sortable
 * one also needs its key in GROUP_SORT_KEYS (lib/schemas/values.ts) and its order on the server.
 */
export const OVERVIEW_COLUMNS: readonly OverviewColumn[] = [
  {
    label: 'Status',
    sort: 'worst',
    cell: (g) => (
      <td>
        <GroupStatusBadge status={g.status} reasons={g.statusReasons} reasonCount={g.statusReasonCount} />
      </td>
    ),
  },
  { label: 'Cluster', sort: 'cluster', cell: (g) => <td data-testid="group-cluster">{g.cluster}</td> },
  {
    label: 'Group',
    sort: 'group',
    cell: (g) => (
      <th scope="row" className="group-name">
        <AppLink href={groupPath(g.groupId, g.cluster)}>{g.groupId}</AppLink>
        {g.partitionsWithoutCommit > 0 ? (
          <span className="pill pill-warn" title="These partitions have no committed offset, so their lag is unknown">
            {g.partitionsWithoutCommit} never committed
          </span>
        ) : null}
      </th>
    ),
  },
  {
    label: 'State',
    cell: (g) => (
      <td>
        <StatePill state={g.state} />
      </td>
    ),
  },
  {
    label: 'Total lag',
    sort: 'totalLag',
    numeric: true,
    cell: (g) => (
      <td className="num" data-testid="total-lag">
        {formatCount(g.totalLag)}
      </td>
    ),
  },
  {
    label: 'Worst time lag',
    sort: 'timeLag',
    numeric: true,
    cell: (g) => (
      <td className="num">
        <TimeLagValue lag={g.worstTimeLag} compact />
        {g.worstTimeLag ? (
          <div className="cell-note">{`${g.worstTimeLag.topic}-${g.worstTimeLag.partition}`}</div>
        ) : null}
      </td>
    ),
  },
  {
    label: 'Soonest deletion',
    cell: (g) => (
      <td>
        <SoonestDeletionValue group={g} />
      </td>
    ),
  },
  {
    label: 'Lag trend (10 min)',
    cell: (g) => (
      <td>
        <Sparkline values={g.trend.map((t) => t.totalLag)} label={`Total lag of ${g.groupId} over 10 minutes`} />
      </td>
    ),
  },
  {
    label: 'Quarantined',
    sort: 'quarantined',
    numeric: true,
    cell: (g) => (
      <td className="num">
        {g.quarantinedPartitions > 0 ? (
          <AppLink href="/quarantine" className="badge badge-quarantined">
            {g.quarantinedPartitions}
          </AppLink>
        ) : (
          <span className="muted">0</span>
        )}
      </td>
    ),
  },
  { label: 'Members', numeric: true, cell: (g) => <td className="num">{g.members}</td> },
  {
    label: 'Last rebalance',
    sort: 'rebalance',
    cell: (g) => (
      <td>
        {g.lastRebalance ? (
          <span
            title={`took ${g.lastRebalance.durationIsBound ? 'at most ' : ''}${formatDurationMs(g.lastRebalance.durationMs)}`}
          >
            <Age at={g.lastRebalance.startedAt} />
          </span>
        ) : (
          <span className="muted">none recorded</span>
        )}
      </td>
    ),
  },
  {
    label: 'Sampled',
    cell: (g, context) => (
      <SampledCell
        sampledAt={g.sampledAt}
        sampleIntervalMs={context.sampleIntervalMs}
        idleStoreMs={context.idleStoreMs}
      />
    ),
  },
];

import type { ReactElement, ReactNode } from 'react';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { formatCount, formatRateRounded } from '@/lib/format';
import { AppLink } from './app-link';
import { CommitPrefix } from './commit-prefix';
import type { PartitionSortKey } from './partition-sort';
import { quarantineAnchor } from './quarantine-anchor';
import { RetentionRiskValue } from './retention-cell';
import { PartitionStatusBadge } from './status-badge';
import { TimeLagValue } from './time-lag-cell';
import './partition-columns.css';

const RATES_BASIS: Record<TPartitionDetail['ratesBasis'], string> = {
  sampler: 'measured by the sampler over its window',
  'lag-samples': 'measured from the stored samples over the rate window',
  none: 'not measurable yet: fewer than two samples',
};

export interface PartitionColumn {
  /** Names the column among its siblings (a React key). */
  id: string;
  header: ReactNode;
  /** The sort its header offers; none: the header does not sort. */
  sort?: PartitionSortKey;
  /** Right-aligned figures (the header's `num`). */
  numeric?: boolean;
  /** Shown only for Warden's own consumer, which reports it. */
  wardenOnly?: boolean;
  /** The column's cell in a partition's row: a td, or the row's th (the partition's name). */
  cell: (p: TPartitionDetail, groupId: string) => ReactElement;
}

/**
 * The partition table's columns, in order: each one's header and its cell, for the plain table and the virtual
 * one alike. A new column is one entry here (a sortable one also needs its key in partition-sort.ts).
 */
const PARTITION_COLUMNS: readonly PartitionColumn[] = [
  {
    id: 'partition',
    header: 'Partition',
    sort: 'partition',
    cell: (p, groupId) => (
      <th scope="row" className="mono">
        {p.topic}-{p.partition}
        {p.quarantine ? (
          <AppLink
            href={`/quarantine#${quarantineAnchor(groupId, p.topic, p.partition)}`}
            className="badge badge-quarantined badge-inline"
            title={`Held at offset ${p.quarantine.offset} since ${p.quarantine.since}: ${p.quarantine.reason}`}
          >
            quarantined @ {p.quarantine.offset}
          </AppLink>
        ) : null}
      </th>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    sort: 'status',
    cell: (p) => (
      <td>
        <PartitionStatusBadge status={p.status} quarantined={p.quarantine !== null} burrowStatus={p.burrowStatus} />
        {p.statusReason ? (
          <span className="small status-reason" data-testid="status-reason">
            {p.statusReason}
          </span>
        ) : null}
        <span
          className="muted small status-window"
          data-testid="status-window"
          title={`Burrow's window: ${p.statusWindow.commits} of the last ${p.statusWindow.capacity} commits (${p.statusWindow.source === 'offsets-topic' ? 'every commit, from __consumer_offsets' : 'committed offsets seen by the sampler'})${p.statusWindow.lastCommitAt ? `; last commit ${p.statusWindow.lastCommitAt}` : ''}`}
        >
          window {p.statusWindow.commits}/{p.statusWindow.capacity}
          {p.statusWindow.source === 'sampled' ? ' · sampled' : ''}
        </span>
      </td>
    ),
  },
  {
    id: 'committed',
    header: 'Committed',
    numeric: true,
    cell: (p) => (
      <td className="num mono" data-testid="committed-offset">
        {p.committedOffset ?? <span className="muted">none</span>}
      </td>
    ),
  },
  {
    id: 'log-end',
    header: 'Log end',
    numeric: true,
    cell: (p) => <td className="num mono">{p.logEndOffset}</td>,
  },
  {
    id: 'lag',
    header: 'Lag',
    sort: 'lag',
    numeric: true,
    cell: (p) => (
      <td className="num" data-testid="partition-lag">
        {formatCount(p.lag)}
      </td>
    ),
  },
  {
    id: 'time-lag',
    header: 'Time lag',
    sort: 'timeLag',
    numeric: true,
    cell: (p) => (
      <td className="num">
        <TimeLagValue lag={p.timeLag} />
      </td>
    ),
  },
  {
    id: 'retention',
    header: (
      <abbr title="When the topic's retention can delete the records the group has not read here (from the sample)">
        Retention
      </abbr>
    ),
    sort: 'retention',
    cell: (p) => (
      <td>
        <RetentionRiskValue risk={p.retentionRisk} />
      </td>
    ),
  },
  {
    id: 'in',
    header: <abbr title="Records appended per second">In</abbr>,
    sort: 'in',
    numeric: true,
    cell: (p) => (
      <td className="num" title={RATES_BASIS[p.ratesBasis]}>
        {formatRateRounded(p.arrivalRatePerSec)}
      </td>
    ),
  },
  {
    id: 'out',
    header: <abbr title="Records committed per second">Out</abbr>,
    sort: 'out',
    numeric: true,
    cell: (p) => (
      <td className="num" title={RATES_BASIS[p.ratesBasis]}>
        {formatRateRounded(p.consumptionRatePerSec)}
      </td>
    ),
  },
  {
    id: 'owner',
    header: 'Owner',
    sort: 'owner',
    cell: (p) => (
      <td>
        {p.owner ? (
          <span className="mono" data-testid="partition-owner" title={p.owner.memberId ?? undefined}>
            {p.owner.name}
          </span>
        ) : (
          <span className="muted">unassigned</span>
        )}
      </td>
    ),
  },
  {
    id: 'commit-prefix',
    header: (
      <abbr title="Warden's own consumer: commit watermark, completed but not yet committed, in flight, oldest unfinished record">
        Commit prefix
      </abbr>
    ),
    wardenOnly: true,
    cell: (p) => (
      <td>{p.commitPrefix ? <CommitPrefix prefix={p.commitPrefix} /> : <span className="muted">not reported</span>}</td>
    ),
  },
];

const EVERY_COLUMN = PARTITION_COLUMNS;
const WITHOUT_WARDEN_ONLY = PARTITION_COLUMNS.filter((column) => !column.wardenOnly);

/** The columns a group's table shows: the commit prefix only for Warden's own consumer. */
export function partitionColumns(showCommitPrefix: boolean): readonly PartitionColumn[] {
  return showCommitPrefix ? EVERY_COLUMN : WITHOUT_WARDEN_ONLY;
}

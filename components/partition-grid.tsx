import { memo, type ReactNode, type Ref } from 'react';
import { AppLink } from './app-link';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { formatCount, formatDurationMs, formatRateRounded } from '@/lib/format';
import { quarantineAnchor } from './quarantine-anchor';
import { PartitionStatusBadge } from './status-badge';
import { TimeLagValue } from './time-lag-cell';

const RATES_BASIS: Record<TPartitionDetail['ratesBasis'], string> = {
  sampler: 'measured by the sampler over its window',
  'lag-samples': 'measured from the stored samples over the rate window',
  none: 'not measurable yet: fewer than two samples',
};

/**
 * The partition table's box and grid, shared by the plain table and the virtual one: `head` is its header row,
 * `children` the rows drawn. A virtual table passes its scrolling box's ref and height and the total row count.
 */
export function PartitionGrid({
  groupId,
  head,
  children,
  virtual,
}: {
  groupId: string;
  head: ReactNode;
  children: ReactNode;
  virtual?: { scrollBox: Ref<HTMLDivElement>; heightPx: number; rowCount: number };
}) {
  return (
    <div
      ref={virtual?.scrollBox}
      className={virtual ? 'table-wrap table-virtual' : 'table-wrap'}
      style={virtual ? { maxHeight: virtual.heightPx } : undefined}
      data-testid="partition-scroll"
      {...(virtual ? { tabIndex: 0, role: 'region', 'aria-label': `Partitions of ${groupId}, scrollable` } : {})}
    >
      <table className="grid grid-partitions" aria-rowcount={virtual ? virtual.rowCount + 1 : undefined}>
        <caption className="visually-hidden">Partitions of {groupId}</caption>
        <thead>{head}</thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Stands in for the rows above or below the rendered ones of a virtual table, so the scrollbar is right. */
export function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" className="spacer-row">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

export const PartitionRow = memo(function PartitionRow({
  groupId,
  partition: p,
  showCommitPrefix,
  index,
  measure,
}: {
  groupId: string;
  partition: TPartitionDetail;
  showCommitPrefix: boolean;
  /** Position in the sorted rows. */
  index: number;
  /**
   * A virtual table's measuring ref (rows grow with their status reason, so each is measured once drawn); only
   * such a row, one of a few drawn, says its position among all rows to assistive technology.
   */
  measure?: (element: HTMLTableRowElement | null) => void;
}) {
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={measure ? index + 2 : undefined}
      data-testid="partition-row"
      data-partition={p.partition}
      className={p.quarantine ? 'row-quarantined' : undefined}
    >
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
      <td>
        <PartitionStatusBadge status={p.status} quarantined={p.quarantine !== null} />
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
      <td className="num mono" data-testid="committed-offset">
        {p.committedOffset ?? <span className="muted">none</span>}
      </td>
      <td className="num mono">{p.logEndOffset}</td>
      <td className="num" data-testid="partition-lag">
        {formatCount(p.lag)}
      </td>
      <td className="num">
        <TimeLagValue lag={p.timeLag} />
      </td>
      <td className="num" title={RATES_BASIS[p.ratesBasis]}>
        {formatRateRounded(p.arrivalRatePerSec)}
      </td>
      <td className="num" title={RATES_BASIS[p.ratesBasis]}>
        {formatRateRounded(p.consumptionRatePerSec)}
      </td>
      <td>
        {p.owner ? (
          <span className="mono" data-testid="partition-owner" title={p.owner.memberId ?? undefined}>
            {p.owner.name}
          </span>
        ) : (
          <span className="muted">unassigned</span>
        )}
      </td>
      {showCommitPrefix ? (
        <td>
          {p.commitPrefix ? <CommitPrefix prefix={p.commitPrefix} /> : <span className="muted">not reported</span>}
        </td>
      ) : null}
    </tr>
  );
});

function CommitPrefix({ prefix }: { prefix: NonNullable<TPartitionDetail['commitPrefix']> }) {
  return (
    <dl className="prefix" title={`reported by ${prefix.instanceId} at ${prefix.sampledAt}`}>
      <div>
        <dt>watermark</dt>
        <dd className="mono">{prefix.watermark ?? '—'}</dd>
      </div>
      <div>
        <dt>done, uncommitted</dt>
        <dd>{formatCount(prefix.completedUncommitted)}</dd>
      </div>
      <div>
        <dt>in flight</dt>
        <dd>{formatCount(prefix.inFlight)}</dd>
      </div>
      <div>
        <dt>oldest unfinished</dt>
        <dd>
          {prefix.oldestUnfinishedOffset === null ? '—' : <span className="mono">{prefix.oldestUnfinishedOffset}</span>}
          {prefix.oldestUnfinishedAgeMs !== null ? ` (${formatDurationMs(prefix.oldestUnfinishedAgeMs)})` : ''}
        </dd>
      </div>
      {prefix.paused ? (
        <div>
          <dt>backpressure</dt>
          <dd>paused</dd>
        </div>
      ) : null}
    </dl>
  );
}

import { memo, useMemo, useRef, useState, type ReactNode } from 'react';
import Link from 'next/link';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { sortPartitions, type PartitionSort, type PartitionSortKey } from './partition-sort';
import { PartitionStatusBadge } from './status-badge';
import { TimeLagValue } from './time-lag-cell';
import { formatCount, formatDurationMs, formatRateRounded } from '@/lib/format';

/**
 * Above this many partitions the table scrolls inside its card and renders only the rows in view (plus a few
 * either side), so a thousand-partition group costs the same per poll as a small one; at or below it every row
 * is rendered and the page scrolls as usual.
 */
const VIRTUAL_ROWS_ABOVE = 100;
/** Height of the scrolling box of a virtual table; the server renders the rows that fill it. */
const VIRTUAL_VIEWPORT_PX = 640;
/** A row's height before it is measured (a status line and its window line). */
const ROW_ESTIMATE_PX = 58;

const RATES_BASIS: Record<TPartitionDetail['ratesBasis'], string> = {
  sampler: 'measured by the sampler over its window',
  'lag-samples': 'measured from the stored samples over the rate window',
  none: 'not measurable yet: fewer than two samples',
};

/**
 * Per-partition table of a group. Offsets are shown as the API sends them (int64 strings); the commit prefix
 * appears only for a Warden consumer and explains where its lag comes from.
 */
export const PartitionTable = memo(function PartitionTable({
  groupId,
  partitions,
  showCommitPrefix,
}: {
  groupId: string;
  partitions: TPartitionDetail[];
  showCommitPrefix: boolean;
}) {
  const [sort, setSort] = useState<PartitionSort>({ key: 'partition', descending: false });
  const sorted = useMemo(() => sortPartitions(partitions, sort), [partitions, sort]);
  const virtual = sorted.length > VIRTUAL_ROWS_ABOVE;
  const scrollBox = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? sorted.length : 0,
    getScrollElement: () => scrollBox.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 8,
    // Before the box is measured (and on the server) the rows that fill it are rendered.
    initialRect: { width: 0, height: VIRTUAL_VIEWPORT_PX },
  });
  const items = virtual ? virtualizer.getVirtualItems() : null;
  /** Positions in `sorted` of the rows rendered. */
  const shown = items ? items.map((item) => item.index) : sorted.map((_, index) => index);
  const padTop = items?.[0]?.start ?? 0;
  const padBottom = items && items.length > 0 ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;
  const columns = showCommitPrefix ? 10 : 9;
  const header = (key: PartitionSortKey, label: ReactNode, numeric = false) => {
    const active = sort.key === key;
    return (
      <th
        scope="col"
        className={numeric ? 'num' : undefined}
        aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
      >
        <button
          type="button"
          className="sort-button"
          data-testid={`sort-${key}`}
          onClick={() => {
            // A first click on a measure shows the worst first; the partition column starts ascending.
            setSort(active ? { key, descending: !sort.descending } : { key, descending: key !== 'partition' });
            scrollBox.current?.scrollTo({ top: 0 });
          }}
        >
          {label}
          <span aria-hidden="true" className="sort-mark">
            {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
          </span>
        </button>
      </th>
    );
  };
  return (
    <>
      <div
        ref={scrollBox}
        className={virtual ? 'table-wrap table-virtual' : 'table-wrap'}
        style={virtual ? { maxHeight: VIRTUAL_VIEWPORT_PX } : undefined}
        data-testid="partition-scroll"
        {...(virtual ? { tabIndex: 0, role: 'region', 'aria-label': `Partitions of ${groupId}, scrollable` } : {})}
      >
        <table className="grid grid-partitions" aria-rowcount={virtual ? sorted.length + 1 : undefined}>
          <caption className="visually-hidden">Partitions of {groupId}</caption>
          <thead>
            <tr>
              {header('partition', 'Partition')}
              {header('status', 'Status')}
              <th scope="col" className="num">
                Committed
              </th>
              <th scope="col" className="num">
                Log end
              </th>
              {header('lag', 'Lag', true)}
              {header('timeLag', 'Time lag', true)}
              {header('in', <abbr title="Records appended per second">In</abbr>, true)}
              {header('out', <abbr title="Records committed per second">Out</abbr>, true)}
              {header('owner', 'Owner')}
              {showCommitPrefix ? (
                <th scope="col">
                  <abbr title="Warden's own consumer: commit watermark, completed but not yet committed, in flight, oldest unfinished record">
                    Commit prefix
                  </abbr>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {padTop > 0 ? <SpacerRow height={padTop} columns={columns} /> : null}
            {shown.map((index) => {
              const p = sorted[index]!;
              return (
                <PartitionRow
                  key={`${p.topic}/${p.partition}`}
                  groupId={groupId}
                  partition={p}
                  showCommitPrefix={showCommitPrefix}
                  index={index}
                  virtual={virtual}
                  measure={virtual ? virtualizer.measureElement : undefined}
                />
              );
            })}
            {padBottom > 0 ? <SpacerRow height={padBottom} columns={columns} /> : null}
          </tbody>
        </table>
      </div>
      {virtual ? (
        <p className="muted small table-note" data-testid="partition-count" aria-live="polite">
          {sorted.length} partitions; scroll the table for the rest
          {items && items.length > 0 ? ` (showing ${items[0]!.index + 1}–${items.at(-1)!.index + 1})` : ''}
        </p>
      ) : null}
    </>
  );
});

/** Stands in for the rows above or below the rendered ones of a virtual table, so the scrollbar is right. */
function SpacerRow({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" className="spacer-row">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  );
}

const PartitionRow = memo(function PartitionRow({
  groupId,
  partition: p,
  showCommitPrefix,
  index,
  virtual,
  measure,
}: {
  groupId: string;
  partition: TPartitionDetail;
  showCommitPrefix: boolean;
  /** Position in the sorted rows. */
  index: number;
  virtual: boolean;
  /** The virtualizer's measuring ref: rows grow with their status reason, so each is measured once drawn. */
  measure: ((element: HTMLTableRowElement | null) => void) | undefined;
}) {
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={virtual ? index + 2 : undefined}
      data-testid="partition-row"
      data-partition={p.partition}
      className={p.quarantine ? 'row-quarantined' : undefined}
    >
      <th scope="row" className="mono">
        {p.topic}-{p.partition}
        {p.quarantine ? (
          <Link
            href={`/quarantine#${quarantineAnchor(groupId, p.topic, p.partition)}`}
            className="badge badge-quarantined badge-inline"
            title={`Held at offset ${p.quarantine.offset} since ${p.quarantine.since}: ${p.quarantine.reason}`}
          >
            quarantined @ {p.quarantine.offset}
          </Link>
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

/** The id of a quarantine card on the Quarantine page (stable, URL-safe). */
export function quarantineAnchor(groupId: string, topic: string, partition: number): string {
  return `q-${encodeURIComponent(groupId).replace(/%/g, '_')}-${topic}-${partition}`;
}

import { memo, useMemo, useState, type ReactNode } from 'react';
import Link from 'next/link';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { sortPartitions, type PartitionSort, type PartitionSortKey } from './partition-sort';
import { PartitionStatusBadge } from './status-badge';
import { TimeLagValue } from './time-lag-cell';
import { formatCount, formatDurationMs, formatRateRounded } from '@/lib/format';

/** Rows per page: a thousand-partition group renders a page at a time, never a thousand rows per poll. */
export const PARTITION_PAGE_SIZE = 100;

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
  const [page, setPage] = useState(0);
  const sorted = useMemo(() => sortPartitions(partitions, sort), [partitions, sort]);
  const pages = Math.max(1, Math.ceil(sorted.length / PARTITION_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = sorted.slice(current * PARTITION_PAGE_SIZE, (current + 1) * PARTITION_PAGE_SIZE);
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
            setPage(0);
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
      <div className="table-wrap">
        <table className="grid grid-partitions">
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
            {shown.map((p) => (
              <tr
                key={`${p.topic}/${p.partition}`}
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
                    {p.commitPrefix ? (
                      <CommitPrefix prefix={p.commitPrefix} />
                    ) : (
                      <span className="muted">not reported</span>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <div className="pager" data-testid="partition-pager">
          <button
            type="button"
            className="button button-small"
            disabled={current === 0}
            onClick={() => setPage(current - 1)}
          >
            ← Previous
          </button>
          <span className="small" aria-live="polite">
            Rows {current * PARTITION_PAGE_SIZE + 1}–{current * PARTITION_PAGE_SIZE + shown.length} of {sorted.length}
          </span>
          <button
            type="button"
            className="button button-small"
            disabled={current === pages - 1}
            onClick={() => setPage(current + 1)}
          >
            Next →
          </button>
        </div>
      ) : null}
    </>
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

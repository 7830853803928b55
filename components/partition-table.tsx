import { memo, useMemo, useState, type ReactNode } from 'react';
import dynamic from 'next/dynamic';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { PartitionGrid, PartitionRow } from './partition-grid';
import { sortPartitions, type PartitionSort, type PartitionSortKey } from './partition-sort';

/**
 * Above this many partitions the table scrolls inside its card and renders only the rows in view
 * (partition-table-virtual.tsx); at or below it every row is rendered and the page scrolls as usual.
 */
const VIRTUAL_ROWS_ABOVE = 100;

/** Rendered on the server like the rest; its script loads only for a group above VIRTUAL_ROWS_ABOVE. */
const VirtualPartitionTable = dynamic(() => import('./partition-table-virtual').then((m) => m.VirtualPartitionTable));

/**
 * Per-partition table of a group, sortable by its measures. Offsets are shown as the API sends them (int64
 * strings); the commit prefix appears only for a Warden consumer and explains where its lag comes from.
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
          // A first click on a measure shows the worst first; the partition column starts ascending.
          onClick={() =>
            setSort(active ? { key, descending: !sort.descending } : { key, descending: key !== 'partition' })
          }
        >
          {label}
          <span aria-hidden="true" className="sort-mark">
            {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
          </span>
        </button>
      </th>
    );
  };
  const head = (
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
  );
  if (sorted.length > VIRTUAL_ROWS_ABOVE) {
    return (
      <VirtualPartitionTable
        groupId={groupId}
        sorted={sorted}
        sort={sort}
        head={head}
        showCommitPrefix={showCommitPrefix}
      />
    );
  }
  return (
    <PartitionGrid groupId={groupId} head={head}>
      {sorted.map((p, index) => (
        <PartitionRow
          key={`${p.topic}/${p.partition}`}
          groupId={groupId}
          partition={p}
          showCommitPrefix={showCommitPrefix}
          index={index}
        />
      ))}
    </PartitionGrid>
  );
});

import { memo, useMemo, useState } from 'react';
import dynamic from 'next/dynamic';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { partitionColumns, type PartitionColumn } from './partition-columns';
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
 * Per-partition table of a group, sortable by its measures; its columns are partition-columns.tsx's. Offsets are
 * shown as the API sends them (int64 strings); the commit prefix appears only for a Warden consumer and explains
 * where its lag comes from.
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
  const columns = partitionColumns(showCommitPrefix);
  const head = (
    <tr>
      {columns.map((column) =>
        column.sort ? (
          <SortHeader key={column.id} column={column} sortKey={column.sort} sort={sort} onSort={setSort} />
        ) : (
          <th key={column.id} scope="col" className={column.numeric ? 'num' : undefined}>
            {column.header}
          </th>
        ),
      )}
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

function SortHeader({
  column,
  sortKey,
  sort,
  onSort,
}: {
  column: PartitionColumn;
  sortKey: PartitionSortKey;
  sort: PartitionSort;
  onSort: (sort: PartitionSort) => void;
}) {
  const active = sort.key === sortKey;
  return (
    <th
      scope="col"
      className={column.numeric ? 'num' : undefined}
      aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}
    >
      <button
        type="button"
        className="sort-button"
        data-testid={`sort-${sortKey}`}
        // A first click on a measure shows the worst first; the partition column starts ascending.
        onClick={() =>
          onSort(
            active
              ? { key: sortKey, descending: !sort.descending }
              : { key: sortKey, descending: sortKey !== 'partition' },
          )
        }
      >
        {column.header}
        <span aria-hidden="true" className="sort-mark">
          {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
        </span>
      </button>
    </th>
  );
}

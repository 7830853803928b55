'use client';

import { Fragment, memo } from 'react';
import type { TGroupSort, TGroupSummary } from '@/lib/schemas/groups';
import { OVERVIEW_COLUMNS, type OverviewColumn, type OverviewRowContext } from './overview-columns';
import './overview-table.css';

/** The sort in force: a column's key, and whether its natural order ("worst / largest first") is reversed. */
export interface OverviewSort {
  key: TGroupSort;
  reversed: boolean;
}

/** A group is its cluster and its id: the same id on two clusters is two groups. */
const keyOf = (g: TGroupSummary) => `${g.cluster}\u0000${g.groupId}`;

/** One page of the overview's groups, in the order the server answered; the sortable headers ask for another. */
export function OverviewTable({
  groups,
  sort,
  onSort,
  busy,
  sampleIntervalMs,
  idleStoreMs,
}: {
  groups: TGroupSummary[];
  sort: OverviewSort;
  onSort: (key: TGroupSort) => void;
  /** The rows are the last view's while this one's answer is on its way. */
  busy: boolean;
} & OverviewRowContext) {
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table className="grid grid-overview">
        <caption className="visually-hidden">Consumer groups; column headers sort the table</caption>
        <thead>
          <tr>
            {OVERVIEW_COLUMNS.map((column) =>
              column.sort ? (
                <SortHeader key={column.label} column={column} sortKey={column.sort} sort={sort} onSort={onSort} />
              ) : (
                <th key={column.label} scope="col" className={column.numeric ? 'num' : undefined}>
                  {column.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <GroupRow key={keyOf(g)} group={g} sampleIntervalMs={sampleIntervalMs} idleStoreMs={idleStoreMs} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SortHeader({
  column,
  sortKey,
  sort,
  onSort,
}: {
  column: OverviewColumn;
  sortKey: TGroupSort;
  sort: OverviewSort;
  onSort: (key: TGroupSort) => void;
}) {
  const active = sort.key === sortKey;
  // Every column's natural order is "worst / largest first"; aria-sort describes what a reader sees.
  const ariaSort = active ? (sort.reversed === (sortKey === 'group') ? 'descending' : 'ascending') : 'none';
  return (
    <th scope="col" className={column.numeric ? 'num' : undefined} aria-sort={ariaSort}>
      <button type="button" className="sort-button" onClick={() => onSort(sortKey)}>
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
  const context = { sampleIntervalMs, idleStoreMs };
  return (
    <tr
      data-testid="group-row"
      data-group-id={group.groupId}
      data-cluster={group.cluster}
      className={`row-${group.status.toLowerCase()}`}
    >
      {OVERVIEW_COLUMNS.map((column) => (
        <Fragment key={column.label}>{column.cell(group, context)}</Fragment>
      ))}
    </tr>
  );
});

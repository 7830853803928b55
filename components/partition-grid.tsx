import { Fragment, memo, type ReactNode, type Ref } from 'react';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { partitionColumns } from './partition-columns';
import './partition-grid.css';

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

/** The row's mark on its first cell, loudest first: records lost, held, records at risk of deletion. */
function rowMark(p: TPartitionDetail): string | undefined {
  if (p.status === 'LOST') return 'row-lost';
  if (p.quarantine) return 'row-quarantined';
  if (p.retentionRisk.kind === 'at-risk') return 'row-at-risk';
  return undefined;
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
      className={rowMark(p)}
    >
      {partitionColumns(showCommitPrefix).map((column) => (
        <Fragment key={column.id}>{column.cell(p, groupId)}</Fragment>
      ))}
    </tr>
  );
});

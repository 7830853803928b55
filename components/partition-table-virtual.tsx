import { useEffect, useRef, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TPartitionDetail } from '@/lib/schemas/groups';
import { partitionColumns } from './partition-columns';
import { PartitionGrid, PartitionRow, SpacerRow } from './partition-grid';
import type { PartitionSort } from './partition-sort';

/** Height of the scrolling box; the server renders the rows that fill it. */
const VIEWPORT_PX = 640;
/** A row's height before it is measured (a status line and its window line). */
const ROW_ESTIMATE_PX = 58;

/**
 * The partition table of a large group: it scrolls inside its card and renders only the rows in view (plus a few
 * either side), so a thousand-partition group costs the same per poll as a small one. Its own module, loaded
 * only by groups that large, because the virtualizer is script every other group page would load for nothing.
 */
export function VirtualPartitionTable({
  groupId,
  sorted,
  sort,
  head,
  showCommitPrefix,
}: {
  groupId: string;
  sorted: readonly TPartitionDetail[];
  /** The sort in force; a new one scrolls back to the first row. */
  sort: PartitionSort;
  head: ReactNode;
  showCommitPrefix: boolean;
}) {
  const scrollBox = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => scrollBox.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 8,
    // Before the box is measured (and on the server) the rows that fill it are rendered.
    initialRect: { width: 0, height: VIEWPORT_PX },
  });
  useEffect(() => {
    scrollBox.current?.scrollTo({ top: 0 });
  }, [sort]);
  const items = virtualizer.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length > 0 ? virtualizer.getTotalSize() - items.at(-1)!.end : 0;
  const columns = partitionColumns(showCommitPrefix).length;
  return (
    <>
      <PartitionGrid
        groupId={groupId}
        head={head}
        virtual={{ scrollBox, heightPx: VIEWPORT_PX, rowCount: sorted.length }}
      >
        {padTop > 0 ? <SpacerRow height={padTop} columns={columns} /> : null}
        {items.map(({ index }) => {
          const p = sorted[index]!;
          return (
            <PartitionRow
              key={`${p.topic}/${p.partition}`}
              groupId={groupId}
              partition={p}
              showCommitPrefix={showCommitPrefix}
              index={index}
              measure={virtualizer.measureElement}
            />
          );
        })}
        {padBottom > 0 ? <SpacerRow height={padBottom} columns={columns} /> : null}
      </PartitionGrid>
      <p className="muted small table-note" data-testid="partition-count" aria-live="polite">
        {sorted.length} partitions; scroll the table for the rest
        {items.length > 0 ? ` (showing ${items[0]!.index + 1}–${items.at(-1)!.index + 1})` : ''}
      </p>
    </>
  );
}

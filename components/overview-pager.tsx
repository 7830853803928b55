import { formatCount } from '@/lib/format';
import { OVERVIEW_PAGE_SIZE } from './overview-view';

/** The last page with a group on it (1 when there is none). */
export const lastPage = (total: number) => Math.max(1, Math.ceil(total / OVERVIEW_PAGE_SIZE));

/** Previous and Next over the overview's pages, and which groups this page shows; nothing when one page holds them all. */
export function OverviewPager({
  page,
  total,
  onPage,
}: {
  /** 1-based. */
  page: number;
  total: number;
  onPage: (page: number) => void;
}) {
  if (total <= OVERVIEW_PAGE_SIZE && page <= 1) return null;
  const firstShown = (page - 1) * OVERVIEW_PAGE_SIZE + 1;
  const lastShown = Math.min(page * OVERVIEW_PAGE_SIZE, total);
  return (
    <nav className="pager" aria-label="Pages of consumer groups">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button type="button" disabled={page >= lastPage(total)} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <span className="muted" aria-live="polite" data-testid="groups-page-range">
        {`${formatCount(firstShown)}–${formatCount(lastShown)} of ${formatCount(total)}`}
      </span>
    </nav>
  );
}

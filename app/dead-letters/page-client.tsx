'use client';

import { DeadLetterCountsCard } from '@/components/dead-letter-counts-card';
import { DeadLetterFilterBar } from '@/components/dead-letter-filter-bar';
import { DeadLetterTable } from '@/components/dead-letter-table';
import { useDeadLetterCounts, useDeadLetters, useRedrives } from '@/components/hooks/use-dead-letters';
import { RedriveDialog } from '@/components/redrive-dialog';
import { RedriveJobsCard } from '@/components/redrive-jobs-card';
import { useCanOperate } from '@/components/session-context';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { useDeadLetterView } from '@/components/use-dead-letter-view';
import { useRecordSelection } from '@/components/use-record-selection';
import { useRedriveRequest } from '@/components/use-redrive-request';

/**
 * Dead letters: the records of the dead-letter topic, newest first, paged from the broker; counts by error
 * class and source; and (operators) redrive of selected records or of everything the filter matches, behind
 * a confirmation naming the count, with each job's progress, pause, resume and cancel.
 */
export function DeadLettersPageClient({ refreshMs }: { refreshMs: number }) {
  const view = useDeadLetterView();
  const selection = useRecordSelection();
  const redrive = useRedriveRequest();
  const canOperate = useCanOperate();
  const jobs = useRedrives(refreshMs);
  const page = useDeadLetters(view.filter, view.cursor, refreshMs);
  const counts = useDeadLetterCounts(refreshMs);

  return (
    <section aria-labelledby="dead-letters-heading">
      <div className="page-head">
        <div>
          <h1 id="dead-letters-heading">Dead letters</h1>
          <p className="muted subtitle">
            Records a Warden consumer could not process and copied to the dead-letter topic
            {page.data ? <span className="mono"> {page.data.topic}</span> : null}. Once the cause is fixed, an operator
            can send them back to where they came from.
          </p>
        </div>
        <RefreshIndicator query={page} refreshMs={refreshMs} />
      </div>

      {counts.data ? <DeadLetterCountsCard counts={counts.data} /> : null}
      <RedriveJobsCard jobs={jobs.data?.jobs} canOperate={canOperate} />
      <DeadLetterFilterBar
        canOperate={canOperate}
        selectedCount={selection.selected.size}
        onApply={(filter) => {
          view.apply(filter);
          selection.clear();
        }}
        onRedriveSelected={() => redrive.askForRecords(selection.selected)}
        onRedriveMatching={() => redrive.askForMatching(view.filter)}
      />
      {redrive.filterRefusal ? (
        <p role="alert" className="banner banner-error" data-testid="redrive-filter-refused">
          {redrive.filterRefusal}
        </p>
      ) : null}
      {redrive.selection ? (
        <RedriveDialog
          selection={redrive.selection}
          filter={view.filter}
          onClose={redrive.close}
          // A requested redrive clears the selection, so the same records are not offered again by accident.
          onRequested={selection.clear}
        />
      ) : null}

      {page.error ? <ErrorState error={page.error} what="dead letters" hasStaleData={page.data !== undefined} /> : null}
      {page.isPending ? (
        <LoadingState label="Reading the dead-letter topic…" />
      ) : !page.data || page.data.records.length === 0 ? (
        <EmptyState title="No dead letter matches.">
          {page.data && page.data.nextCursor !== null
            ? `None among the ${page.data.scanned} records read; older pages may hold some.`
            : 'Nothing a consumer could not process is waiting here.'}
        </EmptyState>
      ) : (
        <DeadLetterTable
          page={page.data}
          canOperate={canOperate}
          selected={selection.selected}
          onToggle={selection.toggle}
          isNewest={view.isNewest}
          onNewer={view.newer}
          onOlder={view.older}
        />
      )}
    </section>
  );
}

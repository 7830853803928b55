import { plural } from '@/lib/format';
import type { TGroupSummary, TRetentionRisk } from '@/lib/schemas/groups';
import { retentionCell, soonestDeletionText } from './retention-text';
import './retention-cell.css';

/**
 * A partition's retention risk in a few words ("deleted from 2 h 40 min, at the latest 3 h 10 min", "unknown",
 * "lost: 1,204 records"), loud only when records are at risk or gone; the API's sentence is its tooltip and, for
 * a reader without a pointer, follows it unseen.
 */
export function RetentionRiskValue({ risk }: { risk: TRetentionRisk }) {
  const { text, tone, title } = retentionCell(risk);
  return (
    // Positioned, so the unseen sentence (absolute) stays inside the table's scrolling box, not the page's.
    <span className="retention-wrap">
      <span className={`retention retention-${tone}`} title={title} data-testid="retention-risk" data-kind={risk.kind}>
        {text}
      </span>
      {tone === 'quiet' ? null : <span className="visually-hidden">. {title}</span>}
    </span>
  );
}

/**
 * A group's soonest deletion for the overview ("orders-4 in 3 h 10 min"), how many more partitions are at risk,
 * and how many cannot be judged; a dash when none is at risk and every partition was judged.
 */
export function SoonestDeletionValue({
  group,
}: {
  group: Pick<TGroupSummary, 'soonestDeletion' | 'retentionAtRiskPartitions' | 'retentionUnknownPartitions'>;
}) {
  const soonest = group.soonestDeletion;
  const more = group.retentionAtRiskPartitions - (soonest ? 1 : 0);
  const unknown = group.retentionUnknownPartitions;
  return (
    <>
      {soonest ? (
        <span
          className={`retention ${soonest.earliestMs === 0 ? 'retention-bad' : 'retention-warn'}`}
          title={soonest.summary}
          data-testid="soonest-deletion"
        >
          {soonestDeletionText(soonest)}
        </span>
      ) : unknown > 0 ? (
        <span
          className="retention retention-unknown"
          title="No partition is known to be at risk, and some cannot be judged"
        >
          unknown
        </span>
      ) : (
        <span className="muted">—</span>
      )}
      {more > 0 ? <span className="cell-note">{plural(more, 'more partition')} at risk</span> : null}
      {unknown > 0 ? (
        <span className="cell-note" title="Their topic's settings, record size, age or rates are not known yet">
          {plural(unknown, 'partition')} not judged
        </span>
      ) : null}
    </>
  );
}

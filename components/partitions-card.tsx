import { memo } from 'react';
import type { TGroupDetail } from '@/lib/schemas/groups';
import { Age } from './age';
import { PartitionTable } from './partition-table';
import { EmptyState } from './states';

/** Which commits the statuses rest on, said where the statuses are shown. */
const COMMIT_SOURCE_TEXT: Record<NonNullable<TGroupDetail['commitSource']>, string> = {
  'offsets-topic': 'Statuses rest on every commit, read from __consumer_offsets.',
  sampled:
    'Statuses rest on the committed offsets the sampler reads each round: a commit that repeats the same offset is not seen (no STALL), and commit times are those of the rounds.',
  mixed:
    'Statuses rest on every commit read from __consumer_offsets for some partitions, on sampled committed offsets for the others.',
};

/** The group's partitions: how many, its members and protocol, what the statuses rest on, and the table. */
export const PartitionsCard = memo(function PartitionsCard({
  groupId,
  detail,
}: {
  groupId: string;
  detail: TGroupDetail;
}) {
  return (
    <section className="card" aria-labelledby="partitions-heading">
      <div className="card-head">
        <h2 id="partitions-heading">Partitions</h2>
        <span className="muted small">
          {detail.partitionCount} partitions · {detail.members} member{detail.members === 1 ? '' : 's'}
          {detail.protocol ? ` · ${detail.protocol}` : ''} · sampled <Age at={detail.sampledAt} />
        </span>
      </div>
      {detail.commitSource ? (
        <p className="muted small" data-testid="status-source">
          {COMMIT_SOURCE_TEXT[detail.commitSource]}
        </p>
      ) : null}
      {detail.partitions.length === 0 ? (
        <EmptyState title="The latest sample has no partitions for this group." />
      ) : (
        <PartitionTable groupId={groupId} partitions={detail.partitions} showCommitPrefix={detail.isWardenConsumer} />
      )}
    </section>
  );
});

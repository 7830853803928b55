import type { TPartitionDetail } from '@/lib/schemas/groups';
import { formatCount, formatDurationMs } from '@/lib/format';
import './commit-prefix.css';

/**
 * A Warden consumer's commit prefix on one partition: the commit watermark, what is done but not yet committed,
 * what is in flight, the oldest unfinished record, and whether backpressure paused the partition.
 */
export function CommitPrefix({ prefix }: { prefix: NonNullable<TPartitionDetail['commitPrefix']> }) {
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

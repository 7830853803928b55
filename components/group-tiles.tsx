import { memo } from 'react';
import type { TGroupDetail } from '@/lib/schemas/groups';
import { formatCount, formatRateRounded } from '@/lib/format';
import { Age } from './age';
import { AppLink } from './app-link';
import { TimeLagValue } from './time-lag-cell';
import './group-tiles.css';

/**
 * The group at a glance: why its status is not OK (a callout listing the reasons), then one tile per measure:
 * total lag, worst time lag, records in and out per second, held partitions, the last rebalance.
 */
export const GroupTiles = memo(function GroupTiles({ detail }: { detail: TGroupDetail }) {
  const arrival = sum(detail.partitions.map((p) => p.arrivalRatePerSec));
  const consumption = sum(detail.partitions.map((p) => p.consumptionRatePerSec));
  return (
    <>
      {detail.status !== 'OK' ? (
        <ul className={`callout callout-${detail.status.toLowerCase()}`} aria-label="Why this status">
          {detail.statusReasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      <dl className="tiles">
        <div className="tile">
          <dt>Total lag</dt>
          <dd data-testid="group-total-lag">{formatCount(detail.totalLag)}</dd>
          {detail.partitionsWithoutCommit > 0 ? (
            <dd className="tile-note">+ {detail.partitionsWithoutCommit} never committed</dd>
          ) : null}
        </div>
        <div className="tile">
          <dt>Worst time lag</dt>
          <dd data-testid="group-worst-time-lag">
            <TimeLagValue lag={detail.worstTimeLag} />
          </dd>
          {detail.worstTimeLag ? (
            <dd className="tile-note mono">{`${detail.worstTimeLag.topic}-${detail.worstTimeLag.partition}`}</dd>
          ) : null}
        </div>
        <div className="tile">
          <dt>In</dt>
          <dd>{formatRateRounded(arrival)}</dd>
          <dd className="tile-note">records appended</dd>
        </div>
        <div className="tile">
          <dt>Out</dt>
          <dd>{formatRateRounded(consumption)}</dd>
          <dd className="tile-note">records committed</dd>
        </div>
        <div className="tile">
          <dt>Quarantined</dt>
          <dd>
            {detail.quarantinedPartitions > 0 ? (
              <AppLink href="/quarantine">{detail.quarantinedPartitions}</AppLink>
            ) : (
              '0'
            )}
          </dd>
          <dd className="tile-note">partitions held</dd>
        </div>
        <div className="tile">
          <dt>Last rebalance</dt>
          <dd className="tile-small">
            {detail.lastRebalance ? <Age at={detail.lastRebalance.startedAt} /> : 'none recorded'}
          </dd>
        </div>
      </dl>
    </>
  );
});

function sum(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

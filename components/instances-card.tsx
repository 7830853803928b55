'use client';

import { memo } from 'react';
import type { TConsumerInstance } from '@/lib/schemas/groups';
import { formatCount } from '@/lib/format';
import { Age } from './age';
import { useTimeZone } from './display-preferences';
import { formatDateTime } from './format';
import {
  INSTANCE_STATE_WORDS,
  instanceReadiness,
  instanceStateCounts,
  instanceStateNote,
  partitionCountText,
  partitionListText,
} from './instance-text';
import { EmptyState } from './states';
import './instances-card.css';

/** Above this many partitions an instance's list folds behind a "show" toggle. */
const PARTITIONS_SHOWN_OPEN = 8;

/**
 * The group's instances that report to Warden over the control plane (GET /api/groups/{groupId} `instances`):
 * who each one is, whether it is live, ready, what it owns and which commands it refused. Its state is said in
 * words; its colour only repeats it. A group whose consumers do not report is told why nothing is listed.
 */
export const InstancesCard = memo(function InstancesCard({
  groupId,
  instances,
}: {
  groupId: string;
  instances: TConsumerInstance[];
}) {
  return (
    <section className="card instances" aria-labelledby="instances-heading" data-testid="instances">
      <div className="card-head">
        <h2 id="instances-heading">Instances</h2>
        {instances.length > 0 ? (
          <span className="muted small" data-testid="instances-summary">
            {instanceStateCounts(instances)} · gone and stopped ones stay listed for an hour
          </span>
        ) : null}
      </div>
      {instances.length === 0 ? (
        <EmptyState title="No consumer of this group reports to Warden.">
          Its consumers do not use the control option of @warden/consumer (<code>control: {'{ topicPrefix }'}</code>),
          so Warden sees no instance of it, and its quarantines cannot be acted on from here.
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="grid instances-table">
            <caption className="visually-hidden">Instances of {groupId} that report to Warden</caption>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">State</th>
                <th scope="col">Readiness</th>
                <th scope="col">Partitions</th>
                <th scope="col">Refused commands</th>
                <th scope="col">Started</th>
                <th scope="col">Last report</th>
              </tr>
            </thead>
            <tbody>
              {instances.map((instance) => (
                <InstanceRow key={instance.instanceId} instance={instance} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
});

function InstanceRow({ instance: i }: { instance: TConsumerInstance }) {
  const zone = useTimeZone();
  const live = i.state === 'live';
  const list = partitionListText(i.partitions, i.partitionCount);
  return (
    <tr data-testid="instance-row" data-instance-id={i.instanceId} data-state={i.state}>
      <th scope="row" className="instances-name">
        <span className="mono" data-testid="instance-id">
          {i.instanceId}
        </span>
        <span className="cell-note">
          client {i.clientId} · host {i.host} · pid {i.pid} · @warden/consumer {i.packageVersion}
        </span>
      </th>
      <td data-label="State">
        <span className={`badge instances-state instances-state-${i.state}`} data-testid="instance-state">
          {INSTANCE_STATE_WORDS[i.state]}
        </span>
        <span className="cell-note">{instanceStateNote(i)}</span>
      </td>
      <td data-label="Readiness">
        {/* Colour for a live instance's readiness only: another's is history, not a warning. */}
        <span
          className={live ? (i.ready ? 'instances-ready' : 'instances-not-ready') : undefined}
          data-testid="instance-readiness"
        >
          {instanceReadiness(i)}
        </span>
        {i.readinessDetail ? <span className="cell-note">{i.readinessDetail}</span> : null}
      </td>
      <td data-label="Partitions" data-testid="instance-partitions">
        {partitionCountText(i.partitionCount)}
        {live || i.partitionCount === 0 ? null : <span className="cell-note">at its last report</span>}
        {i.partitionCount === 0 ? null : i.partitionCount <= PARTITIONS_SHOWN_OPEN ? (
          <span className="cell-note mono instances-partitions">{list}</span>
        ) : (
          <details className="instances-partitions">
            <summary>Show them</summary>
            <span className="cell-note mono">{list}</span>
          </details>
        )}
      </td>
      <td data-label="Refused commands" data-testid="instance-refused">
        {formatCount(i.refusedCommands)}
        {i.lastRefusal ? <span className="cell-note instances-refusal">last: {i.lastRefusal}</span> : null}
      </td>
      <td data-label="Started">
        <time dateTime={i.startedAt}>{formatDateTime(i.startedAt, zone)}</time>
      </td>
      <td data-label="Last report">
        <time dateTime={i.reportedAt} title={formatDateTime(i.reportedAt, zone)}>
          <Age at={i.reportedAt} />
        </time>
      </td>
    </tr>
  );
}

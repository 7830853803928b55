'use client';

import { useEffect, useState } from 'react';
import type { TGroupLag } from '@/lib/schemas/groups';
import { formatAge, formatCount } from './format';
import { useGroups } from './hooks/use-groups';

export function GroupsOverview({ refreshMs }: { refreshMs: number }) {
  const { data, error, isPending, isFetching } = useGroups(refreshMs);
  const now = useNow(1000);

  return (
    <section aria-labelledby="groups-heading">
      <div className="section-head">
        <h1 id="groups-heading">Consumer groups</h1>
        <span className="muted" aria-live="polite">
          {isFetching ? 'Refreshing…' : `Refreshes every ${Math.round(refreshMs / 1000)} s`}
        </span>
      </div>
      {error ? (
        <p role="alert" className="banner banner-error">
          Could not load lag: {error.message}. Showing the last data received, if any.
        </p>
      ) : null}
      {isPending ? (
        <p className="muted" role="status">
          Loading consumer groups…
        </p>
      ) : data && data.groups.length === 0 ? (
        <div className="empty" role="status">
          <p>No consumer group has been sampled in the last 10 minutes.</p>
          <p className="muted">Start the worker (npm run worker): its sampler records lag every few seconds.</p>
        </div>
      ) : (
        data?.groups.map((group) => <GroupCard key={group.groupId} group={group} now={now} />)
      )}
    </section>
  );
}

function GroupCard({ group, now }: { group: TGroupLag; now: number }) {
  const headingId = `group-${group.groupId}`;
  return (
    <article className="card" aria-labelledby={headingId} data-testid="group-card" data-group-id={group.groupId}>
      <header className="card-head">
        <h2 id={headingId}>{group.groupId}</h2>
        <span className={`pill pill-${group.state.toLowerCase()}`}>{group.state}</span>
        <span className="stat">
          Total lag <strong data-testid="total-lag">{formatCount(group.totalLag)}</strong>
        </span>
        {group.partitionsWithoutCommit > 0 ? (
          <span className="pill pill-warn" title="These partitions have no committed offset, so their lag is unknown">
            {group.partitionsWithoutCommit} never committed
          </span>
        ) : null}
        <span className="muted">sampled {formatAge(group.sampledAt, now)}</span>
      </header>
      <table className="grid">
        <caption className="visually-hidden">Per-partition lag of {group.groupId}</caption>
        <thead>
          <tr>
            <th scope="col">Topic</th>
            <th scope="col" className="num">Partition</th>
            <th scope="col" className="num">Committed</th>
            <th scope="col" className="num">Log end</th>
            <th scope="col" className="num">Lag</th>
            <th scope="col">Owner</th>
          </tr>
        </thead>
        <tbody>
          {group.partitions.map((p) => (
            <tr key={`${p.topic}/${p.partition}`} data-testid="partition-row">
              <td>{p.topic}</td>
              <td className="num">{p.partition}</td>
              <td className="num">{p.committedOffset ?? '—'}</td>
              <td className="num">{p.logEndOffset}</td>
              <td className="num" data-testid="partition-lag">
                {formatCount(p.lag)}
              </td>
              <td>{p.memberClientId ? `${p.memberClientId} ${p.memberHost ?? ''}` : <span className="muted">unassigned</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}

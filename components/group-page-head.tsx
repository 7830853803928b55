'use client';

import type { TGroupDetail } from '@/lib/schemas/groups';
import { AppLink } from './app-link';
import type { PollingQuery } from './refresh-state';
import { EmptyState, RefreshIndicator } from './states';
import { GroupStatusBadge, StatePill } from './status-badge';
import './group-page-head.css';

/** The group page's top: back to the overview, the group's name and cluster, its status and state, the liveness. */
export function GroupPageHead({
  cluster,
  groupId,
  detail,
  query,
  refreshMs,
}: {
  cluster: string;
  groupId: string;
  /** Undefined until the group's detail is read. */
  detail: TGroupDetail | undefined;
  query: PollingQuery;
  refreshMs: number;
}) {
  return (
    <>
      <AppLink href="/" className="back">
        ← All groups
      </AppLink>
      <div className="page-head">
        <div className="title-row">
          <h1 id="group-heading" className="mono">
            {groupId}
            <span className="pill" data-testid="group-cluster" title="The cluster this group is in">
              {cluster}
            </span>
          </h1>
          {detail ? (
            <>
              <GroupStatusBadge status={detail.status} reasons={detail.statusReasons} />
              <StatePill state={detail.state} />
            </>
          ) : null}
        </div>
        <RefreshIndicator query={query} refreshMs={refreshMs} />
      </div>
    </>
  );
}

/** The group page of a group never sampled: the name and cluster asked for, and what to check. */
export function GroupNeverSampled({ cluster, groupId }: { cluster: string; groupId: string }) {
  return (
    <section aria-labelledby="group-heading">
      <AppLink href="/" className="back">
        ← All groups
      </AppLink>
      <h1 id="group-heading">
        {groupId} <span className="pill">{cluster}</span>
      </h1>
      <EmptyState title="This consumer group has never been sampled.">
        Check the name, and that the sampler&apos;s include and exclude patterns (SAMPLER_GROUP_INCLUDE,
        SAMPLER_GROUP_EXCLUDE) let it through.
      </EmptyState>
    </section>
  );
}

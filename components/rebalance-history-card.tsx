'use client';

import { useRef } from 'react';
import { AppLink } from './app-link';
import { useRebalances } from './hooks/use-rebalances';
import { RebalanceTimeline } from './rebalance-list';
import { EmptyState, ErrorState, LoadingState } from './states';
import { NEAR_VIEWPORT_MARGIN_PX, useNearViewport } from './use-near-viewport';
import './rebalance-history-card.css';

/** How many of the group's newest rebalances its page lists; the Rebalances page has the rest. */
const GROUP_PAGE_REBALANCES = 20;

/**
 * The group's rebalance history, the group page's last card. Each rebalance lists every member before and after
 * (20 rebalances of a 6-member group were 1,100 of the page's 1,820 elements), so the history is asked for and
 * drawn only once the card comes near the viewport, like the charts: opening the page costs neither its request
 * nor its rendering until someone scrolls towards it.
 */
export function RebalanceHistoryCard({
  cluster,
  groupId,
  refreshMs,
}: {
  cluster: string;
  groupId: string;
  refreshMs: number;
}) {
  const card = useRef<HTMLElement>(null);
  const near = useNearViewport(card, NEAR_VIEWPORT_MARGIN_PX);
  const rebalances = useRebalances(refreshMs, cluster, groupId, GROUP_PAGE_REBALANCES, near);
  return (
    <section className="card" aria-labelledby="rebalances-heading" data-testid="rebalance-history" ref={card}>
      <div className="card-head">
        <h2 id="rebalances-heading">Rebalance history</h2>
        <AppLink href="/rebalances" className="small">
          All groups →
        </AppLink>
      </div>
      {rebalances.error ? (
        <ErrorState error={rebalances.error} what="rebalances" hasStaleData={rebalances.data !== undefined} />
      ) : null}
      {!near ? (
        <div className="rebalances-placeholder" aria-hidden="true" />
      ) : rebalances.isPending ? (
        <LoadingState label="Loading rebalances…" />
      ) : rebalances.data && rebalances.data.rebalances.length > 0 ? (
        <RebalanceTimeline rebalances={rebalances.data.rebalances} cluster={cluster} showGroup={false} />
      ) : (
        <EmptyState title="No rebalance recorded for this group." />
      )}
    </section>
  );
}

'use client';

import { AppLink } from '@/components/app-link';
import { useRef } from 'react';
import { AdviceList } from '@/components/advice-list';
import { ApiRequestError } from '@/components/api-client';
import { CapacityCard } from '@/components/capacity-card';
import { useGroup, useGroupAdvice } from '@/components/hooks/use-group';
import { useRebalances } from '@/components/hooks/use-rebalances';
import { OffsetResetCard } from '@/components/offset-reset-card';
import { LagChartsCard } from '@/components/lag-charts-card';
import { PartitionTable } from '@/components/partition-table';
import { RebalanceTimeline } from '@/components/rebalance-list';
import { useCanOperate } from '@/components/session-context';
import { EmptyState, ErrorState, LoadingState, RefreshIndicator } from '@/components/states';
import { FiringAlerts } from '@/components/firing-alerts';
import { InstancesCard } from '@/components/instances-card';
import { GroupStatusBadge, StatePill } from '@/components/status-badge';
import { TimeLagValue } from '@/components/time-lag-cell';
import { NEAR_VIEWPORT_MARGIN_PX, useNearViewport } from '@/components/use-near-viewport';
import { useNow } from '@/components/use-now';
import { useUrlParam } from '@/components/use-url-param';
import { Age } from '@/components/age';
import type { TGroupDetail, TLagRange } from '@/lib/schemas/groups';
import { LAG_RANGES, oneOf } from '@/lib/schemas/values';
import { formatAge, formatCount, formatRateRounded } from '@/lib/format';
import { isStale } from '@/components/format';

/**
 * Group page: partitions and the instances that own them, capacity, advice, charts over a chosen range, and the
 * rebalance history.
 */
export function GroupPageClient({
  cluster,
  groupId,
  refreshMs,
  sampleIntervalMs,
  idleStoreMs,
  serverReadAt,
  neverSampledOnServer,
}: {
  /** The group's cluster (`?cluster=`; `default` without one). */
  cluster: string;
  groupId: string;
  refreshMs: number;
  sampleIntervalMs: number;
  /** SAMPLE_IDLE_STORE_MS: an unchanged group's sample may be this much older without being stale. */
  idleStoreMs: number;
  /** The server's clock when it read the detail it rendered (ms since the epoch). */
  serverReadAt: number;
  /** The server's read of the detail was refused with 404: the group has never been sampled. */
  neverSampledOnServer: boolean;
}) {
  const group = useGroup(cluster, groupId, refreshMs);
  const advice = useGroupAdvice(cluster, groupId, refreshMs);
  // The chart range is in the URL (?range=6h), so a link to the group shows the same window.
  const [range, setRange] = useUrlParam<TLagRange>('range', '15m', oneOf(Object.keys(LAG_RANGES) as TLagRange[]));
  const canOperate = useCanOperate();

  // The server's answer holds until the client's own: a group sampled since then shows as soon as its data comes.
  const neverSampled =
    (group.error instanceof ApiRequestError && group.error.status === 404) ||
    (neverSampledOnServer && group.data === undefined && group.error === null);
  if (neverSampled) {
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

  const detail = group.data;
  return (
    <section aria-labelledby="group-heading">
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
        <RefreshIndicator query={group} refreshMs={refreshMs} />
      </div>
      {group.error ? <ErrorState error={group.error} what="the group" hasStaleData={detail !== undefined} /> : null}
      <FiringAlerts refreshMs={refreshMs} groupId={groupId} cluster={cluster} />
      {detail ? (
        <StaleSampleBanner
          sampledAt={detail.sampledAt}
          sampleIntervalMs={sampleIntervalMs}
          idleStoreMs={idleStoreMs}
          serverReadAt={serverReadAt}
        />
      ) : null}
      {group.isPending ? <LoadingState label="Loading the group…" /> : detail ? <Overview detail={detail} /> : null}

      <div className="two-col">
        <CapacityCard advice={advice.data} error={advice.error} isPending={advice.isPending} />
        <AdviceList advice={advice.data?.advice} error={advice.error} isPending={advice.isPending} />
      </div>

      {detail ? (
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
            <PartitionTable
              groupId={groupId}
              partitions={detail.partitions}
              showCommitPrefix={detail.isWardenConsumer}
            />
          )}
        </section>
      ) : null}

      {/* Beside the partition table: which process owns which partitions, and whether it is there at all. */}
      {detail ? <InstancesCard groupId={groupId} instances={detail.instances} /> : null}

      {detail && canOperate && !detail.isWardenConsumer ? <OffsetResetCard detail={detail} /> : null}

      <LagChartsCard
        cluster={cluster}
        groupId={groupId}
        refreshMs={refreshMs}
        range={range}
        onRange={setRange}
        lastSampledAt={detail?.sampledAt ?? null}
      />

      <RebalanceHistoryCard cluster={cluster} groupId={groupId} refreshMs={refreshMs} />
    </section>
  );
}

/** Which commits the statuses rest on, said where the statuses are shown. */
const COMMIT_SOURCE_TEXT: Record<NonNullable<TGroupDetail['commitSource']>, string> = {
  'offsets-topic': 'Statuses rest on every commit, read from __consumer_offsets.',
  sampled:
    'Statuses rest on the committed offsets the sampler reads each round: a commit that repeats the same offset is not seen (no STALL), and commit times are those of the rounds.',
  mixed:
    'Statuses rest on every commit read from __consumer_offsets for some partitions, on sampled committed offsets for the others.',
};

function Overview({ detail }: { detail: TGroupDetail }) {
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
}

/** How many of the group's newest rebalances its page lists; the Rebalances page has the rest. */
const GROUP_PAGE_REBALANCES = 20;

/**
 * The group's rebalance history, the page's last card. Each rebalance lists every member before and after (20
 * rebalances of a 6-member group were 1,100 of the page's 1,820 elements), so the history is asked for and
 * drawn only once the card comes near the viewport, like the charts: opening the page costs neither
 * its request nor its rendering until someone scrolls towards it.
 */
function RebalanceHistoryCard({
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

/**
 * The stale warning, re-checked every second on its own (the page around it renders only on new data). Until
 * the browser's clock runs (server render and hydration) it is judged on the server's clock when the detail
 * was read, the same in both renders, so a stale group says so in the first paint instead of after hydration.
 */
function StaleSampleBanner({
  sampledAt,
  sampleIntervalMs,
  idleStoreMs,
  serverReadAt,
}: {
  sampledAt: string;
  sampleIntervalMs: number;
  idleStoreMs: number;
  serverReadAt: number;
}) {
  const now = useNow() ?? serverReadAt;
  if (!isStale(sampledAt, now, sampleIntervalMs, idleStoreMs)) return null;
  return (
    <p className="banner banner-warn" role="status">
      <strong>Stale:</strong> last sampled {formatAge(sampledAt, now)}. The sampler is down or no longer sees this
      group; the numbers below are from that sample.
    </p>
  );
}

function sum(values: Array<number | null>): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

'use client';

import { AdviceList } from '@/components/advice-list';
import { ApiRequestError } from '@/components/api-client';
import { CapacityCard } from '@/components/capacity-card';
import { FiringAlerts } from '@/components/firing-alerts';
import { GroupNeverSampled, GroupPageHead } from '@/components/group-page-head';
import { GroupTiles } from '@/components/group-tiles';
import { useGroup, useGroupAdvice } from '@/components/hooks/use-group';
import { InstancesCard } from '@/components/instances-card';
import { LagChartsCard } from '@/components/lag-charts-card';
import { OffsetResetCard } from '@/components/offset-reset-card';
import { PartitionsCard } from '@/components/partitions-card';
import { RebalanceHistoryCard } from '@/components/rebalance-history-card';
import { RecordLossesCard } from '@/components/record-losses-card';
import { useCanOperate } from '@/components/session-context';
import { StaleSampleBanner } from '@/components/stale-sample-banner';
import { ErrorState, LoadingState } from '@/components/states';
import { useUrlParam } from '@/components/use-url-param';
import type { TLagRange } from '@/lib/schemas/groups';
import { LAG_RANGES, oneOf } from '@/lib/schemas/values';

/**
 * Group page: records lost, partitions and the instances that own them, capacity, advice, charts over a chosen
 * range, and the rebalance history. Each card is a component of its own, in the page's order below.
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
  if (neverSampled) return <GroupNeverSampled cluster={cluster} groupId={groupId} />;

  const detail = group.data;
  return (
    <section aria-labelledby="group-heading">
      <GroupPageHead cluster={cluster} groupId={groupId} detail={detail} query={group} refreshMs={refreshMs} />
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
      {group.isPending ? <LoadingState label="Loading the group…" /> : detail ? <GroupTiles detail={detail} /> : null}
      {/* Above the plan: records already gone come before what can still be saved. */}
      {detail ? <RecordLossesCard cluster={cluster} groupId={groupId} losses={detail.losses} /> : null}

      <div className="two-col">
        <CapacityCard advice={advice.data} error={advice.error} isPending={advice.isPending} />
        <AdviceList advice={advice.data?.advice} error={advice.error} isPending={advice.isPending} />
      </div>

      {detail ? <PartitionsCard groupId={groupId} detail={detail} /> : null}
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

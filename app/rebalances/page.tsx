import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { queryKeys, REBALANCE_HISTORY_LIMIT } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZRebalancesResponse } from '@/lib/schemas/rebalances';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { serverDatabase } from '@/lib/server/database';
import { listRebalances } from '@/lib/server/list-rebalances';
import { prefetchQuery } from '../server-prefetch';
import { RebalancesPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Rebalances' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * `?cluster=` when it names a configured cluster, else `default`; the client shows the choice when there are
 * several. The history is in the first HTML (server-prefetch.ts): no spinner, and nothing arrives to push it.
 */
export default async function RebalancesPage({ searchParams }: Props) {
  const config = loadDashboardConfig();
  const clusters = config.clusters.map((c) => c.name);
  const given = (await searchParams).cluster;
  const cluster = typeof given === 'string' && clusters.includes(given) ? given : DEFAULT_CLUSTER;
  const client = new QueryClient();
  await prefetchQuery(client, queryKeys.rebalances(cluster), ZRebalancesResponse, () =>
    listRebalances(serverDatabase(), cluster, { limit: REBALANCE_HISTORY_LIMIT }),
  );
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <RebalancesPageClient refreshMs={config.UI_REFRESH_MS} cluster={cluster} clusters={clusters} />
    </HydrationBoundary>
  );
}

import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { overviewRequest, overviewView, paramsOfRecord } from '@/components/overview-view';
import { queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAlertsResponse } from '@/lib/schemas/alerts';
import { ZGroupsResponse } from '@/lib/schemas/groups';
import { serverDatabase } from '@/lib/server/database';
import { listAlerts } from '@/lib/server/list-alerts';
import { groupsListing, listGroups } from '@/lib/server/list-groups';
import { OverviewPageClient } from './page-client';
import { prefetchQuery } from './server-prefetch';

export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The page of groups the URL's view asks for, in the first HTML: the overview's largest paint
 * (server-prefetch.ts), under the key and with the request of the client's first query (overview-view.ts).
 * The open alerts too: the firing-alerts banner above the table is in the first HTML instead of pushing the
 * table down when it arrives.
 */
export default async function OverviewPage({ searchParams }: Props) {
  const config = loadDashboardConfig();
  const clusters = config.clusters.map((c) => c.name);
  const request = overviewRequest(overviewView(paramsOfRecord(await searchParams), clusters));
  const { cluster, ...query } = request;
  const client = new QueryClient();
  await Promise.all([
    prefetchQuery(client, queryKeys.groupsPage(request), ZGroupsResponse, () =>
      listGroups(serverDatabase(), cluster === undefined ? clusters : [cluster], query, groupsListing(config)),
    ),
    prefetchQuery(client, queryKeys.alerts(), ZAlertsResponse, () => listAlerts(serverDatabase())),
  ]);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <OverviewPageClient
        refreshMs={config.UI_REFRESH_MS}
        sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
        idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
        clusters={clusters}
      />
    </HydrationBoundary>
  );
}

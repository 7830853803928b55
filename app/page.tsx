import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/config';
import { ZGroupsResponse } from '@/lib/schemas/groups';
import { analysisOptions } from '@/lib/server/analysis-options';
import { serverDatabase } from '@/lib/server/database';
import { listGroups } from '@/lib/server/list-groups';
import { OverviewPageClient } from './page-client';
import { prefetchQuery } from './server-prefetch';

export const dynamic = 'force-dynamic';

/** The group list in the first HTML, the overview's largest paint (server-prefetch.ts). */
export default async function OverviewPage() {
  const config = loadDashboardConfig();
  const client = new QueryClient();
  await prefetchQuery(client, queryKeys.groups(), ZGroupsResponse, () =>
    listGroups(
      serverDatabase(),
      config.clusters.map((c) => c.name),
      analysisOptions(config),
    ),
  );
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <OverviewPageClient
        refreshMs={config.UI_REFRESH_MS}
        sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
        idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
      />
    </HydrationBoundary>
  );
}

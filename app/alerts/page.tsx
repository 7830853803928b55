import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAlertsResponse } from '@/lib/schemas/alerts';
import { serverDatabase } from '@/lib/server/database';
import { listAlerts } from '@/lib/server/list-alerts';
import { prefetchQuery } from '../server-prefetch';
import { AlertsPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The alerts of every cluster, or of the configured cluster `?cluster=` names (the client reads the parameter
 * the same way), in the first HTML (server-prefetch.ts).
 */
export default async function AlertsPage({ searchParams }: Props) {
  const config = loadDashboardConfig();
  const clusters = config.clusters.map((c) => c.name);
  const given = (await searchParams).cluster;
  const cluster = typeof given === 'string' && clusters.includes(given) ? given : undefined;
  const client = new QueryClient();
  await prefetchQuery(client, queryKeys.alertsOf(cluster), ZAlertsResponse, () =>
    listAlerts(serverDatabase(), { cluster }),
  );
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <AlertsPageClient refreshMs={config.UI_REFRESH_MS} clusters={clusters} />
    </HydrationBoundary>
  );
}

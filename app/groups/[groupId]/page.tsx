import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZClusterName } from '@/lib/schemas/clusters';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { ZGroupAdvice } from '@/lib/schemas/advice';
import { ZAlertsResponse } from '@/lib/schemas/alerts';
import { ZGroupDetail } from '@/lib/schemas/groups';
import { analysisOptions } from '@/lib/groups/analysis-options';
import { serverDatabase } from '@/lib/server/database';
import { getGroupAdvice } from '@/lib/server/get-group-advice';
import { getGroupDetail } from '@/lib/server/get-group-detail';
import { listAlerts } from '@/lib/server/list-alerts';
import { prefetchQuery } from '../../server-prefetch';
import { GroupPageClient } from './page-client';

export const dynamic = 'force-dynamic';

type Params = {
  params: Promise<{ groupId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** A group id may hold any character; the link encodes it, so the segment is decoded once here. */
async function groupIdOf(params: Params['params']): Promise<string> {
  const raw = (await params).groupId;
  try {
    return /%[0-9a-fA-F]{2}/.test(raw) ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return { title: await groupIdOf(params) };
}

/** `?cluster=` when it is a valid name (the API answers 404 for one that is not configured), else `default`. */
async function clusterOf(searchParams: Params['searchParams']): Promise<string> {
  const parsed = ZClusterName.safeParse((await searchParams).cluster);
  return parsed.success ? parsed.data : DEFAULT_CLUSTER;
}

/**
 * The group's detail, its advice and the open alerts in the first HTML, read side by side, so the tiles, the
 * partition table and the advice paint with it (server-prefetch.ts), and the firing-alerts banner above them
 * does not push them down when it arrives. Without the advice, its paragraphs arrived with a
 * client fetch after hydration and were the page's largest paint. Returns the server's clock when it began
 * reading, which judges whether the sample is stale until the browser's clock runs, and whether the group was
 * never sampled, which the first HTML then says (instead of a spinner until the client's fetch is refused).
 */
async function prefetchGroup(
  client: QueryClient,
  cluster: string,
  groupId: string,
): Promise<{ readAt: number; neverSampled: boolean }> {
  const config = loadDashboardConfig();
  const readAt = Date.now();
  if (!config.clusters.some((c) => c.name === cluster)) return { readAt, neverSampled: false };
  const options = analysisOptions(config);
  const [detail] = await Promise.all([
    prefetchQuery(client, queryKeys.group(cluster, groupId), ZGroupDetail, () =>
      getGroupDetail(serverDatabase(), cluster, groupId, options),
    ),
    prefetchQuery(client, queryKeys.groupAdvice(cluster, groupId), ZGroupAdvice, () =>
      getGroupAdvice(serverDatabase(), cluster, groupId, options),
    ),
    prefetchQuery(client, queryKeys.alerts(), ZAlertsResponse, () => listAlerts(serverDatabase())),
  ]);
  return { readAt, neverSampled: detail === 'not-found' };
}

export default async function GroupPage({ params, searchParams }: Params) {
  const config = loadDashboardConfig();
  const cluster = await clusterOf(searchParams);
  const groupId = await groupIdOf(params);
  const client = new QueryClient();
  const { readAt, neverSampled } = await prefetchGroup(client, cluster, groupId);
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <GroupPageClient
        cluster={cluster}
        groupId={groupId}
        refreshMs={config.UI_REFRESH_MS}
        sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
        idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
        serverReadAt={readAt}
        neverSampledOnServer={neverSampled}
      />
    </HydrationBoundary>
  );
}

import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { DEFAULT_CLUSTER, ZClusterName } from '@/lib/schemas/clusters';
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

export default async function GroupPage({ params, searchParams }: Params) {
  const config = loadDashboardConfig();
  return (
    <GroupPageClient
      cluster={await clusterOf(searchParams)}
      groupId={await groupIdOf(params)}
      refreshMs={config.UI_REFRESH_MS}
      sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
      idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
    />
  );
}

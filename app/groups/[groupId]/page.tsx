import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { GroupPageClient } from './page-client';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ groupId: string }> };

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

export default async function GroupPage({ params }: Params) {
  const config = loadDashboardConfig();
  return (
    <GroupPageClient
      groupId={await groupIdOf(params)}
      refreshMs={config.UI_REFRESH_MS}
      sampleIntervalMs={config.SAMPLE_INTERVAL_MS}
      idleStoreMs={config.SAMPLE_IDLE_STORE_MS}
    />
  );
}

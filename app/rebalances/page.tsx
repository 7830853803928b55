import type { Metadata } from 'next';
import { loadDashboardConfig } from '@/lib/config';
import { DEFAULT_CLUSTER } from '@/lib/schemas/values';
import { RebalancesPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Rebalances' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** `?cluster=` when it names a configured cluster, else `default`; the client shows the choice when there are several. */
export default async function RebalancesPage({ searchParams }: Props) {
  const config = loadDashboardConfig();
  const clusters = config.clusters.map((c) => c.name);
  const given = (await searchParams).cluster;
  const cluster = typeof given === 'string' && clusters.includes(given) ? given : DEFAULT_CLUSTER;
  return <RebalancesPageClient refreshMs={config.UI_REFRESH_MS} cluster={cluster} clusters={clusters} />;
}

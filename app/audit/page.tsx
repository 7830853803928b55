import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { AUDIT_LOG_LIMIT, queryKeys } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAuditResponse } from '@/lib/schemas/operator-actions';
import { serverDatabase } from '@/lib/server/database';
import { listAudit } from '@/lib/server/list-audit';
import { prefetchQuery } from '../server-prefetch';
import { AuditPageClient } from './page-client';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The log of every cluster, or of the configured cluster `?cluster=` names (the client reads the parameter the
 * same way), every kind, in the first HTML (server-prefetch.ts).
 */
export default async function AuditPage({ searchParams }: Props) {
  const config = loadDashboardConfig();
  const clusters = config.clusters.map((c) => c.name);
  const given = (await searchParams).cluster;
  const cluster = typeof given === 'string' && clusters.includes(given) ? given : undefined;
  const client = new QueryClient();
  await prefetchQuery(client, queryKeys.auditLog(undefined, cluster), ZAuditResponse, () =>
    listAudit(serverDatabase(), { cluster, limit: AUDIT_LOG_LIMIT }),
  );
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <AuditPageClient refreshMs={config.UI_REFRESH_MS} clusters={clusters} />
    </HydrationBoundary>
  );
}

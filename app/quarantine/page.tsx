import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { queryKeys, RECENT_ACTIONS_SHOWN } from '@/components/query-keys';
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZAuditResponse } from '@/lib/schemas/operator-actions';
import { ZQuarantinesResponse } from '@/lib/schemas/quarantines';
import { serverDatabase } from '@/lib/server/database';
import { serverPayloadAccess } from '@/lib/server/dead-letters/server-dead-letters';
import { listAudit } from '@/lib/server/list-audit';
import { listQuarantines } from '@/lib/server/list-quarantines';
import { prefetchQuery } from '../server-prefetch';
import { QuarantinePageClient } from './page-client';
import { requestPrincipal } from '../request-principal';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Quarantine' };

/**
 * The held partitions and the recent actions in the first HTML (server-prefetch.ts): the cards paint with the
 * page, and the actions card above them does not push them down when it arrives. Payloads are shown as
 * GET /api/quarantine shows them to the signed-in viewer's role.
 */
export default async function QuarantinePage() {
  const principal = await requestPrincipal();
  const client = new QueryClient();
  if (principal) {
    const { showPayloads } = serverPayloadAccess(principal.role);
    await Promise.all([
      prefetchQuery(client, queryKeys.quarantines(), ZQuarantinesResponse, () =>
        listQuarantines(serverDatabase(), { showPayloads }),
      ),
      prefetchQuery(client, queryKeys.recentActions(), ZAuditResponse, () =>
        listAudit(serverDatabase(), { limit: RECENT_ACTIONS_SHOWN }),
      ),
    ]);
  }
  return (
    <HydrationBoundary state={dehydrate(client)}>
      <QuarantinePageClient refreshMs={loadDashboardConfig().UI_REFRESH_MS} />
    </HydrationBoundary>
  );
}

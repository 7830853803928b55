// GET /api/rebalances?cluster=&groupId=&limit= - one cluster's rebalance history, newest first.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZRebalancesQuery } from '@/lib/schemas/rebalances';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listRebalances } from '@/lib/server/list-rebalances';
import { authorize } from '@/lib/server/auth/request-auth';
import { queryWithoutCluster, requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const cluster = requestedCluster(request, loadDashboardConfig().clusters);
    return listRebalances(serverDatabase(), cluster, ZRebalancesQuery.parse(queryWithoutCluster(request)));
  });
}

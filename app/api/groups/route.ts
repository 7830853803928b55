// GET /api/groups[?cluster=&q=&status=&sort=&order=&limit=&offset=] - one page of the recently sampled consumer
// groups (of every cluster, or of the one named) with status, lag, worst time lag and trend, worst first unless
// another order is asked for.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZGroupsQuery } from '@/lib/schemas/groups';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { groupsListing, listGroups } from '@/lib/server/list-groups';
import { authorize } from '@/lib/server/auth/request-auth';
import { clusterFilter, queryWithoutCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const config = loadDashboardConfig();
    const cluster = clusterFilter(request, config.clusters);
    const query = ZGroupsQuery.parse(queryWithoutCluster(request));
    return listGroups(
      serverDatabase(),
      cluster === null ? config.clusters.map((c) => c.name) : [cluster],
      query,
      groupsListing(config),
    );
  });
}

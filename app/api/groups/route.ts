// GET /api/groups[?cluster=&status=&q=&sort=&order=&page=&pageSize=] - the recently sampled consumer groups (of
// every cluster, or of the one named) with status, lag, worst time lag and trend: filtered, sorted (worst first
// by default) and paged on the server, with the totals the overview shows.
import { loadDashboardConfig } from '@/lib/config';
import { ZGroupsQuery } from '@/lib/schemas/groups';
import { analysisOptions } from '@/lib/server/analysis-options';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listGroupsPage } from '@/lib/server/group-summaries';
import { authorize } from '@/lib/server/auth/request-auth';
import { queryWithoutCluster, requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const config = loadDashboardConfig();
    const clusters = new URL(request.url).searchParams.has('cluster')
      ? [requestedCluster(request, config.clusters)]
      : config.clusters.map((c) => c.name);
    const query = ZGroupsQuery.parse(queryWithoutCluster(request));
    return listGroupsPage(serverDatabase(), clusters, query, analysisOptions(config));
  });
}

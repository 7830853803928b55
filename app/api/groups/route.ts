// GET /api/groups[?cluster=] - every recently sampled consumer group (of every cluster, or of the one named) with
// status, lag, worst time lag and trend, worst first.
import { loadDashboardConfig } from '@/lib/config';
import { analysisOptions } from '@/lib/server/analysis-options';
import { respond } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { listGroups } from '@/lib/server/list-groups';
import { authorize } from '@/lib/server/auth/request-auth';
import { requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const config = loadDashboardConfig();
    const clusters = new URL(request.url).searchParams.has('cluster')
      ? [requestedCluster(request, config.clusters)]
      : config.clusters.map((c) => c.name);
    return listGroups(serverDatabase(), clusters, analysisOptions(config));
  });
}

// GET /api/groups/{groupId}/lag?range=|from=&to=&step=[&cluster=] - per-partition lag, time lag and rate series for charts.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { ZLagSeriesQuery } from '@/lib/schemas/groups';
import { respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { getLagSeries, resolveSeriesWindow } from '@/lib/server/get-lag-series';
import { authorize } from '@/lib/server/auth/request-auth';
import { queryWithoutCluster, requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const config = loadDashboardConfig();
    const cluster = requestedCluster(request, config.clusters);
    const window = resolveSeriesWindow(ZLagSeriesQuery.parse(queryWithoutCluster(request)), Date.now());
    return getLagSeries(serverDatabase(), cluster, groupId, window, config.SAMPLER_RETENTION_DAYS);
  });
}

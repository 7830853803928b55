// GET /api/groups/{groupId}?cluster= - one group's partitions: lag, time lag, rates, owner, status, quarantine, commit prefix.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { analysisOptions } from '@/lib/groups/analysis-options';
import { respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { getGroupDetail } from '@/lib/server/get-group-detail';
import { authorize } from '@/lib/server/auth/request-auth';
import { requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const config = loadDashboardConfig();
    return getGroupDetail(
      serverDatabase(),
      requestedCluster(request, config.clusters),
      groupId,
      analysisOptions(config),
    );
  });
}

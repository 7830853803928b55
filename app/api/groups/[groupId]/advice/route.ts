// GET /api/groups/{groupId}/advice?cluster= - capacity plan ("scale consumers to N, catch up in T") with what-if curve, and advice.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { analysisOptions } from '@/lib/groups/analysis-options';
import { respond, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { getGroupAdvice } from '@/lib/server/get-group-advice';
import { authorize } from '@/lib/server/auth/request-auth';
import { requestedCluster } from '@/lib/server/request-cluster';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  return respond(async () => {
    await authorize(request, 'viewer');
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const config = loadDashboardConfig();
    return getGroupAdvice(
      serverDatabase(),
      requestedCluster(request, config.clusters),
      groupId,
      analysisOptions(config),
    );
  });
}

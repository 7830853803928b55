// POST /api/groups/{groupId}/offsets/reset[?cluster=] - reset a non-Warden group's committed offsets while it is
// Empty or Dead, on the group's own cluster.
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { ZOffsetResetRequest } from '@/lib/schemas/offset-reset';
import { errorResponse, readJsonBody, routeParams } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { withGroupOffsets } from '@/lib/server/offset-reset/server-kafka';
import { requestedCluster } from '@/lib/server/request-cluster';
import { resetGroupOffsets } from '@/lib/server/reset-group-offsets';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  try {
    const operator = await authorize(request, 'operator');
    const cluster = requestedCluster(request, loadDashboardConfig().clusters);
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const body = ZOffsetResetRequest.parse(await readJsonBody(request));
    const result = await withGroupOffsets(cluster, (kafka) =>
      resetGroupOffsets(serverDatabase(), kafka, { cluster, groupId }, body, operator.name),
    );
    return Response.json(result, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}

// POST /api/groups/{groupId}/offsets/reset - reset a non-Warden group's committed offsets while it is Empty or Dead.
import { loadDashboardConfig } from '@/lib/config';
import { DEFAULT_CLUSTER } from '@/lib/schemas/clusters';
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { ApiError } from '@/lib/server/api-error';
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
    // The reset talks to the default cluster's brokers only (lib/server/offset-reset/server-kafka.ts): a
    // group of another cluster is refused rather than reset on the wrong cluster.
    const cluster = requestedCluster(request, loadDashboardConfig().clusters);
    if (cluster !== DEFAULT_CLUSTER) {
      throw new ApiError(409, `offset reset is only available on the default cluster, not on "${cluster}"`);
    }
    const { groupId } = await routeParams(ZGroupRouteParams, params);
    const body = ZOffsetResetRequest.parse(await readJsonBody(request));
    const result = await withGroupOffsets((kafka) =>
      resetGroupOffsets(serverDatabase(), kafka, groupId, body, operator.name),
    );
    return Response.json(result, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    return errorResponse(error);
  }
}

// POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions - resume, skip or seek a quarantined partition (202 + command id);
// a 403 or 409 refusal is kept as a 'rejected' audit row. ?cluster= names the cluster (default: default).
import { loadDashboardConfig } from '@/lib/server/dashboard-config';
import { ZPartitionRouteParams } from '@/lib/schemas/common';
import { ZActionRequest } from '@/lib/schemas/operator-actions';
import { errorResponse, readJsonBody, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { authorizeOperatorAttempt } from '@/lib/server/authorize-operator-attempt';
import { requestedCluster } from '@/lib/server/request-cluster';
import { requestOperatorAction } from '@/lib/server/request-operator-action';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ groupId: string; topic: string; partition: string }> },
) {
  try {
    const { clusters } = loadDashboardConfig();
    const cluster = (() => {
      try {
        return requestedCluster(request, clusters);
      } catch {
        return null;
      }
    })();
    const operator = await authorizeOperatorAttempt(serverDatabase(), request, params, cluster);
    const target = {
      cluster: requestedCluster(request, clusters),
      ...(await routeParams(ZPartitionRouteParams, params)),
    };
    const body = ZActionRequest.parse(await readJsonBody(request));
    const action = await requestOperatorAction(serverDatabase(), target, body, operator.name);
    return Response.json(action, {
      status: 202,
      headers: { location: `/api/commands/${action.id}`, 'cache-control': 'no-store' },
    });
  } catch (error) {
    return errorResponse(error);
  }
}

// POST /api/groups/{groupId}/partitions/{topic}/{partition}/actions - resume, skip or seek a quarantined partition (202 + command id).
import { ZPartitionRouteParams } from '@/lib/schemas/common';
import { ZActionRequest } from '@/lib/schemas/operator-actions';
import { errorResponse, readJsonBody, routeParams } from '@/lib/server/api-response';
import { serverDatabase } from '@/lib/server/database';
import { requestOperatorAction } from '@/lib/server/request-operator-action';
import { authorize } from '@/lib/server/auth/request-auth';

export const dynamic = 'force-dynamic';

export async function POST(
  request: Request,
  { params }: { params: Promise<{ groupId: string; topic: string; partition: string }> },
) {
  try {
    const operator = await authorize(request, 'operator');
    const target = await routeParams(ZPartitionRouteParams, params);
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

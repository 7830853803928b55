// POST /api/groups/{groupId}/offsets/reset - reset a non-Warden group's committed offsets while it is Empty or Dead.
import { ZGroupRouteParams } from '@/lib/schemas/common';
import { ZOffsetResetRequest } from '@/lib/schemas/offset-reset';
import { errorResponse, readJsonBody, routeParams } from '@/lib/server/api-response';
import { authorize } from '@/lib/server/auth/request-auth';
import { serverDatabase } from '@/lib/server/database';
import { withGroupOffsets } from '@/lib/server/offset-reset/server-kafka';
import { resetGroupOffsets } from '@/lib/server/reset-group-offsets';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ groupId: string }> }) {
  try {
    const operator = await authorize(request, 'operator');
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
